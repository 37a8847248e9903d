"""Pull the program out of a completion for the code grader.

Three modes, chosen by the environment:

- "fenced": the last fenced block whose tag is one of the stack's languages; failing that the
  last untagged block. No block -> None (the grader rejects with "no code block").
- "whole": the whole completion, as written.
- "function" (HumanEval): the completion is either a full function (in a fence or bare) or the
  body that continues the prompt. Of several fenced blocks the first that defines the entry
  point is taken (else the last block). A full definition of the entry point is appended after
  the prompt (it replaces the prompt's stub and keeps the prompt's imports and helpers); a body
  is appended to the prompt as is.

    >>> extract_fenced("text\\n```python\\nx = 1\\n```\\n", ["python"])
    'x = 1\\n'
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rlvr.pyast import parse as parse_python

_OPENER = re.compile(r"[ \t]*(`{3,}|~{3,})")
_TAG = re.compile(r"[ \t]*([\w+#.-]*)")
_CLOSER = re.compile(r"[ \t]*(`{3,}|~{3,})[ \t]*")


@dataclass(frozen=True)
class Fence:
    """One closed fenced block: its tag, its body, and its span (from the start of the opening
    line to the end of the closing line's text)."""

    tag: str
    body: str
    start: int
    end: int


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end before the newline) of every line; a final newline leaves an empty line."""
    out, pos = [], 0
    while True:
        end = text.find("\n", pos)
        if end < 0:
            out.append((pos, len(text)))
            return out
        out.append((pos, end))
        pos = end + 1


def iter_fences(text: str) -> Iterator[Fence]:
    """Every closed fenced block, in order, in O(n log n) of the text.

    The rule is the one of the pattern `^[ \\t]*(`{3,}|~{3,})[ \\t]*([\\w+#.-]*)[^\\n]*\\n(.*?)
    ^[ \\t]*\\1[ \\t]*$` under re.M | re.S, without its quadratic cost on many unclosed
    openers (an answer could stall the host grader with them): an opening line starts with
    three or more backticks or tildes and ends with a newline; its block ends at the first later
    line that is exactly that fence (spaces and tabs aside), and the search goes on after it; an
    opener that never closes may close as a shorter fence of its first characters (no tag).
    """
    lines = _lines(text)
    closers: dict[str, list[int]] = {}
    for idx, (start, end) in enumerate(lines):
        m = _CLOSER.fullmatch(text, start, end)
        if m:
            closers.setdefault(m.group(1), []).append(idx)
    idx = 0
    while idx < len(lines):
        start, end = lines[idx]
        m = _OPENER.match(text, start, end)
        close = None
        if m is not None and end < len(text):  # an opening line needs its newline
            run = m.group(1)
            for k in range(len(run), 2, -1):
                later = closers.get(run[:k], [])
                j = bisect.bisect_right(later, idx)
                if j < len(later):
                    tag = _TAG.match(text, m.end(), end).group(1) if k == len(run) else ""
                    close = (later[j], tag)
                    break
        if close is None:
            idx += 1
            continue
        close_idx, tag = close
        cstart, cend = lines[close_idx]
        yield Fence(tag.lower(), text[end + 1 : cstart], start, cend)
        idx = close_idx + 1


PY_FENCE_TAGS = ("python", "py", "python3")
BLOCK_RULES = ("last", "first", "entry-first", "entry-last", "stop")
"""Which fenced block is the answer: see `choose_block`."""


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(tag, body) of every closed fenced block, in order."""
    return [(f.tag, f.body) for f in iter_fences(text)]


def language_blocks(text: str, languages: Sequence[str]) -> list[str]:
    """The bodies of the blocks tagged with one of `languages`, else of the untagged ones."""
    blocks = fenced_blocks(text)
    tags = {t.lower() for t in languages}
    return [b for t, b in blocks if t in tags] or [b for t, b in blocks if not t]


def first_fence_end(text: str) -> int | None:
    """Where the first closed fenced block ends (after its closing line), or None."""
    first = next(iter_fences(text), None)
    return None if first is None else first.end


def choose_block(
    text: str, languages: Sequence[str], rule: str, entry_point: str | None = None
) -> str | None:
    """The answer block by `rule`, from the text alone (never from how a block fares):

    - "last": the last block (what `extract_fenced` returns);
    - "first": the first block;
    - "entry-first" / "entry-last": the first / last block that parses and defines
      `entry_point` at top level, else the last block;
    - "stop": the text cut after its first closed fence (a stop string), then the last block.
    """
    if rule == "stop":
        end = first_fence_end(text)
        return extract_fenced(text if end is None else text[:end], languages)
    bodies = language_blocks(text, languages)
    if not bodies:
        return None
    if rule.startswith("entry-") and entry_point:
        defining = [b for b in bodies if defines_function(b, entry_point)]
        if defining:
            return defining[0] if rule == "entry-first" else defining[-1]
    return bodies[0] if rule == "first" else bodies[-1]


def extract_fenced(text: str, languages: Sequence[str]) -> str | None:
    """The last block tagged with one of `languages`, else the last untagged block."""
    bodies = language_blocks(text, languages)
    return bodies[-1] if bodies else None


def defines_function(code: str, name: str) -> bool:
    """True when `code` parses and defines `name` at top level."""
    try:
        tree = parse_python(code)
    except SyntaxError:
        return False
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name
        for node in tree.body
    )


def function_program(prompt: str, completion: str, entry_point: str) -> str:
    """The program to run for a HumanEval-style completion (see the module docstring).

    Of several blocks, the first that defines the entry point is the answer ("entry-first"):
    instruct models follow the function with an "Example usage" block or a second attempt, and
    on synth-python's validation slice this rule loaded and passed the most answers
    (bench/extract_choice.py; bench/README.md has the figures)."""
    code = choose_block(completion, PY_FENCE_TAGS, "entry-first", entry_point)
    if code is None:
        code = completion
    if defines_function(code, entry_point):
        return prompt.rstrip() + "\n\n\n" + code
    if code is not completion and not code.startswith((" ", "\t")):
        # a fenced body without indentation cannot continue the prompt; indent it
        code = "".join("    " + line if line.strip() else line for line in code.splitlines(True))
    return prompt + code
