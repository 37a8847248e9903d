"""Fenced code blocks in model text: the one rule every reader of answers shares.

The code grader picks its program from these blocks, the episode tools set them aside before
reading tool calls, and a local policy stops sampling after the first one closes
(`SamplingConfig.stop_at_closed_fence`), so all three must agree on where a block starts and
ends. Foundation layer: no torch, no rlvr imports.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

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


def first_fence_end(text: str) -> int | None:
    """Where the first closed fenced block ends (after its closing line), or None."""
    first = next(iter_fences(text), None)
    return None if first is None else first.end
