"""The answer syntax tree every math module shares: `Node`, `ParseError`, and `render`.

The lowest layer of the math grader: it imports no other module of it, so the parser, the size
guard and the sympy conversion can all build and print trees without importing each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

MAX_DEPTH = 60


class ParseError(ValueError):
    """The text is not an answer this parser understands."""


@dataclass(frozen=True, slots=True)
class Node:
    """One syntax-tree node: `kind` names it, `kids` are sub-trees, `value` is a leaf payload."""

    kind: str
    kids: tuple[Node, ...] = ()
    value: Any = None

    def __str__(self) -> str:
        return render(self)


def num(value: Fraction | int, decimal: bool = False) -> Node:
    return Node("num", value=(Fraction(value), decimal))


def fmt_fraction(q: Fraction, width: int = 60) -> str:
    """`q` as text, or its magnitude when the digits would not fit in `width` characters."""
    bits = max(q.numerator.bit_length(), q.denominator.bit_length())
    if bits * 0.30103 < width - 2:
        return str(q)
    if q == 0:
        return "0"
    log = math.log10(abs(q.numerator)) - math.log10(q.denominator)
    exp = math.floor(log)
    sign = "-" if q < 0 else ""
    return (
        f"{sign}{10 ** (log - exp):.9f}e{exp:+d} (a fraction of about {bits * 0.30103:.0f} digits)"
    )


def render(node: Node) -> str:
    """A compact plain-text form of a tree, for reasons and details."""
    k, kids = node.kind, [render(c) for c in node.kids]
    if k == "num":
        frac, decimal = node.value
        return str(float(frac)) if decimal and abs(frac) < 1e15 else fmt_fraction(frac)
    if k in ("sym", "const", "text", "sx"):
        return str(node.value)
    if k == "mul":
        parts = [
            ("/" + render(c.kids[0])) if c.kind == "inv" else ("*" + render(c)) for c in node.kids
        ]
        return "(" + "".join(parts).lstrip("*") + ")"
    simple = {"add": " + ", "list": ", ", "union": " U "}
    if k in simple:
        return "(" + simple[k].join(kids) + ")"
    table = {
        "neg": "-{0}",
        "pm": "±{0}",
        "inv": "1/{0}",
        "frac": "({0})/({1})",
        "pow": "{0}^({1})",
        "fact": "{0}!",
        "root": "root({0}, {1})",
    }
    if k in table:
        return table[k].format(*kids)
    if k == "fn":
        return f"{node.value}({', '.join(kids)})"
    if k == "tuple":
        return node.value[0] + ", ".join(kids) + node.value[1]
    if k == "set":
        return "{" + ", ".join(kids) + "}"
    if k == "rel":
        out = kids[0]
        for op, rhs in zip(node.value, kids[1:], strict=True):
            out += f" {op} {rhs}"
        return out
    if k in ("matrix", "row"):
        return "[" + ", ".join(kids) + "]"
    return f"{k}({', '.join(kids)})"
