"""Notations read as a whole: ellipses, degrees in trig, set-builder sets, answer phrases.

graders/math/README.md ("Normalisation") is the reference for each rule.
"""

from __future__ import annotations

import re
from fractions import Fraction

_EMPTY = (
    "no solution, no solutions, no real solution, no real solutions, there is no solution, none, \
empty set, the empty set, no such number, no such value, \\{\\}"
)
_REALS = "all real numbers, all reals, real numbers, every real number"
_DNE = "dne, does not exist, the limit does not exist, limit does not exist, it does not exist"
_PHRASES = dict.fromkeys(_EMPTY.split(", "), "\\emptyset") | dict.fromkeys(_DNE.split(", "), "DNE")
_PHRASES |= dict.fromkeys(_REALS.split(", "), "(-\\infty,\\infty)")
ROW_SPACE_RE = re.compile(r"\\\\\[\s*-?[\d.]+\s*(?:pt|em|ex|mm|cm)\s*\]")
_TRIG_DEGREES_RE = re.compile(
    r"\\(sin|cos|tan|cot|sec|csc)\s*(\(?)\s*(\d+(?:\.\d+)?)\s*\^\s*\{?\s*\\circ\s*\}?"
)
_ELLIPSIS_RE = re.compile(r"(\d*)\.(\d+)\s*(?:\.\.\.|…|\\[lc]?dots(?![a-zA-Z]))")


def _ellipsis(m: re.Match[str]) -> str:
    """`0.363636...` and `0.333\\ldots` repeat their last block: 4/11 and 1/3."""
    digits = m.group(2)
    if len(digits) > 60:
        return m.group(0)  # bounded: a long decimal is never searched for a block
    for size in range(1, len(digits) // 2 + 1):
        block = digits[-size:]
        if digits.endswith(block * (3 if size == 1 else 2)):
            body = digits
            while body.endswith(block):
                body = body[:-size]
            return f"{m.group(1)}.{body}\\overline{{{block}}}"
    return m.group(0)


_SETMINUS_RE = re.compile(r"\(-\\infty,\s*\\infty\)\s*\\setminus\s*\\\{\s*(-?[\w.]+)\s*\\\}")
_LEAD_PHRASE_RE = re.compile(r"^(?:the\s+)?(?:final\s+)?answer\s+is:?\s*", re.IGNORECASE)
_SET_BUILDER_RE = re.compile(
    r"\s*\\\{\s*([a-zA-Z])\s*(?:\\in\s*[^|:]{1,40}?)?\s*[|:]\s*([^{}]+?)\s*\\\}\s*"
)


def _set_builder(text: str) -> str:
    """`\\{x | x > 2\\}` and `\\{x \\mid x > 2\\}` state the condition `x > 2`."""
    m = _SET_BUILDER_RE.fullmatch(text)
    return m.group(2) if m else text


_SCALED_RE = re.compile(
    r"(-?\d+(?:\.\d+)?) (ten|hundred|thousand|million|billion|trillion|dozen)s?"
)
_SCALE = {"ten": 10, "hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9}
_SCALE |= {"trillion": 10**12, "dozen": 12}


def scaled(text: str) -> str:
    """`5 million` is 5000000, `1 dozen` is 12 and `55 tens` is 550: the word changes the
    value."""
    m = _SCALED_RE.fullmatch(text)
    if m is None:
        return text
    value = Fraction(m.group(1)) * _SCALE[m.group(2)]
    return (
        str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    )


def scaled_expression(expression: str, word: str) -> str:
    """An expression followed by a scale word, as one expression: `2 \\cdot 3 million` is
    `(2 \\cdot 3) \\cdot 1000000`, `2^{3} thousand` 8000. Where precedence leaves it open
    what the word applies to (`1 + 2 squared`, `2 \\cdot 3 squared`, `1 + 2 million`), the
    word stays a word, so the answer does not read as one value."""
    word = word.strip().lower()
    operators = top_level_operators(expression)
    if operators & {"+", "-", "/"} or (word in ("squared", "cubed") and operators):
        return f"{expression} {word}"
    if word in ("squared", "cubed"):
        return f"({expression})^{2 if word == 'squared' else 3}"
    return f"({expression}) \\cdot {_SCALE[word.removesuffix('s')]}"


_PRODUCT_COMMANDS = ("\\cdot", "\\times", "\\div")


def top_level_operators(expression: str) -> set[str]:
    """The binary operators outside brackets: `+`, `-` (not a leading sign), `*` (also `\\cdot`,
    `\\times`, `×`, `·`) and `/` (also `\\div`, `÷`)."""
    found: set[str] = set()
    depth = 0
    text = expression.strip()
    for i, c in enumerate(text):
        if c in "{([":
            depth += 1
        elif c in "})]":
            depth -= 1
        elif depth == 0 and i > 0:
            if c in "+-" and text[:i].rstrip()[-1:] not in ("", "^", "_", "e", "E", "(", "{"):
                found.add(c)
            elif c in "*×·":
                found.add("*")
            elif c in "/÷":
                found.add("/")
            elif c == "\\" and text.startswith(_PRODUCT_COMMANDS, i):
                found.add("/" if text.startswith("\\div", i) else "*")
    return found


def numbers(text: str) -> str:
    """`0.333\\ldots` is `0.\\overline{3}`; `\\sin 30^\\circ` is `\\sin(30\\pi/180)`."""
    return _TRIG_DEGREES_RE.sub(r"\\\1\2(\3\\pi/180)", _ELLIPSIS_RE.sub(_ellipsis, text))


_NOT_EQUAL_RE = re.compile(r"[a-zA-Z]\s*(?:\\neq?(?![a-zA-Z])|!=)\s*(-?[\w.]+)")


def sets(text: str) -> str:
    """`\\mathbb{R} \\setminus \\{a\\}` as two intervals; a set-builder set as its condition;
    `x \\neq a` as the two intervals around a."""
    text = (
        _NOT_EQUAL_RE.sub(r"(-\\infty,\1)\\cup(\1,\\infty)", text)
        if _NOT_EQUAL_RE.fullmatch(text.strip())
        else text
    )
    return _set_builder(_SETMINUS_RE.sub(r"(-\\infty,\1)\\cup(\1,\\infty)", text))


def lead_phrase(text: str) -> str:
    """`\\text{The answer is } 5` inside a box is 5."""
    return _LEAD_PHRASE_RE.sub("", text)


def phrase(text: str) -> str:
    """Whole-answer phrases: `no solutions` is the empty set, `DNE` does not exist."""
    return _PHRASES.get(text.lower().rstrip("."), text)


_BASE_RE = re.compile(r"([0-9A-Z]+)_\{?\s*(\d{1,2})\s*\}?")


def base_digits(norm: str) -> str | None:
    """The digits of a gold written in a base (`1011_2` -> `1011`): an answer writing the same
    digits without the subscript answers it (the question asked for that base)."""
    m = _BASE_RE.fullmatch(norm.strip())
    return m.group(1) if m and 2 <= int(m.group(2)) <= 36 and int(m.group(2)) != 10 else None
