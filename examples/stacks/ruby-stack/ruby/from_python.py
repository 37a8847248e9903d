"""Ruby from a task's Python reference, for the subset of rlvr/functions/pysubset.py.

`render(source, entry, params, returns, name)` returns the whole `solution.rb`, or None when the
source is outside the subset or uses something this renderer does not translate (it raises
`Unsupported` inside). Types are tracked loosely (from the signature, assignments, appends and
loop targets) because two things depend on them: Python's truthiness (Ruby's 0, "" and [] are
true) and iterating a string (Ruby iterates its characters with each_char). Python's `//` and
`%` already have Ruby's floor semantics on integers. Loops are Ruby `for` loops, which (like
Python's) open no scope, so a local first assigned in a loop body is seen after it.
"""

from __future__ import annotations

import ast
import json
from typing import Any

from rlvr.functions.pysubset import outside
from rlvr.functions.typelang import parse_type

IND = "  "
RESERVED = {
    "alias", "and", "begin", "break", "case", "class", "def", "defined?", "do", "else",
    "elsif", "end", "ensure", "false", "for", "if", "in", "module", "next", "nil", "not",
    "or", "redo", "rescue", "retry", "return", "self", "super", "then", "true", "undef",
    "unless", "until", "when", "while", "yield", "BEGIN", "END", "__FILE__", "__LINE__",
    "__method__", "__dir__", "p", "puts", "print", "exit", "raise", "loop", "lambda", "proc",
}  # fmt: skip

# precedence levels: lower binds tighter
ATOM, UNARY, MUL, ADD, CMP, NOT, AND, OR, COND = range(9)


class Unsupported(Exception):
    pass


def _ty(t: Any) -> Any:
    """FType -> this module's loose type: 'int', 'str', ..., ('list', T), ('dict', K, V),
    ('tuple', (T, ...)), ('opt', T), ('set', T); None is unknown."""
    k = t.kind
    if k in ("int", "float", "bool", "str", "none"):
        return k
    if k == "optional":
        return ("opt", _ty(t.args[0]))
    if k == "list" or (k == "tuple" and t.variadic):
        return ("list", _ty(t.args[0]))
    if k == "tuple":
        return ("tuple", tuple(_ty(a) for a in t.args))
    return ("dict", _ty(t.args[0]), _ty(t.args[1]))


def kind(t: Any) -> str | None:
    if t is None:
        return None
    return t if isinstance(t, str) else t[0]


def elem(t: Any) -> Any:
    """The type iterating a value of type t yields."""
    k = kind(t)
    if k == "str":
        return "str"
    if k in ("list", "set"):
        return t[1]
    if k == "dict":
        return t[1]
    if k == "tuple":
        ts = set(t[1])
        return t[1][0] if len(ts) == 1 else None
    return None


def rname(name: str) -> str:
    if name[:1].isupper():
        name = "v_" + name
    return name + "_" if name in RESERVED else name


def ruby_string(s: str) -> str:
    return json.dumps(s, ensure_ascii=False).replace("#", "\\#")


class E:
    def __init__(self, code: str, t: Any = None, prec: int = ATOM) -> None:
        self.code, self.t, self.prec = code, t, prec

    def at(self, level: int) -> str:
        """The code as an operand of an operator of precedence `level`."""
        return self.code if self.prec < level else f"({self.code})"

    def recv(self) -> str:
        """The code as the receiver of a method call."""
        return self.code if self.prec == ATOM else f"({self.code})"


CMP_OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "/", ast.Mod: "%"}


