"""Decide whether an answer's value equals the gold's, and say why not.

Scalars are compared in three steps:

1. exact rational arithmetic when both sides are rational (decimals are read exactly:
   `0.1` is 1/10), so `1/2^{99}` and `1/2^{98}` differ however small they are;
2. sympy: its canonical forms first (`2x+3` and `3+2x` are the same object), then numeric
   evaluation - of constants, or of expressions at three fixed rational sample points - with
   60 working digits plus the digits of the numbers written on both sides. Equal means
   agreeing to all but the last 20 working digits, so `\\pi + 10^{-45}` is not pi; different
   means differing beyond 1e-20 relative; in between, `simplify` decides. Sampling comes
   before `simplify` because it is cheap at any degree, while expanding a legal
   `(x+y+1)^{200}` takes seconds;
3. the decimal rule: when either side is written with a decimal point, the two may differ by at
   most `DECIMAL_REL_TOL` (1e-9) relative to the gold, |a - g| <= 1e-9 |g| (a zero gold needs an
   exact zero). `0.333` is not 1/3; `0.3333333333` is. Without decimals no tolerance is given.

Collections: a set (order-free) equals a set with the same members; a tuple or interval needs the
same brackets (open and closed ends differ) and equal items in order; matrices need the same
shape. One value against several (`\\pm 2`, `2 or 3`, `2, 3`) passes only when every offered
value equals the gold, so hedging never pays. An assignment `x = 2` is compared by its value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import sympy

from rlvr.graders.math.exact import compare_rationals, rounds
from rlvr.graders.math.guard import size_digits
from rlvr.graders.math.relations import name_of
from rlvr.graders.math.rules import Rules
from rlvr.graders.math.tree import Node, render
from rlvr.graders.math.values import assigned, has_decimal, rational, to_sympy

_DEFAULT = Rules()

DECIMAL_TOL = sympy.Float("1e-9", 60)
DIFFERENT_REL_TOL = sympy.Float("1e-20", 60)
BASE_DIGITS = 60
MAX_DIGITS = 50_000
MAX_ITEMS = 32
_SAMPLE_POINTS = (  # exact rationals, so evaluation at any precision is exact about them
    ("0.6180339887", "1.7320508075", "-0.8414709848", "2.2360679774"),
    ("-1.3247179572", "0.5772156649", "1.4142135623", "-2.7182818284"),
    ("2.9957322735", "-0.4342944819", "0.3678794411", "1.6487212707"),
)
_KIND_NAMES = {
    "scalar": "a single value",
    "set": "a collection of values",
    "seq": "a tuple or interval",
    "matrix": "a matrix",
    "eq": "an equation",
    "rel": "a relation",
    "text": "text",
}


@dataclass(frozen=True, slots=True)
class Outcome:
    equal: bool
    reason: str


def _no(reason: str) -> Outcome:
    return Outcome(False, reason)


_YES = Outcome(True, "equivalent to the gold")


def equal(gold: Node, ans: Node, rules: Rules = _DEFAULT) -> Outcome:
    """Whether the answer value `ans` equals the gold value `gold` (both from `to_value`)."""
    if gold == ans:
        return _YES
    if gold.kind == "eq" or ans.kind == "eq":
        return _equations(gold, ans, rules)
    if {gold.kind, ans.kind} == {"set", "seq"} and _bare_list(gold, ans):
        return _ordered(gold.kids, ans.kids, rules)
    if ans.kind == "set" and gold.kind != "set":
        return _one_against_many(gold, ans, rules)
    if gold.kind == "set" and ans.kind != "set":
        if len(gold.kids) == 1:
            return equal(gold.kids[0], ans, rules)
        return _no(f"the gold has {len(gold.kids)} values but the answer gives one")
    if gold.kind != ans.kind:
        return _no(
            f"the answer is {_KIND_NAMES[ans.kind]} but the gold is {_KIND_NAMES[gold.kind]}"
        )
    if gold.kind == "scalar":
        return scalars_equal(gold.kids[0], ans.kids[0], rules)
    if gold.kind == "text":
        return _YES if gold.value == ans.value else _no(f"{ans.value!r} is not {gold.value!r}")
    if gold.kind == "set":
        return _sets(gold, ans, rules)
    if gold.kind in ("seq", "rel") and gold.value != ans.value:
        return _no(f"the answer's form {_brackets(ans)} differs from the gold's {_brackets(gold)}")
    return _ordered(gold.kids, ans.kids, rules)


def _bare_list(gold: Node, ans: Node) -> bool:
    """A bare list `1, 3` (not `\\{1, 3\\}`) may state a tuple `(1, 3)`, in order."""
    listed = gold if gold.kind == "set" else ans
    return listed.value == "bare" and len(gold.kids) == len(ans.kids)


def _brackets(value: Node) -> str:
    if value.kind == "seq":
        return f"{value.value[0]}...{value.value[1]}"
    return " ".join(value.value)


def _ordered(gold: tuple[Node, ...], ans: tuple[Node, ...], rules: Rules) -> Outcome:
    if len(gold) != len(ans):
        return _no(f"the answer has {len(ans)} entries but the gold has {len(gold)}")
    for i, (g, a) in enumerate(zip(gold, ans, strict=True)):
        out = equal(g, a, rules)
        if not out.equal:
            return _no(f"entry {i + 1}: {out.reason}")
    return _YES


def _one_against_many(gold: Node, ans: Node, rules: Rules) -> Outcome:
    if not ans.kids:
        return _no("the answer is an empty collection")
    if len(ans.kids) > MAX_ITEMS:
        return _no(f"the answer offers more than {MAX_ITEMS} values")
    for item in ans.kids:
        out = equal(gold, item, rules)
        if not out.equal:
            if len(ans.kids) == 1:
                return out
            return _no(f"the answer offers {len(ans.kids)} values where the gold is one value")
    return _YES


def _sets(gold: Node, ans: Node, rules: Rules) -> Outcome:
    if max(len(gold.kids), len(ans.kids)) > MAX_ITEMS:
        return _no(f"collections of more than {MAX_ITEMS} values are not compared")
    for g in gold.kids:
        if not any(equal(g, a, rules).equal for a in ans.kids):
            return _no(f"the gold's value {_show(g)} is missing from the answer")
    for a in ans.kids:
        if not any(equal(g, a, rules).equal for g in gold.kids):
            return _no(f"the answer's value {_show(a)} is not in the gold")
    return _YES


def _equations(gold: Node, ans: Node, rules: Rules) -> Outcome:
    if gold.kind == "eq" and ans.kind == "eq":
        g_val, a_val = assigned(gold), assigned(ans)
        if g_val is not None and a_val is not None:
            if _lhs_name(gold) != _lhs_name(ans):
                return _no(
                    f"the answer solves for {_lhs_name(ans)}, the gold for {_lhs_name(gold)}"
                )
            return equal(g_val, a_val, rules)
        if all(side.kind == "scalar" for side in (*gold.kids, *ans.kids)):
            return _proportional(gold, ans, rules)
        return _ordered(gold.kids, ans.kids, rules)
    if ans.kind == "eq":
        value = assigned(ans)
        if value is None:
            return _no("the answer is an equation that does not state a value")
        return equal(gold, value, rules)
    value = assigned(gold)
    if value is None:
        return _no("the gold is an equation; the answer must be an equivalent equation")
    return equal(value, ans, rules)


def _lhs_name(eq: Node) -> str:
    return name_of(eq)


def _proportional(gold: Node, ans: Node, rules: Rules) -> Outcome:
    """Equations are equivalent when (lhs - rhs) of one is a nonzero constant times the other's."""
    pos = rules.positive_symbols
    g = to_sympy(gold.kids[0].kids[0], pos) - to_sympy(gold.kids[1].kids[0], pos)
    a = to_sympy(ans.kids[0].kids[0], pos) - to_sympy(ans.kids[1].kids[0], pos)
    if a == 0 or g == 0:
        return _YES if a == g else _no("one equation is an identity and the other is not")
    ratio = sympy.simplify(g / a)
    if ratio.free_symbols or ratio == 0 or ratio.has(sympy.zoo, sympy.nan):
        return _no("the equations are not equivalent")
    return _YES


