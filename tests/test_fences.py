"""Fenced blocks are found in O(n log n): the same blocks as the regular expression the graders
used, without its quadratic cost on answers full of unclosed openers."""

from __future__ import annotations

import random
import re

from rlvr.episodes.tools import without_code
from rlvr.graders.code.extract import fenced_blocks, first_fence_end, iter_fences

REFERENCE = re.compile(
    r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.M | re.S
)
PIECES = ["```", "````", "~~~", "```python", "````py", " ```", "\t```js x", "code", "x = 1", "",
          " ", "```` ", "~~~~", "```\r", "`` ", "``````", "~~~ rust"]  # fmt: skip


def reference(text: str) -> list[tuple[str, str, int, int]]:
    return [(m.group(2).lower(), m.group(3), m.start(), m.end()) for m in REFERENCE.finditer(text)]


def test_the_blocks_are_the_reference_patterns_blocks() -> None:
    rng = random.Random(0)
    for _ in range(5000):
        text = "\n".join(rng.choice(PIECES) for _ in range(rng.randint(0, 10)))
        text += "\n" * rng.randint(0, 1)
        got = [(f.tag, f.body, f.start, f.end) for f in iter_fences(text)]
        assert got == reference(text), repr(text)


def test_many_unclosed_openers_cost_linear_work() -> None:
    """200,000 unclosed openers after one real block (2 MB): the pattern takes hours here."""
    text = "```python\ndef f():\n    return 1\n```\n" + "```python\n" * 200_000
    assert fenced_blocks(text) == [("python", "def f():\n    return 1\n")]
    assert first_fence_end(text) == len("```python\ndef f():\n    return 1\n```")
    assert without_code(text) == "\n"  # code that never closes is cut, not read as a call
