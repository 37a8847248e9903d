"""Java from a task's Python reference, for the subset of rlvr/functions/pysubset.py.

translator.py's `reference_from_python` calls `render`; anything this does not translate
raises `Unsupported` and that task simply gets no rendered reference. Statements and the
declaration of locals are here; types and the Python-meaning rules are in
from_python_types.py. A local is declared where Python first assigns it when that block holds
every use (`long acc = 0;`), else just before the first statement of the innermost block that
holds them all (`long v;` before an if/else that assigns it in both branches).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import sys
from pathlib import Path
from typing import Any


def _sibling(name: str) -> Any:
    path = Path(__file__).with_name(f"{name}.py")  # envs/ is not a package: load by path
    key = f"rlvr_{name}_" + hashlib.sha1(str(path).encode()).hexdigest()[:10]
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None
        sys.modules[key] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[key])
    return sys.modules[key]


ty = _sibling("from_python_types")
Exprs = _sibling("from_python_expr").Exprs
Calls = _sibling("from_python_calls").Calls
E, Unsupported, java, unify, held, box, coerce, wrap = (
    ty.E, ty.Unsupported, ty.java, ty.unify, ty.held, ty.box, ty.coerce, ty.wrap,
)  # fmt: skip
ATOM, UNARY, CAST, MUL, ADD, REL, EQ, AND, OR, COND = (
    ty.ATOM, ty.UNARY, ty.CAST, ty.MUL, ty.ADD, ty.REL, ty.EQ, ty.AND, ty.OR, ty.COND,
)  # fmt: skip
SUB = "    "


Path_ = list[tuple[int, int]]  # (id of a statement list, index in it), from the body down


def _bound_names(every: list[ast.AST]) -> tuple[set[str], set[str], set[str]]:
    """Comprehension and lambda variables, `for` variables, and called names (`len`)."""
    comp: set[str] = set()
    loops: set[str] = set()
    calls: set[str] = set()
    for n in every:
        if isinstance(n, ast.comprehension):
            comp |= ty.names_in(n.target)
        elif isinstance(n, ast.Lambda):
            comp |= {a.arg for a in n.args.args}
        elif isinstance(n, ast.For):
            loops |= ty.names_in(n.target)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            calls.add(n.func.id)
    return comp, loops, calls


def _occurrences(fn: ast.FunctionDef, skip: set[str]) -> tuple[dict[str, list[Path_]], dict]:
    """Each local's statements (as paths), and the statement at each (list id, index)."""
    paths: dict[str, list[Path_]] = {}
    nodes: dict[tuple[int, int], ast.stmt] = {}
    loops: set[str] = set()

    def visit(block: list[ast.stmt], path: Path_, bound: set[str]) -> None:
        for i, st in enumerate(block):
            p = [*path, (id(block), i)]
            nodes[(id(block), i)] = st
            inner = bound
            if isinstance(st, ast.For):
                names = ty.names_in(st.target)
                loops.update(names)
                inner = bound | names
            own = [v for k, v in ast.iter_fields(st) if k not in ("body", "orelse")]
            for part in own:
                for name in set().union(*(ty.names_in(x) for x in _asts(part))) - skip:
                    if name in loops and name not in inner:
                        raise Unsupported(f"loop variable {name} used outside its loop")
                    if name not in inner:
                        paths.setdefault(name, []).append(p)
            for field in ("body", "orelse"):
                if isinstance(getattr(st, field, None), list):
                    visit(getattr(st, field), p, inner)

    visit(fn.body, [], set())
    if loops & set(paths):
        raise Unsupported("a name is both a loop variable and a local")
    return paths, nodes


def _asts(part: Any) -> list[ast.AST]:
    return [x for x in (part if isinstance(part, list) else [part]) if isinstance(x, ast.AST)]


