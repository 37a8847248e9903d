"""Sums, products and limits in sympy: `sum` / `prod` / `lim` nodes evaluated with `doit()` /
`limit()` inside the killable worker, so a slow sum costs a timeout, never a hang. (`atoms`
parses `\\sum_{k=1}^{n} k`, `\\prod_{i=1}^{4} i`, `\\lim_{x \\to 0} f` into those nodes.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rlvr.graders.math.tree import Node

MAX_TERMS = 1_000  # summed exactly; longer finite sums stay unevaluated (20,000 exact terms took
# seconds). An infinite series goes to doit() (a closed form, or the deadline).


def build(node: Node, positive: bool, to_sympy: Callable[[Node, bool], Any]) -> Any:
    """The sympy value of a sum, product or limit node (sympy is imported in the worker only).

    `to_sympy` is `values.to_sympy`, passed in because `values` imports this module.
    """
    import sympy

    if node.kind == "lim":
        var, point, body = (to_sympy(k, positive) for k in node.kids)
        return sympy.limit(body, var, point)
    var, lo, hi, body = (to_sympy(k, positive) for k in node.kids)
    op = sympy.Sum if node.kind == "sum" else sympy.Product
    span = hi - lo
    if span.is_number and span.is_finite and span > MAX_TERMS:  # a series is left to doit()
        return op(body, (var, lo, hi))
    try:
        return op(body, (var, lo, hi)).doit()
    except (ValueError, TypeError, NotImplementedError):
        return op(body, (var, lo, hi))


CALCULUS = {"sum": build, "prod": build, "lim": build}
