"""Helpers every translator shares: naming styles, type trees for drivers, doc text, examples.

Kept stack-neutral on purpose: a translator in `envs/<stack>/translator.py` imports these and
adds only what is particular to its language.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Callable, Mapping
from typing import Any

from rlvr.functions.task import Case, FunctionTask
from rlvr.functions.typelang import FType, parse_type

Tree = str | list[Any]


def camel(name: str) -> str:
    """snake_case -> camelCase (`pair_sum` -> `pairSum`); leading/trailing `_` dropped."""
    parts = [p for p in name.split("_") if p]
    if not parts:
        return name
    return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])


def pascal(name: str) -> str:
    """snake_case -> PascalCase (`pair_sum` -> `PairSum`), e.g. exported Go names."""
    c = camel(name)
    return c[:1].upper() + c[1:]


def type_tree(t: FType) -> Tree:
    """A JSON-able tree of a type for drivers that decode arguments at run time.

    `int` -> "int"; `list[int]` -> ["list", "int"]; `tuple[int, str]` -> ["tuple", "int",
    "str"]; `tuple[str, ...]` -> ["tuple...", "str"]; `dict[K, V]` -> ["dict", K, V].
    """
    if not t.args:
        return t.kind
    head = "tuple..." if t.variadic else t.kind
    return [head, *(type_tree(a) for a in t.args)]


def signature_types(task: FunctionTask) -> tuple[list[FType], FType]:
    return [parse_type(p.type) for p in task.signature.params], parse_type(task.signature.returns)


def driver_cases_json(task: FunctionTask) -> str:
    """The cases' arguments only, as one JSON array (expected values never go in a driver)."""
    return json.dumps([c.args for c in task.cases], separators=(",", ":"))


def doc_text(
    task: FunctionTask, words: Mapping[str, str] | None = None, entry: str | None = None
) -> list[str]:
    """The docstring as lines: dedented, blank lines at both ends removed, long lines kept.

    Docstrings are written in Python's words (HumanEval's are Python's own). A stack passes
    its spelling of Python's literal words (`words`, e.g. {"True": "true", "None": "null"}) and
    of the function's name (`entry`, e.g. "belowZero"), so the prompt speaks its language.
    """
    text = textwrap.dedent(task.docstring.expandtabs(4)).strip("\n")
    lines = [ln.rstrip() for ln in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return [native_words(ln, words or {}, task.entry_point, entry) for ln in lines]


_PY_WORD = re.compile(r"(?<![\w.'\"])(True|False|None)(?![\w'\"])(?! of\b)")


def native_words(line: str, words: Mapping[str, str], name: str, entry: str | None) -> str:
    """`line` with Python's True/False/None (as whole words, not inside quotes, not the English
    "None of") spelled by `words`, and the Python name `name` of the function as `entry`."""
    if words:
        line = _PY_WORD.sub(lambda m: words.get(m.group(1), m.group(1)), line)
    if entry and entry != name:
        line = re.sub(rf"(?<![\w.]){re.escape(name)}(?!\w)", entry, line)
    return line


def example_lines(task: FunctionTask, show: Callable[[Case], str], limit: int = 3) -> list[str]:
    """'Examples:' plus one line per public case (at most `limit`), each rendered by `show`;
    cases that must raise are described by the docstring, not shown as a value."""
    cases = [c for c in task.public_cases if not c.raises][:limit]
    if not cases:
        return []
    return ["", "Examples:", *(f"    {show(c)}" for c in cases)]


def commented(lines: list[str], prefix: str) -> str:
    """Each line behind a comment prefix (an empty line gets the prefix without trailing space)."""
    return "\n".join((prefix + ln).rstrip() if ln else prefix.rstrip() for ln in lines)


_SIMPLE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def quoted_string(s: str, control: Callable[[int], str]) -> str:
    """A double-quoted string literal in C-family syntax (Go, Rust): quotes, backslashes and
    \\n \\t \\r escaped; other control characters through `control(codepoint)`, the one
    place the languages differ."""
    out = []
    for ch in s:
        if ch in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[ch])
        elif ord(ch) < 32 or ord(ch) == 127:
            out.append(control(ord(ch)))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'