def declarations(fn: ast.FunctionDef, params: set[str], every: list[ast.AST]) -> tuple[set, dict]:
    """Where each local is declared: (Assign id, name) pairs inline, or names before a stmt."""
    comp, loops, callees = _bound_names(every)
    if comp & (params | loops):
        raise Unsupported("a comprehension variable is also a loop variable or a parameter")
    paths, nodes = _occurrences(fn, params | comp | callees)
    if comp & set(paths):
        raise Unsupported("a comprehension variable is also a local")
    inline: set[tuple[int, str]] = set()
    before: dict[tuple[int, int], list[str]] = {}
    for name, ps in paths.items():
        depth = 0  # down to the innermost statement list holding every use
        while (
            all(len(p) > depth + 1 for p in ps)
            and len({p[depth] for p in ps}) == 1
            and len({p[depth + 1][0] for p in ps}) == 1
        ):
            depth += 1
        block = ps[0][depth][0]
        first = min(p[depth][1] for p in ps)
        st = nodes[(block, first)]
        if _assigns(st, name) and all(len(p) == depth + 1 for p in ps if p[depth][1] == first):
            inline.add((id(st), name))
        else:
            before.setdefault((block, first), []).append(name)
    return inline, before


def _assigns(st: ast.stmt, name: str) -> bool:
    """`st` is `name = ...` (or a tuple or chained assignment to it) not reading `name`."""
    if not isinstance(st, ast.Assign) or name in ty.names_in(st.value):
        return False
    flat = [
        n for t in st.targets for n in ([t] if isinstance(t, ast.Name) else getattr(t, "elts", []))
    ]
    return any(isinstance(n, ast.Name) and n.id == name for n in flat)


