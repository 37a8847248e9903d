"""Mutants of a reference solution: small faults the tests of a task should notice.

Python goes through the AST with the classic operators: comparison swaps (`<` -> `<=`, `==` ->
`!=`, `in` -> `not in`), arithmetic swaps (`+` <-> `-`, `*` -> `//`), off-by-one integer
constants, negated conditions (if / while / ternary / comprehension filters), `and` <-> `or`,
`break` <-> `continue`, swapped returns (two different return values of one function
exchanged, `return True` <-> `return False`) and deleted statements. JavaScript, Go and Rust go
through the token-level mutator in mutate_text.py with the same operators.

Each mutant changes one site. Mutants that print the same as the reference or as another
mutant are dropped; when a task has more than `limit` mutants a seeded sample is kept, so a
rerun of the audit grades the same mutants.

    >>> [m.description for m in python_mutants("def f(x):\\n    return x < 1\\n")][:2]
    ['line 2: < -> <=', 'line 2: 1 -> 2']
"""

from __future__ import annotations

import ast
import contextlib
import copy
import difflib
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

from rlvr.pyast import parse

COMPARE_SWAP: dict[type, type] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
ARITH_SWAP: dict[type, type] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.Pow: ast.Mult,
    ast.LShift: ast.RShift,
    ast.RShift: ast.LShift,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
}
SYMBOL = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Div: "/",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.And: "and",
    ast.Or: "or",
}
DELETABLE = (
    ast.Assign,
    ast.AugAssign,
    ast.AnnAssign,
    ast.Expr,
    ast.Return,
    ast.If,
    ast.For,
    ast.While,
    ast.Break,
    ast.Continue,
    ast.Raise,
    ast.With,
    ast.Try,
)
OPERATORS = (
    "compare",
    "arith",
    "constant",
    "negate",
    "boolop",
    "loopjump",
    "swap_return",
    "delete",
)


@dataclass(frozen=True)
class Mutant:
    """One mutated program: which operator changed what, and the full new source."""

    operator: str
    description: str
    source: str
    line: int