class Render:
    def __init__(self, fn: ast.FunctionDef, params: dict[str, Any], ret: Any) -> None:
        self.fn = fn
        self.ret = ret
        self.vars: dict[str, Any] = dict(params)
        self.params = set(params)
        self.helpers: set[str] = set()
        self.uses_set = False

    # ---- types -------------------------------------------------------------------------
    def note(self, name: str, t: Any) -> None:
        old = self.vars.get(name)
        if t is None:
            self.vars.setdefault(name, None)
            return
        if old is None or (old == "none" and t != "none"):
            self.vars[name] = t if old is None else ("opt", t)
        elif (kind(old) == "list" and old[1] is None and kind(t) == "list") or (
            kind(old) == "dict" and old[1] is None and kind(t) == "dict"
        ):
            self.vars[name] = t
        elif kind(old) == "opt" and old[1] is None and t != "none":
            self.vars[name] = ("opt", t)

    # ---- truthiness ---------------------------------------------------------------------
    def cond(self, node: ast.expr) -> E:
        """The node as a Ruby boolean with Python's truthiness."""
        if isinstance(node, ast.BoolOp):
            op = "&&" if isinstance(node.op, ast.And) else "||"
            lvl = AND if op == "&&" else OR
            parts = [self.cond(v).at(lvl) for v in node.values]
            return E(f" {op} ".join(parts), "bool", lvl)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.x_UnaryOp(node)
        return self.truthy(self.expr(node))

    def truthy(self, e: E) -> E:
        k = kind(e.t)
        if k == "bool":
            return e
        if k in ("int", "float"):
            return E(f"{e.at(CMP)} != 0", "bool", CMP)
        if k in ("str", "list", "dict", "set", "tuple"):
            return E(f"!{e.recv()}.empty?", "bool", UNARY)
        if k == "none":
            return E("false", "bool")
        if k == "opt" and kind(e.t[1]) in ("bool",):
            return E(f"{e.recv()} == true", "bool", CMP)
        if k == "opt" and kind(e.t[1]) in ("int", "float", "str", "list", "dict", "set"):
            inner = self.truthy(E(e.recv(), e.t[1])).at(AND)
            return E(f"!{e.recv()}.nil? && {inner}", "bool", AND)
        self.helpers.add("py_truthy")
        return E(f"py_truthy({e.code})", "bool")

    # ---- expressions --------------------------------------------------------------------
    def expr(self, node: ast.expr) -> E:
        m = getattr(self, "x_" + type(node).__name__, None)
        if m is None:
            raise Unsupported(type(node).__name__)
        return m(node)

    def x_Constant(self, node: ast.Constant) -> E:
        v = node.value
        if v is None:
            return E("nil", "none")
        if isinstance(v, bool):
            return E("true" if v else "false", "bool")
        if isinstance(v, int):
            return E(str(v), "int", ATOM if v >= 0 else UNARY)
        if isinstance(v, str):
            return E(ruby_string(v), "str")
        if isinstance(v, float) and v == v and abs(v) != float("inf"):
            return E(repr(v), "float", ATOM if v >= 0 else UNARY)
        raise Unsupported("constant")

    def x_Name(self, node: ast.Name) -> E:
        if node.id not in self.vars:
            raise Unsupported(f"name {node.id}")
        return E(rname(node.id), self.vars[node.id])

    def x_Tuple(self, node: ast.Tuple) -> E:
        es = [self.expr(x) for x in node.elts]
        return E("[" + ", ".join(e.code for e in es) + "]", ("tuple", tuple(e.t for e in es)))

    def x_List(self, node: ast.List) -> E:
        es = [self.expr(x) for x in node.elts]
        t = es[0].t if es else None
        return E("[" + ", ".join(e.code for e in es) + "]", ("list", t))

    def x_Dict(self, node: ast.Dict) -> E:
        if not node.keys:
            return E("{}", ("dict", None, None))
        if any(k is None for k in node.keys):
            raise Unsupported("dict unpacking")
        ks = [self.expr(k) for k in node.keys]
        vs = [self.expr(v) for v in node.values]
        body = ", ".join(f"{k.code} => {v.code}" for k, v in zip(ks, vs, strict=False))
        return E("{ " + body + " }", ("dict", ks[0].t, vs[0].t))

    def x_IfExp(self, node: ast.IfExp) -> E:
        c = self.cond(node.test)
        a, b = self.expr(node.body), self.expr(node.orelse)
        t = a.t if a.t is not None else b.t
        return E(f"{c.at(COND)} ? {a.at(COND)} : {b.at(COND)}", t, COND)

    def x_UnaryOp(self, node: ast.UnaryOp) -> E:
        if isinstance(node.op, ast.Not):
            inner = self.cond(node.operand)
            if inner.prec == UNARY and inner.code.startswith("!") and inner.code.endswith("?"):
                return E(inner.code[1:], "bool")  # not xs -> xs.empty?
            return E("!" + inner.at(UNARY), "bool", UNARY)
        if isinstance(node.op, ast.USub):
            e = self.expr(node.operand)
            return E("-" + e.at(UNARY), e.t, UNARY)
        raise Unsupported("unary op")

    def x_BoolOp(self, node: ast.BoolOp) -> E:
        es = [self.expr(v) for v in node.values]
        is_and = isinstance(node.op, ast.And)
        if all(kind(e.t) == "bool" for e in es):
            op, lvl = ("&&", AND) if is_and else ("||", OR)
            return E(f" {op} ".join(e.at(lvl) for e in es), "bool", lvl)
        # value-picking and/or: Python's truthiness decides, the operand is the value
        out = es[-1]
        for e in reversed(es[:-1]):
            if e.prec != ATOM:
                raise Unsupported("value-picking and/or on a compound operand")
            c = self.truthy(e).at(COND)
            t = e.t if e.t is not None else out.t
            if is_and:
                out = E(f"{c} ? {out.at(COND)} : {e.code}", t, COND)
            else:
                out = E(f"{c} ? {e.code} : {out.at(COND)}", t, COND)
        return out

    def x_BinOp(self, node: ast.BinOp) -> E:
        op = ARITH.get(type(node.op))
        if op is None:
            raise Unsupported("operator")
        a, b = self.expr(node.left), self.expr(node.right)
        ka, kb = kind(a.t), kind(b.t)
        lvl = ADD if op in "+-" else MUL
        if op == "%" and ka == "str":
            raise Unsupported("string formatting")
        if op == "/" and "float" in (ka, kb):
            return E(f"({a.at(MUL)} / {b.at(MUL)}).floor.to_f", "float")
        if op == "*" and ka == "int" and kb in ("str", "list"):
            a, b, ka, kb = b, a, kb, ka
        if op == "*" and ka in ("str", "list"):
            t = a.t
        elif op == "+" and ka in ("str", "list", "tuple"):
            t = a.t if ka != "list" or a.t[1] is not None else b.t
        elif "float" in (ka, kb):
            t = "float"
        elif ka in ("int", "bool") and kb in ("int", "bool"):
            t = "int"
        else:
            t = a.t or b.t
        # Ruby's `a - -b` needs no space games; right operand of -, / and % binds tighter
        right = b.at(lvl) if op in "+*" else b.at(lvl if b.prec < lvl else ATOM)
        return E(f"{a.at(lvl + 1)} {op} {right}", t, lvl)

    def x_Compare(self, node: ast.Compare) -> E:
        parts = []
        left = self.expr(node.left)
        for op, right_node in zip(node.ops, node.comparators, strict=False):
            right = self.expr(right_node)
            parts.append(self.compare(op, left, right))
            left = right
        if len(parts) == 1:
            return parts[0]
        return E(" && ".join(p.at(AND) for p in parts), "bool", AND)

    def compare(self, op: ast.cmpop, a: E, b: E) -> E:
        if isinstance(op, (ast.In, ast.NotIn)):
            code = f"{b.recv()}.include?({a.code})"
            if isinstance(op, ast.NotIn):
                return E("!" + code, "bool", UNARY)
            return E(code, "bool")
        if isinstance(op, ast.Is):
            if b.code != "nil":
                raise Unsupported("is with something other than None")
            return E(f"{a.recv()}.nil?", "bool")
        sym = CMP_OPS.get(type(op))
        if sym is None:
            raise Unsupported("comparison")
        if sym not in ("==", "!=") and "tuple" in (kind(a.t), kind(b.t)):
            return E(f"({a.code} <=> {b.code}) {sym} 0", "bool", CMP)
        return E(f"{a.at(CMP)} {sym} {b.at(CMP)}", "bool", CMP)

    def x_Subscript(self, node: ast.Subscript) -> E:
        v = self.expr(node.value)
        if isinstance(node.slice, ast.Slice):
            s = node.slice
            if s.step is not None:
                step = self.expr(s.step)
                if step.code == "-1" and s.lower is None and s.upper is None:
                    return E(f"{v.recv()}.reverse", v.t)
                raise Unsupported("slice step")
            lo = self.expr(s.lower).code if s.lower is not None else "0"
            if s.upper is None:
                return E(f"{v.recv()}[{lo}..]", v.t)
            hi = self.expr(s.upper)
            return E(f"{v.recv()}[{lo}...{hi.code}]", v.t)
        i = self.expr(node.slice)
        k = kind(v.t)
        t = None
        if k == "dict":
            t = v.t[2]
        elif k == "str":
            t = "str"
        elif k == "list":
            t = v.t[1]
        elif k == "tuple" and isinstance(node.slice, ast.Constant):
            t = v.t[1][node.slice.value]
        return E(f"{v.recv()}[{i.code}]", t)

    # iterables: (code of an Enumerable, element type, how many block params)
    def iterable(self, node: ast.expr) -> tuple[str, Any, int]:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            f, args = node.func.id, node.args
            if f == "range":
                return self.range_(args), "int", 1
            if f == "enumerate" and len(args) == 1 and not node.keywords:
                code, t, n = self.iterable(args[0])
                if n != 1:
                    raise Unsupported("enumerate over pairs")
                return f"{self.recv_of(code)}.each_with_index", ("enum", t), 2
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
            attr = node.func.attr
            d = self.expr(node.func.value)
            if attr == "items" and kind(d.t) in ("dict", None):
                t = d.t if d.t else ("dict", None, None)
                return d.code if d.prec == ATOM else f"({d.code})", ("pair", t[1], t[2]), 2
        e = self.expr(node)
        k = kind(e.t)
        if k == "str":
            return f"{e.recv()}.each_char", "str", 1
        if k == "dict":
            return f"{e.recv()}.keys", e.t[1], 1
        if k in ("list", "set", "tuple"):
            return e.recv(), elem(e.t), 1
        raise Unsupported("iterating a value of unknown type")

    @staticmethod
    def recv_of(code: str) -> str:
        return code if code.replace("_", "").replace(".", "").isalnum() else f"({code})"

    def range_(self, args: list[ast.expr]) -> str:
        es = [self.expr(a) for a in args]
        if len(es) == 1:
            return f"(0...{es[0].code})"
        if len(es) == 2:
            return f"({es[0].code}...{es[1].code})"
        if len(es) == 3 and isinstance(args[2], (ast.Constant, ast.UnaryOp)):
            step = ast.literal_eval(args[2])
            if step > 0:
                return f"({es[0].code}...{es[1].code}).step({step})"
            if step < 0:
                return f"{es[0].recv()}.step({es[1].at(ADD)} + 1, {step})"
        raise Unsupported("range")

    def bind(self, target: ast.expr, t: Any, n: int) -> str:
        """Block parameters / for-loop targets for a target and its element type."""
        if isinstance(target, ast.Name):
            if n != 1 and (kind(t) == "enum" or kind(t) == "pair"):
                self.note(target.id, None)
                raise Unsupported("one name bound to a pair")
            self.note(target.id, t)
            return rname(target.id)
        if isinstance(target, ast.Tuple) and all(isinstance(x, ast.Name) for x in target.elts):
            names = [x.id for x in target.elts]
            if kind(t) == "enum" and len(names) == 2:  # Python (i, x), Ruby |x, i|
                self.note(names[0], "int")
                self.note(names[1], t[1])
                return f"{rname(names[1])}, {rname(names[0])}"
            if kind(t) == "pair" and len(names) == 2:
                self.note(names[0], t[1])
                self.note(names[1], t[2])
            elif kind(t) == "tuple" and len(t[1]) == len(names):
                for nm, et in zip(names, t[1], strict=False):
                    self.note(nm, et)
            else:
                for nm in names:
                    self.note(nm, None)
            return ", ".join(rname(x) for x in names)
        raise Unsupported("loop target")

    def comp(self, node: ast.expr) -> tuple[str, list[str], str, Any]:
        """A comprehension's source chain: (selected enumerable, ..., params, element)."""
        if len(node.generators) != 1 or node.generators[0].is_async:
            raise Unsupported("comprehension with more than one for")
        g = node.generators[0]
        code, t, n = self.iterable(g.iter)
        params = self.bind(g.target, t, n)
        src = self.recv_of(code)
        for cond in g.ifs:
            src = f"{src}.select {{ |{params}| {self.cond(cond).code} }}"
        return src, params

    def x_ListComp(self, node: ast.ListComp) -> E:
        src, params = self.comp(node)
        e = self.expr(node.elt)
        if e.code == params:
            return E(src if "." in src or src.startswith("(") else f"{src}.to_a", ("list", e.t))
        return E(f"{src}.map {{ |{params}| {e.code} }}", ("list", e.t))

    x_GeneratorExp = x_ListComp

    def x_DictComp(self, node: ast.DictComp) -> E:
        src, params = self.comp(node)
        k, v = self.expr(node.key), self.expr(node.value)
        return E(f"{src}.map {{ |{params}| [{k.code}, {v.code}] }}.to_h", ("dict", k.t, v.t))

    def x_Call(self, node: ast.Call) -> E:
        if isinstance(node.func, ast.Name):
            return self.builtin(node.func.id, node)
        if isinstance(node.func, ast.Attribute):
            return self.method(node)
        raise Unsupported("call")

    def seq(self, node: ast.expr) -> E:
        """A node used as a sequence value (generators, ranges, strings as char arrays)."""
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "range"
        ):
            return E(f"{self.range_(node.args)}.to_a", ("list", "int"))
        e = self.expr(node)
        if kind(e.t) == "str":
            return E(f"{e.recv()}.chars", ("list", "str"))
        if kind(e.t) == "dict":
            return E(f"{e.recv()}.keys", ("list", e.t[1]))
        return e

    def builtin(self, f: str, node: ast.Call) -> E:
        args = node.args
        kw = {k.arg: k.value for k in node.keywords}
        if f == "sorted":
            xs = self.seq(args[0])
            if not kw:
                return E(f"{xs.recv()}.sort", xs.t)
            key = kw.pop("key", None)
            if kw or not isinstance(key, ast.Lambda) or len(key.args.args) != 1:
                raise Unsupported("sorted keywords")
            name = key.args.args[0].arg
            self.note(name, elem(xs.t))
            body = self.expr(key.body)
            return E(
                f"{xs.recv()}.sort_by.with_index {{ |{rname(name)}, i_| [{body.code}, i_] }}", xs.t
            )
        if kw:
            raise Unsupported(f"keywords of {f}")
        if f == "len":
            if isinstance(args[0], ast.Call):
                return E(f"{self.seq(args[0]).recv()}.length", "int")
            return E(f"{self.expr(args[0]).recv()}.length", "int")
        if f == "abs":
            e = self.expr(args[0])
            return E(f"{e.recv()}.abs", e.t)
        if f == "str":
            e = self.expr(args[0])
            k = kind(e.t)
            if k == "str":
                return e
            if k == "int":
                return E(f"{e.recv()}.to_s", "str")
            if k == "bool":
                return E(f'({e.code} ? "True" : "False")', "str")
            raise Unsupported("str() of this type")
        if f == "chr":
            return E(f"{self.expr(args[0]).recv()}.chr(Encoding::UTF_8)", "str")
        if f == "ord":
            return E(f"{self.expr(args[0]).recv()}.ord", "int")
        if f in ("max", "min"):
            if len(args) == 1:
                xs = self.seq(args[0])
                return E(f"{xs.recv()}.{f}", elem(xs.t))
            es = [self.expr(a) for a in args]
            t = "float" if any(e.t == "float" for e in es) else es[0].t
            return E("[" + ", ".join(e.code for e in es) + f"].{f}", t)
        if f == "sum":
            if len(args) != 1:
                raise Unsupported("sum with a start")
            xs = self.seq(args[0])
            if kind(elem(xs.t)) == "bool":
                return E(f"{xs.recv()}.count(true)", "int")
            if elem(xs.t) == "float":
                return E(f"{xs.recv()}.inject(0, :+)", "float")
            return E(f"{xs.recv()}.sum", elem(xs.t) or "int")
        if f == "reversed":
            xs = self.seq(args[0])
            return E(f"{xs.recv()}.reverse", xs.t)
        if f == "dict":
            if not args:
                return E("{}", ("dict", None, None))
            e = self.expr(args[0])
            if kind(e.t) != "dict":
                raise Unsupported("dict() of a non-dict")
            return E(f"{e.recv()}.dup", e.t)
        if f == "set":
            self.uses_set = True
            if not args:
                return E("Set.new", ("set", None))
            xs = self.seq(args[0])
            return E(f"{xs.recv()}.to_set", ("set", elem(xs.t)))
        if f == "range":
            return E(self.range_(args), ("list", "int"))
        if f == "enumerate":
            code, t, _ = self.iterable(node)
            return E(f"{code}.map {{ |x_, i_| [i_, x_] }}", ("list", ("tuple", ("int", t[1]))))
        raise Unsupported(f"builtin {f}")

    def method(self, node: ast.Call) -> E:
        attr = node.func.attr
        obj = self.expr(node.func.value)
        if node.keywords:
            raise Unsupported("method keywords")
        args = [self.expr(a) for a in node.args] if attr != "join" else []
        r, k = obj.recv(), kind(obj.t)
        if attr == "join" and len(node.args) == 1:
            xs = self.seq(node.args[0])
            return E(f"{xs.recv()}.join({obj.code})", "str")
        if attr == "append" and len(args) == 1:
            if isinstance(node.func.value, ast.Name):
                self.note(node.func.value.id, ("list", args[0].t))
            return E(f"{r}.push({args[0].code})", obj.t)
        if attr == "add" and len(args) == 1:
            return E(f"{r}.add({args[0].code})", obj.t)
        if attr == "count" and len(args) == 1:
            if k == "str":
                return E(f"{r}.scan({args[0].code}).length", "int")
            if k == "list":
                return E(f"{r}.count({args[0].code})", "int")
        if attr == "get" and k in ("dict", None):
            vt = obj.t[2] if k == "dict" else None
            if len(args) == 1:
                return E(f"{r}[{args[0].code}]", ("opt", vt))
            if len(args) == 2:
                return E(f"{r}.fetch({args[0].code}, {args[1].code})", vt or args[1].t)
        if attr == "isalpha" and not args:
            return E(f"{r}.match?(/\\A\\p{{L}}+\\z/)", "bool")
        if attr == "items" and not args:
            t = obj.t if k == "dict" else ("dict", None, None)
            return E(f"{r}.to_a", ("list", ("tuple", (t[1], t[2]))))
        if attr == "values" and not args:
            return E(f"{r}.values", ("list", obj.t[2] if k == "dict" else None))
        if attr == "keys" and not args:
            return E(f"{r}.keys", ("list", obj.t[1] if k == "dict" else None))
        if attr in ("lower", "upper") and not args:
            return E(f"{r}.{'downcase' if attr == 'lower' else 'upcase'}", "str")
        if attr == "replace" and len(args) == 2:
            new = args[1]
            if isinstance(node.args[1], ast.Constant) and "\\" not in node.args[1].value:
                return E(f"{r}.gsub({args[0].code}, {new.code})", "str")
            return E(f"{r}.gsub({args[0].code}) {{ {new.code} }}", "str")
        if attr == "split":
            if not args:
                return E(f"{r}.split", ("list", "str"))
            if len(args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value:
                sep = node.args[0].value
                pat = "/ /" if sep == " " else args[0].code
                return E(f'({r}.empty? ? [""] : {r}.split({pat}, -1))', ("list", "str"))
        if attr == "startswith" and len(args) == 1:
            return E(f"{r}.start_with?({args[0].code})", "bool")
        raise Unsupported(f"method {attr}")

    # ---- statements ---------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt], ind: str) -> list[str]:
        out: list[str] = []
        for st in stmts:
            out += self.stmt(st, ind)
        return out

    def stmt(self, st: ast.stmt, ind: str) -> list[str]:
        if isinstance(st, ast.Return):
            if st.value is None:
                return [f"{ind}return nil"]
            e = self.expr(st.value)
            if isinstance(st.value, ast.Tuple):
                return [f"{ind}return {e.code}"]
            return [f"{ind}return {e.code}"]
        if isinstance(st, ast.Assign):
            return self.assign(st, ind)
        if isinstance(st, ast.AugAssign):
            op = ARITH.get(type(st.op))
            if op is None:
                raise Unsupported("augmented operator")
            e = self.expr(st.value)
            if isinstance(st.target, ast.Name):
                tgt = self.expr(st.target)
                if kind(tgt.t) == "list" and op == "+":
                    return [f"{ind}{tgt.code}.concat({self.seq(st.value).code})"]
                self.note(st.target.id, e.t)
                return [f"{ind}{tgt.code} {op}= {e.at(COND)}"]
            if isinstance(st.target, ast.Subscript) and not isinstance(st.target.slice, ast.Slice):
                tgt = self.expr(st.target)
                return [f"{ind}{tgt.code} {op}= {e.at(COND)}"]
            raise Unsupported("augmented target")
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            return [f"{ind}{self.expr(st.value).code}"]
        if isinstance(st, ast.If):
            out = [f"{ind}if {self.cond(st.test).code}"]
            out += self.block(st.body, ind + IND)
            orelse = st.orelse
            while len(orelse) == 1 and isinstance(orelse[0], ast.If):
                out.append(f"{ind}elsif {self.cond(orelse[0].test).code}")
                out += self.block(orelse[0].body, ind + IND)
                orelse = orelse[0].orelse
            if orelse:
                out.append(f"{ind}else")
                out += self.block(orelse, ind + IND)
            return [*out, f"{ind}end"]
        if isinstance(st, ast.While):
            if st.orelse:
                raise Unsupported("while else")
            return [
                f"{ind}while {self.cond(st.test).code}",
                *self.block(st.body, ind + IND),
                f"{ind}end",
            ]
        if isinstance(st, ast.For):
            if st.orelse:
                raise Unsupported("for else")
            code, t, n = self.iterable(st.iter)
            target = self.bind(st.target, t, n)
            return [f"{ind}for {target} in {code}", *self.block(st.body, ind + IND), f"{ind}end"]
        if isinstance(st, ast.Pass):
            return []
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
            return []  # a docstring
        raise Unsupported(type(st).__name__)

    def assign(self, st: ast.Assign, ind: str) -> list[str]:
        e = self.expr(st.value)
        names = []
        for tgt in st.targets:
            if isinstance(tgt, ast.Name):
                self.note(tgt.id, e.t)
                names.append(rname(tgt.id))
            elif isinstance(tgt, ast.Subscript) and not isinstance(tgt.slice, ast.Slice):
                obj = self.expr(tgt.value)
                key = self.expr(tgt.slice)
                if isinstance(tgt.value, ast.Name) and kind(obj.t) == "dict":
                    self.note(tgt.value.id, ("dict", key.t, e.t))
                names.append(f"{obj.recv()}[{key.code}]")
            elif isinstance(tgt, ast.Tuple) and all(isinstance(x, ast.Name) for x in tgt.elts):
                if len(st.targets) != 1:
                    raise Unsupported("chained tuple assignment")
                ts = e.t[1] if kind(e.t) == "tuple" and len(e.t[1]) == len(tgt.elts) else None
                for i, x in enumerate(tgt.elts):
                    self.note(x.id, ts[i] if ts else None)
                lhs = ", ".join(rname(x.id) for x in tgt.elts)
                if isinstance(st.value, ast.Tuple):
                    rhs = ", ".join(self.expr(x).code for x in st.value.elts)
                    return [f"{ind}{lhs} = {rhs}"]
                return [f"{ind}{lhs} = {e.code}"]
            else:
                raise Unsupported("assignment target")
        return [f"{ind}{' = '.join(names)} = {e.code}"]


HELPERS = {
    "py_truthy": (
        "def py_truthy(x)\n"
        "  return false if x.nil? || x == false\n"
        "  return x != 0 if x.is_a?(Numeric)\n"
        "  return !x.empty? if x.respond_to?(:empty?)\n"
        "  true\n"
        "end\n"
    ),
}


def _read_before_write(fn: ast.FunctionDef, params: set[str]) -> list[str]:
    """Locals whose first mention in source order is a read (Ruby would take it for a call)."""
    comp_vars = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.comprehension):
            comp_vars |= {x.id for x in ast.walk(n.target) if isinstance(x, ast.Name)}
        if isinstance(n, ast.Lambda):
            comp_vars |= {a.arg for a in n.args.args}
    names = sorted(
        (n for st in fn.body for n in ast.walk(st) if isinstance(n, ast.Name)),
        key=lambda n: (n.lineno, n.col_offset),
    )
    first: dict[str, str] = {}
    for n in names:
        if n.id in params or n.id in comp_vars:
            continue
        first.setdefault(n.id, "store" if isinstance(n.ctx, ast.Store) else "load")
    called = {
        c.func.id for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
    }
    return [n for n, how in first.items() if how == "load" and n not in called]


