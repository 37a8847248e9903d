"""Answers made only of exact numbers, compared in the calling thread without sympy.

`(1, \\frac{9}{2})`, `\\{1, 2, 3\\}`, `[0, 4.5)`, `2^{10}`, `-\\frac{10}{9}`: they cannot hang -
parsing is linear and capped (`MAX_TOKENS`), the bomb guard measures the tree before `rational`
computes anything, and the comparison is `Fraction` arithmetic - so they skip the worker round
trip. The rules are those of `compare` for the same shapes; any other shape (letters,
roots, relations, a collection against a single value) returns None and goes to the worker.
"""

from __future__ import annotations

from fractions import Fraction

from rlvr.graders.math.exact import compare_rationals, has_decimal, rational
from rlvr.graders.math.guard import Limits, TooBig, check_size
from rlvr.graders.math.parse import parse
from rlvr.graders.math.tree import Node, ParseError

MAX_ITEMS = 32
Plain = tuple  # ("num", Fraction, decimal) | ("seq", brackets, items) | ("set", items)


def read_plain(text: str, limits: Limits) -> Plain | None:
    """The exact value of an answer made only of numbers, or None."""
    try:
        tree = parse(text)
        check_size(tree, limits)
    except (ParseError, TooBig, RecursionError):
        return None
    return _plain(tree, top=True)


def _plain(node: Node, top: bool = False) -> Plain | None:
    if node.kind in ("tuple", "set", "list") and top:
        if node.kind == "list" and not node.value <= {","}:
            return None
        items = [_plain(k) for k in node.kids]
        if any(i is None for i in items) or len(items) > MAX_ITEMS:
            return None
        if node.kind == "tuple":
            return ("seq", node.value, tuple(items))
        return ("set", tuple(items))
    value: Fraction | None = rational(node)
    return None if value is None else ("num", value, has_decimal(node))


def compare_plain(gold: Plain, ans: Plain, digits: int) -> tuple[bool, str] | None:
    """(equal, reason) for two plain values of the same shape; None for any other pair."""
    if gold[0] == "num" and ans[0] == "num":
        return _nums(gold, ans, digits)
    if gold[0] != ans[0] or gold[0] == "num":
        return None
    if gold[0] == "seq":
        if gold[1] != ans[1]:
            return False, "the answer's brackets differ from the gold's"
        if len(gold[2]) != len(ans[2]):
            return False, f"the answer has {len(ans[2])} entries but the gold has {len(gold[2])}"
        for i, (g, a) in enumerate(zip(gold[2], ans[2], strict=True)):
            ok, why = _nums(g, a, digits)
            if not ok:
                return False, f"entry {i + 1}: {why}"
        return True, "equivalent to the gold"
    for g in gold[1]:
        if not any(_nums(g, a, digits)[0] for a in ans[1]):
            return False, f"the gold's value {g[1]} is missing from the answer"
    for a in ans[1]:
        if not any(_nums(g, a, digits)[0] for g in gold[1]):
            return False, f"the answer's value {a[1]} is not in the gold"
    return True, "equivalent to the gold"


def _nums(gold: Plain, ans: Plain, digits: int) -> tuple[bool, str]:
    sides = ("g" if gold[2] else "") + ("a" if ans[2] else "")
    return compare_rationals(gold[1], ans[1], bool(sides), digits, sides)
