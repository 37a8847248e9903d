"""Every link of an equation chain must hold, not only the one that states the answer.

`x = 2 = 3` states x = 3 by its first and last sides, but its middle link claims 2 = 3: an
answer that writes a falsehood on the way to the gold is rejected, whatever its last side (Math-
Verify accepts it). Only sides without letters are checked against each other (`x = 2y = 6` is
a substitution, not a contradiction); a chain cut by `\\approx` is checked up to the cut.

A side written as a decimal is a rounding of the others when it agrees with them to one unit of
its last written place (`x = 2\\pi = 6.28`, `\\frac{2}{3} = 0.67` and `= 0.66` hold), since
writing `=` for a rounded intermediate is common and harmless; the stated value is still
compared with the gold under the full rules of `compare`.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from rlvr.graders.math.compare import scalars_equal
from rlvr.graders.math.exact import places
from rlvr.graders.math.relations import constant_sides
from rlvr.graders.math.rules import Rules
from rlvr.graders.math.tree import Node, render
from rlvr.graders.math.values import to_sympy

MAX_SIDES = 12
_NOT_SCALAR = frozenset({"tuple", "list", "set", "union", "matrix", "text", "rel"})


def chain_conflict(tree: Node, rules: Rules) -> str | None:
    """Why a chain in the answer (top level or an item of a list) equates two different
    constants, or None when every link it can check holds."""
    chains = [tree] if tree.kind == "rel" else []
    if tree.kind in ("list", "set"):
        chains = [k for k in tree.kids if k.kind == "rel"]
    for chain in chains:
        sides = constant_sides(chain)
        if len(sides) > MAX_SIDES:  # unchecked links would let `1 = 1 = ... = 42` pass
            return f"the chain has {len(sides)} sides, more than the {MAX_SIDES} checked"
        for a, b in itertools.pairwise(sides):
            if not _agree(a, b, rules):
                return f"the chain states {_show(a)} = {_show(b)}, which is false"
    return None


def _agree(a: Node, b: Node, rules: Rules) -> bool:
    """Equal, or one a rounding of the other; a pair this cannot evaluate is not refuted."""
    if a.kind in _NOT_SCALAR or b.kind in _NOT_SCALAR:
        return True
    try:
        if scalars_equal(a, b, rules).equal:
            return True
    except Exception:  # sympy fails in many ways on odd input; only a clear falsehood rejects
        return True
    return _rounds_loosely(a, b) or _rounds_loosely(b, a)


def _rounds_loosely(dec: Node, other: Node) -> bool:
    """`dec` is a decimal within one unit of its last place of `other` (a constant)."""
    if dec.kind != "num" or not dec.value[1]:
        return False
    shape = places(dec.value[0])
    if shape is None:
        return False
    try:
        value = to_sympy(other).evalf(40)
        if not (value.is_real and value.is_finite):
            return False
        other_q = Fraction(str(sympy.Float(value, 40)))
    except (TypeError, ValueError, ArithmeticError):
        return False
    return abs(dec.value[0] - other_q) <= Fraction(1, 10 ** shape[0])


def _show(side: Node) -> str:
    text = render(side)
    return text if len(text) <= 40 else text[:37] + "..."