def render(source: str, entry: str, params: tuple, returns: str, name: str) -> str | None:
    try:
        if outside(source):
            return None
        mod = ast.parse(source)
        fns = [n for n in mod.body if isinstance(n, ast.FunctionDef)]
        if len(mod.body) != 1 or len(fns) != 1 or fns[0].name != entry:
            return None
        fn = fns[0]
        ptypes = {p: _ty(parse_type(t)) for p, t in params}
        if [a.arg for a in fn.args.args] != [p for p, _ in params]:
            return None
        lines: list[str] = []
        r = None
        for _ in range(2):  # the second pass knows the types later statements gave locals
            vars_ = r.vars if r else {}
            r = Render(fn, ptypes, _ty(parse_type(returns)))
            for k, v in vars_.items():
                if k not in r.vars:
                    r.vars[k] = v
            lines = r.block(fn.body, IND)
        pre = [f"{IND}{rname(n)} = nil" for n in _read_before_write(fn, set(ptypes))]
        head = f"def {name}({', '.join(rname(p) for p, _ in params)})"
        out = ""
        if r.uses_set:
            out += "require 'set'\n\n"
        for h in sorted(r.helpers):
            out += HELPERS[h] + "\n"
        return out + "\n".join([head, *pre, *lines, "end"]) + "\n"
    except (Unsupported, SyntaxError, KeyError, IndexError, TypeError, ValueError):
        return None
