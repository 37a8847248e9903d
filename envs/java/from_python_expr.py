"""Expressions of from_python.py: a Python expression of the subset as a Java expression.

A comprehension (and `reversed`) becomes a loop written before the statement (`pre`), which
is only done where Python would evaluate it exactly once: never inside a conditional
expression, the right side of `and`/`or`, a `while` test or another comprehension.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any


class Exprs:
    """The renderer's state and its expressions; from_python.Render adds the statements."""

    def __init__(
        self, ty: Any, params: dict[str, Any], ret: Any, namer: Callable[[str], str]
    ) -> None:
        self.ty = ty  # from_python_types.py (envs/ is not a package: from_python.py loads it)
        self.types: dict[str, Any] = dict(params)
        self.narrow: set[str] = set()
        self.scope: list[dict[str, Any]] = []
        self.ret, self.namer = ret, namer
        self.final = False
        self.pre: list[str] = []
        self.ind = ""
        self.hoist_ok = True
        self.taken: set[str] = set()
        self.jnames: dict[str, str] = {}

    # names and types
    def jn(self, name: str) -> str:
        if name not in self.jnames:
            self.jnames[name] = self.fresh("unused") if name == "_" else self.namer(name)
        return self.jnames[name]

    def fresh(self, base: str) -> str:
        name, k = base, 2
        while name in self.taken:
            name, k = f"{base}{k}", k + 1
        self.taken.add(name)
        return name

    def note(self, name: str, t: Any) -> None:
        for frame in reversed(self.scope):
            if name in frame:
                frame[name] = self.ty.unify(frame[name], t)
                return
        self.types[name] = self.ty.unify(self.types.get(name), t)

    def typeof(self, name: str) -> Any:
        for frame in reversed(self.scope):
            if name in frame:
                return frame[name]
        t = self.types.get(name)
        if t is None and self.final:
            raise self.ty.Unsupported(f"no type for {name}")
        return t

    def unknown(self, *es: Any) -> bool:
        """True in an inference pass when an operand's type is not known yet."""
        if any(e.t is None for e in es):
            if self.final:
                raise self.ty.Unsupported("an operand's type is unknown")
            return True
        return False

    def idx(self, e: Any) -> str:
        """An int expression where Java wants an `int` (an index, a count)."""
        return e.code if e.narrow else f"(int) {self.ty.wrap(e, self.ty.CAST)}"

    # expressions
    def expr(self, n: ast.expr) -> Any:
        kinds = {
            ast.Constant: self.constant, ast.Name: self.name, ast.UnaryOp: self.unary,
            ast.BoolOp: self.logic, ast.Compare: self.logic, ast.BinOp: self.binop,
            ast.IfExp: self.ifexp, ast.Call: self.call, ast.Subscript: self.subscript,
            ast.Tuple: self.display, ast.List: self.display, ast.Dict: self.display,
            ast.ListComp: self.hoist, ast.GeneratorExp: self.hoist, ast.DictComp: self.hoist,
        }  # fmt: skip
        how = kinds.get(type(n))
        if how is None:
            raise self.ty.Unsupported(f"expression {type(n).__name__}")
        return how(n)

    def constant(self, n: ast.Constant) -> Any:
        E, v = self.ty.E, n.value
        if isinstance(v, bool):
            return E("true" if v else "false", "bool")
        if isinstance(v, int):
            small = -(2**31) <= v < 2**31
            return E(str(v) if small else f"{v}L", "int", narrow=small)
        if isinstance(v, float):
            return E(repr(v), "float")
        if isinstance(v, str):
            return E(self.ty.jstr(v), "str")
        return E("null", "none")

    def name(self, n: ast.Name) -> Any:
        return self.ty.E(self.jn(n.id), self.typeof(n.id), narrow=n.id in self.narrow)

    def unary(self, n: ast.UnaryOp) -> Any:
        if isinstance(n.op, ast.Not):
            return self.cond(n)
        if not isinstance(n.op, ast.USub):
            raise self.ty.Unsupported(f"unary {type(n.op).__name__}")
        e = self.expr(n.operand)
        return self.ty.E(f"-{self.ty.wrap(e, self.ty.UNARY)}", e.t, self.ty.UNARY, narrow=e.narrow)

    def display(self, n: ast.Tuple | ast.List | ast.Dict) -> Any:
        """`(a, b)` and `[a, b]` as `List.of(...)`; `[]` and `{}` as new, mutable ones."""
        ty, E = self.ty, self.ty.E
        if isinstance(n, ast.Dict):
            if n.keys:
                raise ty.Unsupported("a dict display with items")
            return E("new LinkedHashMap<>()", ("dict", None, None))
        es = [self.expr(x) for x in n.elts]
        if not es:
            return E("new ArrayList<>()", ("list", None))
        if isinstance(n, ast.Tuple):
            items = ", ".join(ty.box(e).code for e in es)
            return E(f"List.of({items})", ("tuple", *(ty.held(e.t) for e in es)))
        t: Any = None
        for e in es:
            t = ty.unify(t, ty.held(e.t))
        return E(f"List.of({', '.join(ty.box(e, t).code for e in es)})", ("list", t))

    def cond(self, n: ast.expr) -> Any:
        """`n` as a Java boolean (Python's truthiness)."""
        ty = self.ty
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not):
            inner = n.operand
            if isinstance(inner, ast.Compare) and len(inner.ops) == 1:
                flip = {ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot}
                if type(inner.ops[0]) in flip:
                    op = flip[type(inner.ops[0])]()
                    return self.cond(ast.Compare(inner.left, [op], inner.comparators))
            return ty.falsy(self.expr(inner))
        return ty.truthy(self.expr(n))

    def guarded(self, n: ast.expr, as_cond: bool = False) -> Any:
        """Render where Python might not evaluate `n`: nothing may be hoisted out of it."""
        saved, self.hoist_ok = self.hoist_ok, False
        try:
            return self.cond(n) if as_cond else self.expr(n)
        finally:
            self.hoist_ok = saved

    def logic(self, n: ast.BoolOp | ast.Compare) -> Any:
        ty, E = self.ty, self.ty.E
        if isinstance(n, ast.Compare):
            es = [self.expr(x) for x in [n.left, *n.comparators]]
            nodes = [n.left, *n.comparators]
            parts = [
                self.compare(es[i], op, es[i + 1], nodes[i], nodes[i + 1])
                for i, op in enumerate(n.ops)
            ]
            if len(parts) == 1:
                return parts[0]
            return E(" && ".join(ty.wrap(p, ty.AND + 1) for p in parts), "bool", ty.AND)
        first = self.expr(n.values[0])
        rest = [self.guarded(v) for v in n.values[1:]]
        if all(e.t == "bool" for e in [first, *rest]) or isinstance(n.op, ast.And):
            op, p = ("&&", ty.AND) if isinstance(n.op, ast.And) else ("||", ty.OR)
            es = [first if first.t == "bool" else ty.truthy(first)]
            es += [e if e.t == "bool" else ty.truthy(e) for e in rest]
            inner = ty.AND + 1 if op == "||" else p + 1  # `a || (b && c)`, as Python wrote it
            return E(f" {op} ".join(ty.wrap(e, inner) for e in es), "bool", p)
        if len(rest) != 1 or not isinstance(n.values[0], ast.Name) or self.unknown(first, *rest):
            raise ty.Unsupported("`or` picking a value from more than a name")
        t = ty.unify(first.t, rest[0].t)
        a, b = ty.coerce(first, t), ty.coerce(rest[0], t)
        test = ty.falsy(first)
        code = f"{ty.wrap(test, ty.COND + 1)} ? {ty.wrap(b, ty.COND + 1)} : {ty.wrap(a, ty.COND)}"
        return E(code, t, ty.COND)

    def compare(self, a: Any, op: ast.cmpop, b: Any, an: ast.expr, bn: ast.expr) -> Any:
        ty, E = self.ty, self.ty.E
        if isinstance(op, (ast.Is, ast.IsNot)):
            sym = "==" if isinstance(op, ast.Is) else "!="
            return E(f"{ty.wrap(a, ty.REL)} {sym} null", "bool", ty.EQ)
        if self.unknown(a, b):
            return E("false", "bool")
        if isinstance(op, (ast.In, ast.NotIn)):
            neg = isinstance(op, ast.NotIn)
            if b.t == "str" and a.t == "char":
                code = f"{ty.wrap(b, ty.ATOM)}.indexOf({a.code}) {'<' if neg else '>='} 0"
                return E(code, "bool", ty.REL)
            if b.t == "str":
                code = f"{ty.wrap(b, ty.ATOM)}.contains({a.code})"
            elif b.t[0] == "dict":
                code = f"{ty.wrap(b, ty.ATOM)}.containsKey({ty.box(a, b.t[1]).code})"
            else:
                code = f"{ty.wrap(b, ty.ATOM)}.contains({ty.box(a, b.t[1]).code})"
            return E(f"!{code}", "bool", ty.UNARY) if neg else E(code, "bool")
        a, b = self.as_char(a, an, b), self.as_char(b, bn, a)
        if isinstance(op, (ast.Eq, ast.NotEq)) and _is_zero(bn) and _is_mod(an) and a.t == "int":
            x, k = self.expr(an.left), self.expr(an.right)  # type: ignore[attr-defined]
            a = E(f"{ty.wrap(x, ty.MUL)} % {ty.wrap(k, ty.MUL + 1)}", "int", ty.MUL)  # same zeros
        if "char" in (a.t, b.t) and a.t != b.t:
            a, b = ty.box(a, "str"), ty.box(b, "str")
        sym = ty.OPS[type(op)]
        eq = isinstance(op, (ast.Eq, ast.NotEq))
        if a.t == "str" or isinstance(a.t, tuple) or (eq and a.boxed and b.boxed):
            if eq:
                code = f"{ty.wrap(a, ty.ATOM)}.equals({b.code})"
                return E(code, "bool") if sym == "==" else E(f"!{code}", "bool", ty.UNARY)
            return E(f"{ty.wrap(a, ty.ATOM)}.compareTo({b.code}) {sym} 0", "bool", ty.REL)
        p = ty.EQ if eq else ty.REL
        return E(f"{ty.wrap(a, p + 1)} {sym} {ty.wrap(b, p + 1)}", "bool", p)

    def as_char(self, e: Any, node: ast.expr, other: Any) -> Any:
        """A one-letter string constant compared with a char is a char literal."""
        v = node.value if isinstance(node, ast.Constant) else None
        if other.t == "char" and isinstance(v, str) and len(v) == 1:
            return self.ty.E(self.ty.jchar(v), "char")
        return e

    def binop(self, n: ast.BinOp) -> Any:
        ty, E = self.ty, self.ty.E
        a, b = self.expr(n.left), self.expr(n.right)
        if self.unknown(a, b):
            return E("0", a.t if a.t is not None else b.t)
        narrow = a.narrow and b.narrow
        if isinstance(n.op, (ast.FloorDiv, ast.Mod)) and a.t == b.t == "int":
            fn = "floorDiv" if isinstance(n.op, ast.FloorDiv) else "floorMod"
            keep = b.narrow if fn == "floorMod" else narrow  # floorMod(long, int) is an int
            return E(f"Math.{fn}({a.code}, {b.code})", "int", narrow=keep)
        if isinstance(n.op, ast.Add) and {a.t, b.t} <= {"str", "char"}:
            if a.t == b.t == "char":
                a = ty.box(a, "str")
            return E(f"{ty.wrap(a, ty.ADD)} + {ty.wrap(b, ty.ADD + 1)}", "str", ty.ADD)
        if isinstance(n.op, ast.Add) and isinstance(a.t, tuple) and a.t[0] == "list":
            return E(f"Stream.concat({a.code}.stream(), {b.code}.stream()).toList()", a.t)
        if isinstance(n.op, ast.Mult) and isinstance(n.left, ast.List) and b.t == "int":
            if len(n.left.elts) != 1:
                raise ty.Unsupported("repeating a list of other than one item")
            one = ty.box(self.expr(n.left.elts[0]))
            return E(f"Collections.nCopies({self.idx(b)}, {one.code})", a.t)
        if isinstance(n.op, ast.Mult) and a.t == "str" and b.t == "int":
            return E(f"{ty.wrap(a, ty.ATOM)}.repeat({self.idx(b)})", "str")
        if type(n.op) in ty.ARITH and {a.t, b.t} <= {"int", "float"}:
            sym, p = ty.ARITH[type(n.op)]
            t = "float" if "float" in (a.t, b.t) else "int"
            return E(f"{ty.wrap(a, p)} {sym} {ty.wrap(b, p + 1)}", t, p, narrow=narrow)
        raise ty.Unsupported(f"{type(n.op).__name__} on {a.t} and {b.t}")

    def ifexp(self, n: ast.IfExp) -> Any:
        ty, E = self.ty, self.ty.E
        test = self.cond(n.test)
        a, b = self.guarded(n.body), self.guarded(n.orelse)
        if self.unknown(a, b):
            return E("null", a.t if a.t is not None else b.t)
        t = ty.unify(a.t, b.t)
        if t == "str":
            a, b = ty.box(a, "str"), ty.box(b, "str")
        code = f"{ty.wrap(test, ty.COND + 1)} ? {ty.wrap(a, ty.COND + 1)} : {ty.wrap(b, ty.COND)}"
        return E(code, t, ty.COND, narrow=a.narrow and b.narrow)

    def subscript(self, n: ast.Subscript) -> Any:
        ty, E = self.ty, self.ty.E
        r = self.expr(n.value)
        if self.unknown(r):
            return E("null", None)
        recv, t = ty.wrap(r, ty.ATOM), r.t
        size = f"{recv}.length()" if t == "str" else f"{recv}.size()"
        if isinstance(n.slice, ast.Slice):
            s = n.slice
            step = s.step.operand.value if isinstance(s.step, ast.UnaryOp) else None  # type: ignore[attr-defined]
            if step == 1 and s.lower is None and s.upper is None and t == "str":
                return E(f"new StringBuilder({r.code}).reverse().toString()", "str")
            if step == 1 and s.lower is None and s.upper is None:
                return self.hoist(n.value, "reversed")
            if s.step is not None:
                raise ty.Unsupported("a slice with a step")
            lo = self.idx(self.expr(s.lower)) if s.lower else "0"
            hi = f"Math.min({self.idx(self.expr(s.upper))}, {size})" if s.upper else size
            if s.upper and isinstance(s.upper, ast.Name) and s.lower is None:
                hi = self.idx(self.expr(s.upper))
            sub = "substring" if t == "str" else "subList"
            return E(f"{recv}.{sub}({lo}, {hi})", t)
        if t[0] == "dict":
            return E(f"{recv}.get({ty.box(self.expr(n.slice), t[1]).code})", t[2], boxed=True)
        k = n.slice
        if (
            isinstance(k, ast.UnaryOp)
            and isinstance(k.op, ast.USub)
            and isinstance(k.operand, ast.Constant)
        ):
            at = f"{size} - {k.operand.value}"
        else:
            at = self.idx(self.expr(k))
        if t == "str":
            return E(f"{recv}.charAt({at})", "char")
        return E(f"{recv}.get({at})", t[1], boxed=True)


def _is_zero(n: ast.expr) -> bool:
    return isinstance(n, ast.Constant) and n.value == 0 and not isinstance(n.value, bool)


def _is_mod(n: ast.expr) -> bool:
    return isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod)
