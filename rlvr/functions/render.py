"""What every translator shares: naming, type trees for drivers, the prompt's shape, examples,
integer ranges, special floats, argument lists, completing an answer, filling a driver template.

Kept stack-neutral on purpose: a translator in `envs/<stack>/translator.py` imports these and
adds only what is particular to its language (type and literal spelling, reserved words, the
doc-comment frame, the driver).
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from collections.abc import Callable, Mapping
from pathlib import Path
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
    "None of") spelled by `words`, and the Python name `name` of the function as `entry`. A
    line that already names the stack's spelling (a list of spellings, "(None, nil or null)")
    keeps Python's word, or it would read "(nil, nil or null)"."""
    if words:

        def spell(m: re.Match[str]) -> str:
            native = words.get(m.group(1), m.group(1))
            return m.group(1) if re.search(rf"(?<!\w){re.escape(native)}(?!\w)", line) else native

        line = _PY_WORD.sub(spell, line)
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


def safe_name(name: str, reserved: set[str]) -> str:
    """`name`, or `name_` when it is one of the stack's reserved words."""
    return name + "_" if name in reserved else name


def _ints(value: object) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, list):
        return [i for v in value for i in _ints(v)]
    if isinstance(value, dict):
        return [i for v in value.values() for i in _ints(v)]
    return []


def int_outside(task: FunctionTask, lo: int, hi: int) -> int | None:
    """The first integer of any case (arguments or expected value) outside `lo <= i < hi`: the
    stack's integer type cannot hold it, so `unsupported` says so."""
    for case in task.cases:
        big = [i for i in _ints([case.args, case.expected]) if not lo <= i < hi]
        if big:
            return big[0]
    return None


def special_float(value: float, nan: str, inf: str, neg_inf: str) -> str | None:
    """The stack's spelling of NaN / +inf / -inf, or None for a finite value."""
    if math.isnan(value):
        return nan
    if math.isinf(value):
        return inf if value > 0 else neg_inf
    return None


def call_args(literal: Callable[[FType, Any], str], params: list[FType], args: list) -> str:
    """A call's argument list: each canonical JSON argument as the stack's literal."""
    return ", ".join(literal(t, a) for t, a in zip(params, args, strict=True))


def doc_prompt(
    task: FunctionTask,
    stack: str,
    show: Callable[[Case], str],
    frame: Callable[[list[str]], str],
    words: Mapping[str, str] | None = None,
    entry: str | None = None,
) -> str:
    """The prompt every translator renders: the task's own text for `stack` when it has one,
    else its docstring (in the stack's `words` and `entry` name, see `doc_text`) and up to three
    public examples (each written by `show`), put into the stack's doc comment and signature by
    `frame`."""
    if stack in task.prompts:
        return task.prompts[stack]
    return frame(doc_text(task, words, entry) + example_lines(task, show))


def with_prompt(code: str, defines: str, prompt: str) -> str:
    """The answer's code, preceded by the prompt when it does not define the function itself
    (`defines`, a regular expression, finds the definition): a bare body continues the prompt."""
    return code if re.search(defines, code) else prompt + code


def driver_template(translator_file: str, name: str) -> str:
    """A driver template that sits beside the translator (`function_driver.<ext>.in`)."""
    return (Path(translator_file).parent / name).read_text(encoding="utf-8")


def fill_driver(
    template: str, task: FunctionTask, name: str, json_literal: Callable[[str], str]
) -> str:
    """A driver template with `__NAME__` (`name`, already a literal of the driver's language),
    `__PARAMS__`, `__RET__` (the types as JSON trees) and `__CASES__` (the cases' arguments)
    filled in; `json_literal` turns JSON text into what the template expects there."""
    params, ret = signature_types(task)
    return (
        template.replace("__NAME__", name)
        .replace("__PARAMS__", json_literal(json.dumps([type_tree(t) for t in params])))
        .replace("__RET__", json_literal(json.dumps(type_tree(ret))))
        .replace("__CASES__", json_literal(driver_cases_json(task)))
    )
