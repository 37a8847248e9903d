"""Which of a task's cases its prose shows, found by value rather than by parsing the prose.

HumanEval writes examples in a dozen prose forms (`Input: [4,2,3]` / `Output: [2, 1]`,
`For lst = [1,2,3] the output should be 6`, `f(15)   # returns "db1111db"`,
`f("5 apples and 6 oranges", 19) ->19 - 5 - 6 = 8`) that no single call parser reads. The cases
themselves are typed data, so the question can be turned round: a case is shown when every one
of its argument values and its expected value is written, as a literal, in the example part of
the text. An answer that hard-codes those examples is then caught like one that hard-codes
explicit public cases.

    >>> shown_by_value("Input: [4,2,3]\\nOutput: [2, 1]", [([[4, 2, 3]], [2, 1]), ([[9]], [])])
    [([[4, 2, 3]], [2, 1])]
"""

from __future__ import annotations

import ast
import re
from typing import Any

from rlvr.source.cases import NO_VALUE, Key, literal_key

_QUOTED = re.compile(r"\"[^\"\n]*\"|'[^'\n]*'")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?!\w|\.\d)")
_WORDS = {"True": True, "False": False, "None": None, "true": True, "false": False}


def _bracket_spans(text: str) -> list[str]:
    """Every balanced `[...]` / `(...)` / `{...}` span of the text (nested ones too)."""
    out, stack = [], []
    pairs = {"]": "[", ")": "(", "}": "{"}
    for i, ch in enumerate(text):
        if ch in "[({":
            stack.append((ch, i))
        elif ch in pairs:
            if stack and stack[-1][0] == pairs[ch]:
                out.append(text[stack.pop()[1] : i + 1])
            else:
                stack.clear()
    return out


def _eval(src: str) -> Any:
    try:
        return ast.literal_eval(src)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return NO_VALUE


def prose_literals(text: str) -> set[Key]:
    """The literal values written anywhere in a text: numbers, quoted strings, containers."""
    out: set[Key] = set()
    values: list[Any] = [_eval(s) for s in _bracket_spans(text)]
    values += [_eval(s) for s in _QUOTED.findall(text)]
    values += [_eval(s) for s in _NUMBER.findall(text)]
    values += [v for w, v in _WORDS.items() if re.search(rf"\b{w}\b", text)]
    for v in values:
        if isinstance(v, tuple):  # `(1, 2)` written in prose is a pair, and a list elsewhere
            v = list(v)
        key = None if v is NO_VALUE else literal_key(v)
        if key is not None:
            out.add(key)
    return out


def _keys(value: Any) -> Key | None:
    return literal_key(list(value) if isinstance(value, tuple) else value)


def shown_by_value(text: str, cases: list[tuple[list[Any], Any]]) -> list[tuple[list[Any], Any]]:
    """The cases whose every argument and expected value the text writes down as a literal."""
    written = prose_literals(text)
    out = []
    for args, expected in cases:
        keys = [_keys(a) for a in args] + [_keys(expected)]
        if keys and all(k is not None and k in written for k in keys):
            out.append((args, expected))
    return out


def _telling(key: Key) -> bool:
    """A value that names an example (a line holding it is an example line), not a common word."""
    kind, v = key
    if kind == "num":
        return abs(v) > 2
    if kind == "str":
        return len(v.strip()) >= 2
    return kind == "box" and len(v[1]) >= 1


def without_example_lines(text: str, shown: list[tuple[list[Any], Any]]) -> str:
    """The text less the lines that write a value of a shown case (`Input: 3`, `Output: (1, 2)`,
    and the explanation lines quoting them): what is left is what an honest answer may quote."""
    values = {k for args, exp in shown for k in map(_keys, [*args, exp]) if k and _telling(k)}
    if not values:
        return text
    return "\n".join(line for line in text.splitlines() if not prose_literals(line) & values)
