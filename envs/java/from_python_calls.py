"""Calls and loops of from_python.py: builtins, methods, `for` headers, comprehensions.

A comprehension (and `reversed`) becomes a loop written before the statement (`pre`), only
where Python would evaluate it exactly once: never inside a conditional expression, the
right side of `and`/`or`, a `while` test, an `elif` test or another comprehension.
"""

from __future__ import annotations

import ast
from typing import Any

SUB = "    "


class Calls:
    """Mixed into from_python.Render after from_python_expr.Exprs (whose state it uses)."""

    ty: Any

    def call(self, n: ast.Call) -> Any:
        ty, E = self.ty, self.ty.E
        if isinstance(n.func, ast.Attribute):
            return self.method(n, n.func.attr, self.expr(n.func.value))
        name = n.func.id if isinstance(n.func, ast.Name) else ""
        if name == "sorted":
            return self.sorted_call(n)
        if name == "sum" and isinstance(n.args[0], ast.GeneratorExp):
            return self.hoist(n.args[0], "sum")
        if name == "reversed":
            return self.hoist(n.args[0], "reversed")
        if name == "set" and not n.args:
            return E("new HashSet<>()", ("set", None))
        args = [self.expr(a) for a in n.args]
        if self.unknown(*args):
            return E("null", None)
        if name in ("max", "min", "sum"):
            return self.aggregate(name, args)
        a = args[0]
        one = {
            "abs": lambda: E(f"Math.abs({a.code})", a.t, narrow=a.narrow),
            "len": lambda: E(
                f"{ty.wrap(a, ty.ATOM)}.{'length' if a.t == 'str' else 'size'}()", "int",
                narrow=True,
            ),
            "str": lambda: a if a.t == "str" else E(f"String.valueOf({a.code})", "str"),
            "chr": lambda: E(f"(char) {ty.wrap(a, ty.CAST)}", "char", ty.CAST),
            "ord": lambda: E(f"(long) {a.code}", "int", ty.CAST),
            "dict": lambda: E(f"new LinkedHashMap<>({a.code})", a.t),
        }  # fmt: skip
        if name not in one or len(args) != 1:
            raise ty.Unsupported(f"call of {name or 'an expression'}")
        return one[name]()

    def aggregate(self, name: str, args: list[Any]) -> Any:
        """max/min of values (`Math.max`) or of a list (`Collections.max`); sum of a list."""
        ty, E = self.ty, self.ty.E
        if len(args) > 1 and name != "sum":
            code, t = args[0].code, args[0].t
            for b in args[1:]:
                code, t = f"Math.{name}({code}, {b.code})", ty.unify(t, b.t)
            return E(code, t, narrow=all(e.narrow for e in args))
        (a,) = args
        if not isinstance(a.t, tuple) or a.t[0] not in ("list", "set"):
            raise ty.Unsupported(f"{name} of {a.t}")
        if name != "sum":
            return E(f"Collections.{name}({a.code})", a.t[1], boxed=True)
        if a.t[1] != "int":
            raise ty.Unsupported(f"sum of {a.t}")
        return E(f"{ty.wrap(a, ty.ATOM)}.stream().mapToLong(Long::longValue).sum()", "int")

    def method(self, n: ast.Call, m: str, r: Any) -> Any:
        ty, E = self.ty, self.ty.E
        if m == "join" and n.args and isinstance(n.args[0], ast.GeneratorExp | ast.ListComp):
            return self.hoist(n.args[0], "join", r.code)
        args = [self.expr(a) for a in n.args]
        own = n.func.value.id if isinstance(n.func.value, ast.Name) else None  # type: ignore[attr-defined]
        if m in ("append", "add") and own is not None:
            self.note(own, ("list" if m == "append" else "set", ty.held(args[0].t)))
            r = E(r.code, self.typeof(own))
        if self.unknown(r, *args):
            return E("null", None)
        if r.t in ("str", "char"):
            return self.text_method(m, r, args)
        recv, t = ty.wrap(r, ty.ATOM), r.t
        if m in ("append", "add"):
            return E(f"{recv}.add({ty.box(args[0], t[1]).code})", "none")
        if m == "get" and t[0] == "dict":
            key = ty.box(args[0], t[1]).code
            if len(args) == 1:
                return E(f"{recv}.get({key})", ("opt", t[2]), boxed=True)
            dflt = ty.box(args[1], t[2]).code
            return E(f"{recv}.getOrDefault({key}, {dflt})", t[2], boxed=True)
        if m == "count" and t[0] == "list":
            code = f"Collections.frequency({r.code}, {ty.box(args[0], t[1]).code})"
            return E(code, "int", narrow=True)
        raise ty.Unsupported(f"method {m} of {t}")

    def text_method(self, m: str, r: Any, args: list[Any]) -> Any:
        """Methods of a str (or of a char, a one-letter str in Python)."""
        ty, E = self.ty, self.ty.E
        recv, char = ty.wrap(r, ty.ATOM), r.t == "char"
        strs = ", ".join(ty.box(a, "str").code for a in args)
        if m in ("upper", "lower"):
            up = "Upper" if m == "upper" else "Lower"
            if char:
                return E(f"Character.to{up}Case({r.code})", "char")
            return E(f"{recv}.to{up}Case()", "str")
        if m == "isalpha" and char:
            return E(f"Character.isLetter({r.code})", "bool")
        if char:
            raise ty.Unsupported(f"method {m} of a character")
        if m == "replace":
            return E(f"{recv}.replace({strs})", "str")
        if m == "startswith":
            return E(f"{recv}.startsWith({strs})", "bool")
        if m == "split" and not args:  # Python's split(): runs of whitespace, no empty words
            w = self.fresh("word")
            code = f'Arrays.stream({recv}.split("\\\\s+")).filter({w} -> !{w}.isEmpty()).toList()'
            return E(code, ("list", "str"))
        if m == "join" and args[0].t == ("list", "str"):
            return E(f"String.join({r.code}, {args[0].code})", "str")
        raise ty.Unsupported(f"method {m} of a str")

    def for_header(
        self, target: ast.expr, it: ast.expr, ind: str, scoped: bool
    ) -> tuple[str, list[str]]:
        """`for (...) {` and the lines that unpack its variables; notes their types."""
        ty, java = self.ty, self.ty.java
        inner: list[str] = []
        call = it.func.id if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) else ""
        meth = (
            it.func.attr if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) else ""
        )
        if call == "range" and isinstance(target, ast.Name):
            args = [self.expr(a) for a in it.args]  # type: ignore[attr-defined]
            start, stop = (
                (args[0], args[1]) if len(args) > 1 else (ty.E("0", "int", narrow=True), args[0])
            )
            step = it.args[2] if len(args) > 2 else ast.Constant(1)  # type: ignore[attr-defined]
            k = step.value if isinstance(step, ast.Constant) else -step.operand.value  # type: ignore[attr-defined]
            narrow = start.narrow and stop.narrow
            v = self.bound(target.id, "int", narrow, scoped)
            jt = "int" if narrow else "long"
            cmp, inc = ("<" if k > 0 else ">"), ("++" if k == 1 else f" += {k}")
            head = f"for ({jt} {v} = {start.code}; {v} {cmp} {stop.code}; {v}{inc}) {{"
            return ind + head, inner
        if (
            call == "enumerate"
            and isinstance(target, ast.Tuple)
            and isinstance(it.args[0], ast.Name)
        ):  # type: ignore[attr-defined]
            seq = self.expr(it.args[0])  # type: ignore[attr-defined]
            if self.unknown(seq) or seq.t[0] != "list":
                raise ty.Unsupported("enumerate over other than a list")
            i = self.bound(target.elts[0].id, "int", True, scoped)  # type: ignore[attr-defined]
            x = self.bound(target.elts[1].id, seq.t[1], False, scoped)  # type: ignore[attr-defined]
            inner.append(f"{ind}{SUB}{java(seq.t[1])} {x} = {seq.code}.get({i});")
            return f"{ind}for (int {i} = 0; {i} < {seq.code}.size(); {i}++) {{", inner
        if meth in ("items", "values", "keys"):
            d = self.expr(it.func.value)  # type: ignore[attr-defined]
            if self.unknown(d) or d.t[0] != "dict":
                raise ty.Unsupported(f"{meth}() of other than a dict")
            if meth == "items" and isinstance(target, ast.Tuple):
                e = self.fresh("entry")
                k = self.bound(target.elts[0].id, d.t[1], False, scoped)  # type: ignore[attr-defined]
                v = self.bound(target.elts[1].id, d.t[2], False, scoped)  # type: ignore[attr-defined]
                inner.append(f"{ind}{SUB}{java(d.t[1])} {k} = {e}.getKey();")
                inner.append(f"{ind}{SUB}{java(d.t[2])} {v} = {e}.getValue();")
                return f"{ind}for (var {e} : {d.code}.entrySet()) {{", inner
            t = d.t[2] if meth == "values" else d.t[1]
            x = self.bound(target.id, t, False, scoped)  # type: ignore[attr-defined]
            view = "values" if meth == "values" else "keySet"
            return f"{ind}for ({java(t)} {x} : {d.code}.{view}()) {{", inner
        if not isinstance(target, ast.Name):
            raise ty.Unsupported("a for loop unpacking other than enumerate() or items()")
        seq = self.expr(it)
        if self.unknown(seq):
            return ind + "for (;;) {", inner
        if seq.t == "str":
            x = self.bound(target.id, "char", False, scoped)
            return f"{ind}for (char {x} : {ty.wrap(seq, ty.ATOM)}.toCharArray()) {{", inner
        elem = seq.t[1]
        x = self.bound(target.id, elem, False, scoped)
        src = f"{seq.code}.keySet()" if seq.t[0] == "dict" else seq.code
        return f"{ind}for ({java(elem)} {x} : {src}) {{", inner

    def bound(self, name: str, t: Any, narrow: bool, scoped: bool) -> str:
        """A loop variable: noted with its type (in the comprehension's scope when scoped)."""
        if scoped:
            self.scope[-1][name] = t
        else:
            self.note(name, t)
        if narrow:
            self.narrow.add(name)
        return self.jn(name)

    def hoist(self, n: ast.expr, kind: str | None = None, sep: str = "") -> Any:
        """A comprehension (or reversed copy) as a loop before the statement; its result."""
        ty, E, java = self.ty, self.ty.E, self.ty.java
        kind = kind or ("dict" if isinstance(n, ast.DictComp) else "list")
        if not self.hoist_ok:
            raise ty.Unsupported("a comprehension where Python may not evaluate it")
        ind = self.ind
        if kind == "reversed":
            seq = self.expr(n)
            if self.unknown(seq):
                return E("null", None)
            if not isinstance(seq.t, tuple) or seq.t[0] != "list":
                raise ty.Unsupported(f"reversed() of {seq.t}")
            t, name = seq.t, self.fresh("reversed")
            self.pre += [
                f"{ind}{java(t)} {name} = new ArrayList<>({seq.code});",
                f"{ind}Collections.reverse({name});",
            ]
            return E(name, t)
        if len(n.generators) != 1:  # type: ignore[attr-defined]
            raise ty.Unsupported("a comprehension with more than one for")
        gen = n.generators[0]  # type: ignore[attr-defined]
        self.scope.append({})
        self.hoist_ok = False
        try:
            header, inner = self.for_header(gen.target, gen.iter, ind, scoped=True)
            conds = [self.cond(c) for c in gen.ifs]
            if kind == "dict":
                key, val = self.expr(n.key), self.expr(n.value)  # type: ignore[attr-defined]
                elt = None
            else:
                elt = self.expr(n.elt)  # type: ignore[attr-defined]
        finally:
            self.hoist_ok = True
            self.scope.pop()
        body = ind + SUB * (2 if conds else 1)
        if kind == "dict":
            t = ("dict", ty.held(key.t), ty.held(val.t))
            name = self.fresh("result")
            start = f"{java(t)} {name} = new LinkedHashMap<>();"
            add = f"{name}.put({ty.box(key, t[1]).code}, {ty.box(val, t[2]).code});"
            result = E(name, t)
        elif kind == "sum":
            t = "float" if elt.t == "float" else "int"
            name = self.fresh("total")
            start, add, result = f"{java(t)} {name} = 0;", f"{name} += {elt.code};", E(name, t)
        elif kind == "join" and sep == '""':
            name = self.fresh("sb")
            start, add = (
                "StringBuilder sb = new StringBuilder();".replace("sb", name),
                f"{name}.append({elt.code});",
            )
            result = E(f"{name}.toString()", "str")
        else:
            t = ("list", ty.held(elt.t))
            name = self.fresh("parts" if kind == "join" else "items")
            start = f"{java(t)} {name} = new ArrayList<>();"
            add = f"{name}.add({ty.box(elt, t[1]).code});"
            result = E(f"String.join({sep}, {name})", "str") if kind == "join" else E(name, t)
        lines = [ind + start, header, *inner]
        if conds:
            test = " && ".join(ty.wrap(c, ty.AND + 1) for c in conds)
            lines += [f"{ind}{SUB}if ({test}) {{", body + add, f"{ind}{SUB}}}"]
        else:
            lines.append(body + add)
        self.pre += [*lines, ind + "}"]
        return result

    def sorted_call(self, n: ast.Call) -> Any:
        """`sorted(xs)` or `sorted(d, key=lambda k: (d[k], k))` as a sorted stream's list."""
        ty, java = self.ty, self.ty.java
        seq = self.expr(n.args[0])
        if self.unknown(seq):
            return ty.E("null", None)
        elem = seq.t[1]
        src = f"{seq.code}.keySet()" if seq.t[0] == "dict" else seq.code
        order = ""
        if n.keywords:
            lam = n.keywords[0].value
            if n.keywords[0].arg != "key" or not isinstance(lam, ast.Lambda):
                raise ty.Unsupported("sorted() with other than key=lambda")
            var = lam.args.args[0].arg
            keys = lam.body.elts if isinstance(lam.body, ast.Tuple) else [lam.body]
            self.scope.append({var: elem})
            saved, self.hoist_ok = self.hoist_ok, False
            try:
                parts = [ty.box(self.expr(k)).code for k in keys]
            finally:
                self.hoist_ok = saved
                self.scope.pop()
            v = self.jn(var)
            order = f"Comparator.comparing(({java(elem, True)} {v}) -> {parts[0]})"
            order += "".join(f".thenComparing({v} -> {p})" for p in parts[1:])
        head = ty.wrap(seq, ty.ATOM) if src == seq.code else src
        return ty.E(f"{head}.stream().sorted({order}).toList()", ("list", elem))