def _is_str(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _docstring(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _expr_sites(node: ast.AST, where: str) -> Iterator[tuple[str, str, int]]:
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            yield "compare", f"{where}: {SYMBOL[type(op)]} -> {SYMBOL[COMPARE_SWAP[type(op)]]}", i
    elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in ARITH_SWAP:
        concat = (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Add)
            and (_is_str(node.left) or _is_str(node.right))
        )
        if not concat:
            new = SYMBOL[ARITH_SWAP[type(node.op)]]
            yield "arith", f"{where}: {SYMBOL[type(node.op)]} -> {new}", 0
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        yield "constant", f"{where}: {node.value} -> {node.value + 1}", 1
        yield "constant", f"{where}: {node.value} -> {node.value - 1}", -1
    elif isinstance(node, ast.BoolOp):
        other = "or" if isinstance(node.op, ast.And) else "and"
        yield "boolop", f"{where}: {SYMBOL[type(node.op)]} -> {other}", 0


def _stmt_sites(node: ast.AST, where: str) -> Iterator[tuple[str, str, int]]:
    if isinstance(node, ast.Break | ast.Continue):
        swap = "break -> continue" if isinstance(node, ast.Break) else "continue -> break"
        yield "loopjump", f"{where}: {swap}", 0
    elif isinstance(node, ast.Return) and isinstance(getattr(node.value, "value", None), bool):
        value = node.value.value  # type: ignore[union-attr]
        yield "swap_return", f"{where}: return {value} -> return {not value}", 0
    if isinstance(node, ast.If | ast.While | ast.IfExp):
        yield "negate", f"{where}: condition negated", 0
    if isinstance(node, ast.comprehension):
        for i in range(len(node.ifs)):
            yield "negate", f"{where}: comprehension filter negated", i


def _sites(node: ast.AST, first_line: int) -> Iterator[tuple[str, str, int]]:
    """(operator, description, variant) for each way to mutate `node` itself."""
    line = getattr(node, "lineno", 0)
    if line < first_line:
        return
    where = f"line {line}"
    yield from _expr_sites(node, where)
    yield from _stmt_sites(node, where)


def _negate(test: ast.expr) -> ast.expr:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(op=ast.Not(), operand=test)


def _apply(node: ast.AST, operator: str, variant: int) -> None:
    """Mutate `node` in place."""
    if operator == "compare":
        node.ops[variant] = COMPARE_SWAP[type(node.ops[variant])]()  # type: ignore[attr-defined]
    elif operator == "arith":
        node.op = ARITH_SWAP[type(node.op)]()  # type: ignore[attr-defined]
    elif operator == "constant":
        node.value += variant  # type: ignore[attr-defined]
    elif operator == "boolop":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()  # type: ignore[attr-defined]
    elif operator == "swap_return":
        node.value.value = not node.value.value  # type: ignore[attr-defined]
    elif operator == "negate" and isinstance(node, ast.comprehension):
        node.ifs[variant] = _negate(node.ifs[variant])
    elif operator == "negate":
        node.test = _negate(node.test)  # type: ignore[attr-defined]


def _node_sites(tree: ast.Module, first_line: int) -> list[tuple[int, str, str, int]]:
    """(node index in walk order, operator, description, variant) for every site."""
    out = []
    for idx, node in enumerate(ast.walk(tree)):
        for op, desc, variant in _sites(node, first_line):
            out.append((idx, op, desc, variant))
    return out


def _site_mutant(tree: ast.Module, idx: int, operator: str, variant: int) -> ast.Module:
    new = copy.deepcopy(tree)
    node = next(n for i, n in enumerate(ast.walk(new)) if i == idx)
    if operator == "loopjump":
        jump = ast.copy_location(
            ast.Continue() if isinstance(node, ast.Break) else ast.Break(), node
        )
        for parent in ast.walk(new):
            for _field, value in ast.iter_fields(parent):
                if isinstance(value, list) and any(v is node for v in value):
                    value[next(i for i, v in enumerate(value) if v is node)] = jump
                    return new
        return new
    _apply(node, operator, variant)
    return ast.fix_missing_locations(new)


def _body_mutants(tree: ast.Module, first_line: int) -> Iterator[tuple[str, str, ast.Module]]:
    """Deleted statements and swapped returns (they change statement lists, not one node)."""
    for fi, fn in enumerate(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    ):
        returns = sorted(
            (
                r
                for r in ast.walk(fn)
                if isinstance(r, ast.Return) and r.value is not None and r.lineno >= first_line
            ),
            key=lambda r: (r.lineno, r.col_offset),
        )
        for a, b in itertools.pairwise(returns):
            if ast.unparse(a.value) != ast.unparse(b.value):
                yield from _swap(
                    tree,
                    fi,
                    returns.index(a),
                    first_line,
                    f"line {a.lineno}/{b.lineno}: returns swapped",
                )
    for pi, parent in enumerate(ast.walk(tree)):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(parent, field, None)
            if not isinstance(stmts, list) or isinstance(parent, ast.Module):
                continue
            for si, stmt in enumerate(stmts):
                if (
                    isinstance(stmt, DELETABLE)
                    and not _docstring(stmt)
                    and stmt.lineno >= first_line
                ):
                    new = copy.deepcopy(tree)
                    target = getattr(next(n for i, n in enumerate(ast.walk(new)) if i == pi), field)
                    del target[si]
                    if not [s for s in target if not _docstring(s)]:
                        target.append(ast.Pass())
                    yield (
                        "delete",
                        f"line {stmt.lineno}: statement deleted",
                        ast.fix_missing_locations(new),
                    )


def _swap(
    tree: ast.Module, fi: int, ri: int, first_line: int, desc: str
) -> Iterator[tuple[str, str, ast.Module]]:
    new = copy.deepcopy(tree)
    fn = [n for n in ast.walk(new) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)][fi]
    rets = sorted(
        (
            r
            for r in ast.walk(fn)
            if isinstance(r, ast.Return) and r.value is not None and r.lineno >= first_line
        ),
        key=lambda r: (r.lineno, r.col_offset),
    )
    rets[ri].value, rets[ri + 1].value = rets[ri + 1].value, rets[ri].value
    yield "swap_return", desc, ast.fix_missing_locations(new)


def python_mutants(
    source: str, first_line: int = 1, limit: int | None = None, seed: int = 0
) -> list[Mutant]:
    """Distinct single-site mutants of `source`, mutating only lines >= first_line."""
    try:
        tree = parse(source)
    except (SyntaxError, ValueError):
        return []
    original = ast.unparse(tree)
    found: list[Mutant] = []
    seen = {original}
    for idx, op, desc, variant in _node_sites(tree, first_line):
        _add(found, seen, op, desc, _site_mutant(tree, idx, op, variant))
    for op, desc, new in _body_mutants(tree, first_line):
        _add(found, seen, op, desc, new)
    if limit is not None and len(found) > limit:
        keep = sorted(random.Random(seed).sample(range(len(found)), limit))
        found = [found[i] for i in keep]
    return found


def _add(found: list[Mutant], seen: set[str], op: str, desc: str, tree: ast.Module) -> None:
    try:
        src = ast.unparse(tree)
        compile(src, "<mutant>", "exec")
    except (SyntaxError, ValueError, RecursionError):
        return
    if src not in seen:
        seen.add(src)
        found.append(Mutant(op, desc, src + "\n", int(desc.split(":")[0].split()[1].split("/")[0])))


def unified_diff(before: str, after: str, name: str = "reference") -> str:
    """A unified diff of two programs (Python sources are compared in their unparsed form)."""
    with contextlib.suppress(SyntaxError, ValueError):
        before = ast.unparse(parse(before)) + "\n"
    lines = difflib.unified_diff(
        before.splitlines(True), after.splitlines(True), name, "mutant", n=1
    )
    return "".join(lines)
