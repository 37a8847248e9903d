"""Rewrite Python test asserts on the host so comparisons do not trust the answer's objects.

Inside every `assert` (anywhere in the file, comprehensions included) each comparison becomes a
call into `_rlvr` (sandbox/runner/rlvr_strict.py): `a == b` -> `_rlvr.eq(a, b)`, `x in c` ->
`_rlvr.contains(x, c)`, `a < b < c` -> `_rlvr.chain(['<', '<'], a, b, c)`, and the asserted
value itself goes through `_rlvr.truth(...)`. `is` / `is not` stay as they are (identity cannot be
faked). Comparisons outside asserts are left alone.

    >>> print(strict_asserts("assert f(1) == 2", import_line=False))
    assert _rlvr.truth(_rlvr.eq(f(1), 2))
"""

from __future__ import annotations

import ast

from rlvr.pyast import parse as parse_python

HELPER = "_rlvr"
IMPORT_LINE = f"import rlvr_strict as {HELPER}"
_OP_NAMES: dict[type, str] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
}  # fmt: skip
_SINGLE = {"==": "eq", "!=": "ne", "in": "contains", "not in": "not_contains"}


def _helper(name: str, args: list[ast.expr]) -> ast.Call:
    func = ast.Attribute(value=ast.Name(id=HELPER, ctx=ast.Load()), attr=name, ctx=ast.Load())
    return ast.Call(func=func, args=args, keywords=[])


class _Compares(ast.NodeTransformer):
    """Turns every Compare node below an assert into a strict helper call."""

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        ops = [_OP_NAMES[type(op)] for op in node.ops]
        if len(ops) == 1:
            op = ops[0]
            if op in ("is", "is not"):
                return node
            if op in _SINGLE:
                return _helper(_SINGLE[op], [node.left, node.comparators[0]])
            return _helper("order", [ast.Constant(op), node.left, node.comparators[0]])
        names = ast.List(elts=[ast.Constant(o) for o in ops], ctx=ast.Load())
        return _helper("chain", [names, node.left, *node.comparators])


def _truth(expr: ast.expr) -> ast.expr:
    """Wrap the asserted value; keep `not`/`and`/`or` structure so each part is checked."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return _falsy(expr.operand)
    if isinstance(expr, ast.BoolOp):
        return ast.BoolOp(op=expr.op, values=[_truth(v) for v in expr.values])
    return _helper("truth", [expr])


def _falsy(expr: ast.expr) -> ast.expr:
    """`not expr` without trusting the answer's __bool__ (De Morgan through and/or)."""
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        return _truth(expr.operand)
    if isinstance(expr, ast.BoolOp):
        flipped = ast.Or() if isinstance(expr.op, ast.And) else ast.And()
        return ast.BoolOp(op=flipped, values=[_falsy(v) for v in expr.values])
    return _helper("falsy", [expr])


class _Asserts(ast.NodeTransformer):
    def visit_Assert(self, node: ast.Assert) -> ast.Assert:
        test = _Compares().visit(node.test)
        node.test = _truth(test)
        return node


def _insert_at(tree: ast.Module) -> int:
    """After the module docstring and `from __future__` imports."""
    i = 0
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        i = 1
    while i < len(body) and isinstance(body[i], ast.ImportFrom) and body[i].module == "__future__":
        i += 1
    return i


def strict_asserts(source: str, import_line: bool = True) -> str:
    """The rewritten source; SyntaxError propagates (a broken test file is a task bug)."""
    tree = parse_python(source)
    tree = _Asserts().visit(tree)
    if import_line:
        tree.body.insert(_insert_at(tree), parse_python(IMPORT_LINE).body[0])
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)
