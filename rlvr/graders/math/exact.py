"""Plain numbers, compared exactly without sympy or a worker process.

Integers, decimals and fractions of integers cannot hang: reading them is one regular
expression and comparing them is `fractions.Fraction` arithmetic on numbers no longer than the
answer itself. They are most answers in practice (GSM8K, AIME), so the grader compares them in
the calling thread and sends only the rest to a worker.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from rlvr.graders.math.tree import Node, fmt_fraction

NOISE_DIGITS = 15
DECIMAL_REL_TOL = Fraction(1, 10**9)
MAX_PLAIN_CHARS = 400

_PLAIN_RE = re.compile(
    r"([+-]?)\s*(?:(\d+(?:\.\d*)?|\.\d+)|(\d+)\s*/\s*(\d+)|\{(\d+)\}"
    r"|\\frac\s*(?:\{(\d+)\}|(\d))\s*(?:\{(\d+)\}|(\d)))"
)


def plain_number(text: str) -> tuple[Fraction, bool] | None:
    """(value, written as a decimal) for a plain number such as `-12`, `0.5`, `3/4`, `\\frac{3}{4}`.

    None for anything else, including a zero denominator.
    """
    if len(text) > MAX_PLAIN_CHARS:
        return None
    m = _PLAIN_RE.fullmatch(text)
    if m is None:
        return None
    sign = -1 if m.group(1) == "-" else 1
    if m.group(2):
        return sign * Fraction(m.group(2)), "." in m.group(2)
    if m.group(5):
        return sign * Fraction(int(m.group(5))), False
    if m.group(3):
        num, den = m.group(3), m.group(4)
    else:
        num, den = m.group(6) or m.group(7), m.group(8) or m.group(9)
    if int(den) == 0:
        return None
    return sign * Fraction(int(num), int(den)), False


def places(value: Fraction) -> tuple[int, int] | None:
    """(digits after the point, significant digits) of a terminating decimal, else None."""
    den, twos, fives = value.denominator, 0, 0
    while den % 2 == 0:
        den, twos = den // 2, twos + 1
    while den % 5 == 0:
        den, fives = den // 5, fives + 1
    if den != 1 or max(twos, fives) > 400:
        return None
    k = max(twos, fives)
    return k, digit_count(abs((value * 10**k).numerator))


def digit_count(n: int) -> int:
    """Decimal digits of n >= 0, also past Python's limit on int-to-str (4,300 digits)."""
    if n < 10**300:
        return len(str(n))
    d = int((n.bit_length() - 1) * 0.30102999566398120) + 1  # within one of the count
    return d + 1 if n >= 10**d else d


def rounds(decimal: Fraction, other: Fraction, min_digits: int) -> bool:
    """Is `decimal` (with at least `min_digits` significant digits) `other` rounded to
    its last place? `0.0666668` for 0.066666793; `3.14159` for pi; never `0.333` for 1/3."""
    shape = places(decimal)
    if shape is None or shape[1] < min_digits:
        return False
    return abs(decimal - other) <= Fraction(1, 2 * 10 ** shape[0])


def compare_rationals(
    gold: Fraction, ans: Fraction, decimal: bool, min_digits: int = 6, sides: str = "ga"
) -> tuple[bool, str]:
    """The exact test, widened to the decimal rules when either side was written as a decimal.

    Decimal rules: |answer - gold| <= 1e-9 * |gold| (a zero gold needs an exact zero), or the
    decimal side (`sides` names which were written as decimals) rounds the other to its last
    place with at least `min_digits` significant digits.
    """
    if gold == ans:
        return True, "equivalent to the gold"
    if (
        decimal
        and gold != 0
        and abs(ans - gold) <= DECIMAL_REL_TOL * abs(gold)
        and _noise(gold, ans, sides)
    ):
        return True, "equal within the 1e-9 relative tolerance for decimals"
    if decimal and (
        ("a" in sides and rounds(ans, gold, min_digits))
        or ("g" in sides and rounds(gold, ans, min_digits))
    ):
        return True, f"the decimal rounds the other side (at least {min_digits} digits)"
    rule = f" (decimals must agree to 1e-9 relative or to {min_digits} digits)" if decimal else ""
    return False, f"{_fmt(ans)} is not {_fmt(gold)}{rule}"


def _noise(gold: Fraction, ans: Fraction, sides: str) -> bool:
    """The relative tolerance is for float noise (`0.30000000000000004`): a decimal side of at
    least `NOISE_DIGITS` significant digits, and never between two integers, so `2147483648.0`
    is not `2^{31}-1` and `123456789012.5` is not `123456789012`."""
    if gold.denominator == 1 and ans.denominator == 1:
        return False
    decimals = ([ans] if "a" in sides else []) + ([gold] if "g" in sides else [])
    return any((shape := places(d)) is not None and shape[1] >= NOISE_DIGITS for d in decimals)


def _fmt(q: Fraction) -> str:
    return fmt_fraction(q)


def has_decimal(node: Node) -> bool:
    if node.kind == "num":
        return bool(node.value[1])
    return any(has_decimal(k) for k in node.kids)


def rational(node: Node) -> Fraction | None:
    """The exact rational value of a tree of +, -, *, / and whole powers, else None."""
    try:
        return _rational(node)
    except (_NotRational, ZeroDivisionError):
        return None


class _NotRational(Exception):
    pass


def _rational(node: Node) -> Fraction:
    kind = node.kind
    if kind == "num":
        return node.value[0]
    if kind == "add":
        return sum((_rational(k) for k in node.kids), Fraction(0))
    if kind == "mul":
        out = Fraction(1)
        for k in node.kids:
            out *= _rational(k)
        return out
    if kind == "neg":
        return -_rational(node.kids[0])
    if kind == "inv":
        return 1 / _rational(node.kids[0])
    if kind == "frac":
        return _rational(node.kids[0]) / _rational(node.kids[1])
    if kind == "pow":
        exp = _rational(node.kids[1])
        if exp.denominator != 1:
            raise _NotRational
        return _rational(node.kids[0]) ** int(exp)
    raise _NotRational


_FRACTION = re.compile(r"[+-]?(?:(\d+)/(\d+)|\\[dct]?frac\{(\d+)\}\{(\d+)\})")


def reduced_number(norm: str) -> bool:
    """A plain number, and a fraction only in lowest terms (`110/2` is a division to do)."""
    if plain_number(norm) is None:
        return False
    m = _FRACTION.fullmatch(norm)
    if m is None:
        return True
    num, den = (int(x) for x in (m.groups()[:2] if m.group(1) else m.groups()[2:]))
    return den > 1 and math.gcd(num, den) == 1
