"""Sums, products and limits: `\\sum_{k=1}^{n} k`, `\\prod_{i=1}^{4} i`, `\\lim_{x \\to 0} f`.

Parsed into `sum` / `prod` / `lim` nodes (the bound variable, the range or the point, the body,
which runs to the end of the product term as in LaTeX), then built in sympy and evaluated with
`doit()` / `limit()` inside the killable worker, so a slow sum costs a timeout, never a hang.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rlvr.graders.math_parse import Node, ParseError

if TYPE_CHECKING:
    from rlvr.graders.math_parse import Parser

_ARROWS = ("\\to", "\\rightarrow", "\\longrightarrow", "\\mapsto")
MAX_TERMS = 100_000


def parse_big_operator(p: Parser, name: str) -> Node:
    """After `\\sum` or `\\prod`: `_{k=a}^{b}` then the body."""
    from rlvr.graders.math_atoms import latex_arg, parse_exponent

    lower: Node | None = None
    upper: Node | None = None
    while p.at("_", "^"):
        if p.take()[1] == "_":
            lower = latex_arg(p)
        else:
            upper = parse_exponent(p)
    if lower is None or upper is None or lower.kind != "rel" or lower.value != ("=",):
        raise ParseError(f"\\{name} needs _{{k=a}}^{{b}}")
    var, start = lower.kids
    if var.kind != "sym":
        raise ParseError(f"the index of \\{name} must be a letter")
    return Node(name, (var, start, upper, p.term()))


def parse_limit(p: Parser) -> Node:
    """After `\\lim`: `_{x \\to a}` then the body."""
    from rlvr.graders.math_atoms import parse_atom

    if not p.at("_"):
        raise ParseError("\\lim needs _{x \\to a}")
    p.take()
    braced = p.at("{")
    if braced:
        p.take()
    var = parse_atom(p)
    if var.kind != "sym" or not p.at(*_ARROWS):
        raise ParseError("\\lim needs _{x \\to a}")
    p.take()
    point = p.additive()
    if braced:
        p.expect("}")
    return Node("lim", (var, point, p.term()))


def build(node: Node, positive: bool) -> Any:
    """The sympy value of a sum, product or limit node (sympy is imported in the worker only)."""
    import sympy

    from rlvr.graders.math_values import to_sympy

    if node.kind == "lim":
        var, point, body = (to_sympy(k, positive) for k in node.kids)
        return sympy.limit(body, var, point)
    var, lo, hi, body = (to_sympy(k, positive) for k in node.kids)
    op = sympy.Sum if node.kind == "sum" else sympy.Product
    span = hi - lo
    if span.is_number and span > MAX_TERMS:
        return op(body, (var, lo, hi))
    try:
        return op(body, (var, lo, hi)).doit()
    except (ValueError, TypeError, NotImplementedError):
        return op(body, (var, lo, hi))


CALCULUS = {"sum": build, "prod": build, "lim": build}