def _show(value: Node) -> str:
    text = render(value.kids[0]) if value.kind == "scalar" else render(value)
    return text if len(text) <= 60 else text[:57] + "..."


def scalars_equal(gold: Node, ans: Node, rules: Rules = _DEFAULT) -> Outcome:
    """Exact rationals first, then sympy; decimals get the stated relative tolerance."""
    sides = ("g" if has_decimal(gold) else "") + ("a" if has_decimal(ans) else "")
    decimal = bool(sides)
    g_q, a_q = rational(gold), rational(ans)
    if g_q is not None and a_q is not None:
        return Outcome(*compare_rationals(g_q, a_q, decimal, rules.decimal_digits, sides))
    positive = rules.positive_symbols and not (_has_abs(gold) or _has_abs(ans))
    g, a = to_sympy(gold, positive), to_sympy(ans, positive)
    if g == a and not g.has(sympy.zoo, sympy.nan):
        return _YES
    rounded = _rounded(gold, ans, g, a, rules.decimal_digits)
    if rounded is not None:
        return rounded
    for side, label in ((a, "answer"), (g, "gold")):
        if side.has(sympy.zoo, sympy.nan):
            return _no(f"the {label} is undefined (division by zero or similar)")
    if g.has(sympy.oo, -sympy.oo) or a.has(sympy.oo, -sympy.oo):
        return _no(f"{_show(Node('scalar', (ans,)))} is not {_show(Node('scalar', (gold,)))}")
    digits = min(BASE_DIGITS + math.ceil(size_digits(gold) + size_digits(ans)), MAX_DIGITS)
    if decimal:
        digits = BASE_DIGITS
    symbols = sorted(g.free_symbols | a.free_symbols, key=str)
    points = [_point(symbols, p, positive) for p in _SAMPLE_POINTS] or [None]
    points = points if symbols else [None]
    found = [_numeric(g, a, digits, decimal, subs) for subs in points]
    if "different" in found:
        where = " (checked at sample points)" if symbols else ""
        rule = " (decimals must agree to 1e-9 relative)" if decimal else ""
        return _no(f"{_short(a)} is not {_short(g)}{where}{rule}")
    if found.count("equal") >= min(2, len(found)) and "unsure" not in found:
        if decimal:
            return Outcome(True, "equal within the 1e-9 relative tolerance for decimals")
        return _YES
    return _YES if sympy.simplify(g - a) == 0 else _no(f"{_short(a)} is not {_short(g)}")