class Render(Calls, Exprs):
    """One function: three passes over it, the last one writing Java."""

    def __init__(self, fn: ast.FunctionDef, params: dict[str, Any], ret: Any, namer: Any) -> None:
        super().__init__(ty, params, ret, namer)
        self.fn = fn
        self.params = {p: namer(p) for p in params}
        every = list(ast.walk(fn))
        self.inline, self.before = declarations(fn, set(params), every)
        callees = {c.func for c in every if isinstance(c, ast.Call)}
        self.locals = {n.id for n in every if isinstance(n, ast.Name) and n not in callees}

    def body(self) -> str:
        for final in (False, False, True):
            self.final = final  # every pass names its temporaries afresh
            self.taken = {self.namer(n) for n in self.locals} | set(self.params.values())
            self.jnames = dict(self.params)
            lines = self.block(self.fn.body, SUB * 2)
        return "\n".join(lines)

    def block(self, stmts: list[ast.stmt], ind: str) -> list[str]:
        out: list[str] = []
        for i, st in enumerate(stmts):
            self.pre, self.ind = [], ind
            try:
                for name in self.before.get((id(stmts), i), []):
                    t = self.typeof(name)
                    out.append(f"{ind}{java(t) if self.final else ''} {self.jn(name)};")
                out += self.stmt(st, ind)
            except Unsupported:
                if self.final:
                    raise
        return out

    def take(self) -> list[str]:
        pre, self.pre = self.pre, []
        return pre

    def stmt(self, st: ast.stmt, ind: str) -> list[str]:
        if isinstance(st, ast.Return) and st.value is not None:
            if isinstance(st.value, ast.Name):
                self.note(st.value.id, self.ret)
            e = coerce(self.expr(st.value), self.ret)
            return [*self.take(), f"{ind}return {e.code};"]
        if isinstance(st, ast.Assign):
            return self.assign(st, ind)
        if isinstance(st, ast.AugAssign) and isinstance(st.target, ast.Name):
            op = ty.ARITH.get(type(st.op))
            e = self.expr(st.value)
            if op is None:
                raise Unsupported("augmented assignment other than + - *")
            self.note(st.target.id, e.t)
            e = coerce(e, self.typeof(st.target.id))
            return [*self.take(), f"{ind}{self.jn(st.target.id)} {op[0]}= {e.code};"]
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            code = self.expr(st.value).code
            return [*self.take(), f"{ind}{code};"]
        if isinstance(st, ast.If):
            return self.if_chain(st, ind)
        if isinstance(st, ast.While):
            test = self.guarded(st.test, as_cond=True)
            head = f"{ind}while ({test.code}) {{"
            return [head, *self.block(st.body, ind + SUB), f"{ind}}}"]
        if isinstance(st, ast.For) and not st.orelse:
            header, inner = self.for_header(st.target, st.iter, ind, scoped=False)
            pre = self.take()
            return [*pre, header, *inner, *self.block(st.body, ind + SUB), f"{ind}}}"]
        raise Unsupported(f"statement {type(st).__name__}")

    def if_chain(self, st: ast.If, ind: str) -> list[str]:
        test = self.cond(st.test)
        out = [*self.take(), f"{ind}if ({test.code}) {{", *self.block(st.body, ind + SUB)]
        rest = st.orelse
        while len(rest) == 1 and isinstance(rest[0], ast.If):
            test = self.guarded(rest[0].test, as_cond=True)
            out += [f"{ind}}} else if ({test.code}) {{", *self.block(rest[0].body, ind + SUB)]
            rest = rest[0].orelse
        if rest:
            out += [f"{ind}}} else {{", *self.block(rest, ind + SUB)]
        return [*out, f"{ind}}}"]

    def declare(self, st: ast.stmt, name: str, code: str) -> str:
        t = java(self.typeof(name))
        head = f"{t} " if (id(st), name) in self.inline else ""
        return f"{head}{self.jn(name)} = {code};"

    def assign(self, st: ast.Assign, ind: str) -> list[str]:
        if len(st.targets) > 1:  # `i = j = 0`
            names = [t.id for t in st.targets if isinstance(t, ast.Name)]
            if not isinstance(st.value, ast.Constant) or len(names) != len(st.targets):
                raise Unsupported("a chained assignment of more than a constant to names")
            e = self.expr(st.value)
            for name in names:
                self.note(name, e.t)
            return [ind + self.declare(st, n, coerce(e, self.typeof(n)).code) for n in names]
        (target,) = st.targets
        if isinstance(target, ast.Tuple) and isinstance(st.value, ast.Tuple):
            return self.swap(st, target, st.value, ind)
        if isinstance(target, ast.Subscript):
            r, k, v = self.expr(target.value), self.expr(target.slice), self.expr(st.value)
            if isinstance(target.value, ast.Name) and (r.t is None or r.t[0] == "dict"):
                self.note(target.value.id, ("dict", ty.held(k.t), ty.held(v.t)))
                r = ty.E(r.code, self.typeof(target.value.id))
            if self.unknown(r, k, v) or r.t[0] != "dict":
                raise Unsupported("a store into other than a dict")
            key, val = ty.box(k, r.t[1]).code, ty.box(v, r.t[2]).code
            return [*self.take(), f"{ind}{r.code}.put({key}, {val});"]
        if not isinstance(target, ast.Name):
            raise Unsupported("an assignment to other than a name")
        e = self.expr(st.value)
        self.note(target.id, e.t)
        t = self.typeof(target.id)
        if isinstance(st.value, ast.List) and st.value.elts:
            e = ty.E(f"new ArrayList<>({e.code})", e.t)
        e = coerce(e, t)
        if t == "int" and e.t == "char":
            e = ty.E(f"(long) {ty.wrap(e, CAST)}", "int", CAST)
        return [*self.take(), ind + self.declare(st, target.id, e.code)]

    def swap(self, st: ast.Assign, target: ast.Tuple, value: ast.Tuple, ind: str) -> list[str]:
        names = [t.id for t in target.elts if isinstance(t, ast.Name)]
        if len(names) != len(target.elts) or len(names) != len(value.elts):
            raise Unsupported("a tuple assignment of other than names")
        es = [self.expr(v) for v in value.elts]
        out = self.take()
        codes = []
        for i, (name, v, e) in enumerate(zip(names, value.elts, es, strict=True)):
            self.note(name, e.t)
            code = coerce(e, self.typeof(name)).code
            if ty.names_in(v) & set(names[:i]):  # reads a name assigned before it: keep its value
                tmp = self.fresh(self.jn(name) + "Next")
                out.append(f"{ind}{java(self.typeof(name))} {tmp} = {code};")
                code = tmp
            codes.append(code)
        return out + [ind + self.declare(st, n, c) for n, c in zip(names, codes, strict=True)]


def render(fn_source: str, params: dict[str, Any], ret: Any, namer: Any) -> str:
    """The method body (statements indented for a method in a class) of a Python function."""
    body = ast.parse(fn_source).body
    fn = body[0] if len(body) == 1 else None
    if not isinstance(fn, ast.FunctionDef):
        raise Unsupported("the reference is not one function")
    return Render(fn, params, ret, namer).body()