def _has_abs(node: Node) -> bool:
    """`|x|` must not vanish under positive letters: `|x|` is not `x`, nor `x^2|x|` `x^3`."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.kind == "fn" and n.value == "Abs":
            return True
        stack.extend(k for k in n.kids if isinstance(k, Node))
    return False


def _point(
    symbols: list[sympy.Symbol], point: tuple[str, ...], positive: bool
) -> dict[sympy.Symbol, sympy.Expr]:
    values = [sympy.Rational(point[i % 4]) * (1 + i // 4) for i in range(len(symbols))]
    return {s: abs(v) if positive else v for s, v in zip(symbols, values, strict=True)}


def _rounded(gold: Node, ans: Node, g: sympy.Expr, a: sympy.Expr, digits: int) -> Outcome | None:
    """A lone decimal on one side that rounds the other (a constant) to its last place."""
    for dec_node, other, label in ((ans, g, "answer"), (gold, a, "gold")):
        if dec_node.kind != "num" or not dec_node.value[1] or other.free_symbols:
            continue
        try:
            value = other.evalf(40)
            if not value.is_real or not value.is_finite:
                return None
            other_q = Fraction(str(sympy.Float(value, 40)))
        except (TypeError, ValueError, ArithmeticError):
            return None
        if rounds(dec_node.value[0], other_q, digits):
            return Outcome(True, f"the {label}'s decimal rounds the other side to its last place")
    return None


def _numeric(
    g: sympy.Expr, a: sympy.Expr, digits: int, decimal: bool, subs: dict | None
) -> str | None:
    """'equal', 'different' or 'unsure' from one evaluation at `digits` significant digits.

    None when either side is not a finite number there. Without decimals, `equal` means
    agreement to all but the last 20 working digits, and the working digits grow with the
    size of the numbers written in the answer, so `\\pi + 10^{-45}` cannot pass for pi.
    """
    try:
        gv, av = g.evalf(digits, subs=subs), a.evalf(digits, subs=subs)
        if not (gv.is_number and av.is_number) or (gv + av).has(sympy.zoo, sympy.nan, sympy.oo):
            return None
        diff = abs((gv - av).evalf(digits))
        scale = abs(gv)
        if not (diff.is_real and scale.is_real):
            return None
        if decimal:
            return "equal" if diff <= DECIMAL_TOL * scale else "different"
        tiny = sympy.Float(10, digits) ** (20 - digits)
        if diff <= tiny * scale or (scale == 0 and diff <= tiny):
            return "equal"
        return "different" if diff > DIFFERENT_REL_TOL * scale else "unsure"
    except Exception:  # sympy's numeric evaluation fails in many ways on odd input
        return None


def _short(expr: sympy.Expr) -> str:
    try:
        text = str(expr)
    except ValueError:  # an integer beyond Python's digit limit for str()
        return "a number too long to print"
    return text if len(text) <= 60 else text[:57] + "..."
