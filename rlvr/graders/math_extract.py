"""Find the final answer in a completion.

Sources, first match wins (graders/math/README.md is the reference):

1. `\\boxed{...}` / `\\fbox{...}` (nested braces allowed) - every box in the completion;
2. GSM8K `#### x` lines;
3. `Answer: x` / `Final answer: x` lines and "the (final) answer is x" phrases;
4. the whole completion, when it is one short line of mathematics (`x = 2`, `\\frac{1}{2}`);
5. the last number in the text, when `fallback_last_number` is on.

Every candidate of the winning source is kept, so that a completion offering several different
final answers (`\\boxed{2}` ... `\\boxed{3}`) can be rejected rather than graded on whichever
came last. The scans are linear in the completion's length: a 100 kB completion costs
milliseconds, and nested boxes are not rescanned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from rlvr.graders.math_normalize import matching_brace

Source = Literal["boxed", "gsm8k", "answer_line", "lone", "last_number", "none"]

_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![a-zA-Z])\s*")
_GSM8K_RE = re.compile(r"^[ \t]*####[ \t]*([^\n]*?)[ \t]*$", re.MULTILINE)
_ANSWER_LINE_RE = re.compile(
    r"^[ \t>*#_-]*(?:final[ \t]+)?answer[ \t]*\**[ \t]*[:：][ \t]*([^\n]*?)[ \t]*$",
    re.MULTILINE | re.IGNORECASE,
)
_ANSWER_IS_RE = re.compile(
    r"\bthe[ \t]+(?:final[ \t]+)?answer[ \t]+is[ \t]*:?[ \t]*([^\n]+)", re.IGNORECASE
)
_NUMBER_RE = re.compile(r"(?<![\w.])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[ \t]*/[ \t]*\d+)?")
_COMMAND_RE = re.compile(r"\\[a-zA-Z]+")
_WORD_RE = re.compile(r"[A-Za-z]+")
_LONE_WORDS = frozenset(
    "or and pi sin cos tan cot sec csc log ln exp sqrt inf oo".split()  # noqa: SIM905
)
_HEDGE_RE = re.compile(r"\bor\b|\\pm|±|\\mp|\beither\b", re.IGNORECASE)
_LONE_MAX_CHARS = 200


@dataclass(frozen=True, slots=True)
class Extraction:
    """What a completion offers as its final answer."""

    candidates: tuple[str, ...]
    source: Source
    hedged: bool = False

    @property
    def answer(self) -> str | None:
        """The last candidate (the one a lenient grader would take), or None."""
        return self.candidates[-1] if self.candidates else None


def boxed_contents(text: str) -> list[str]:
    """Contents of every top-level `\\boxed{}`/`\\fbox{}`, in order; an unclosed box is ignored."""
    found: list[str] = []
    pos = 0
    while True:
        m = _BOX_RE.search(text, pos)
        if m is None:
            return found
        start = m.end()
        if start < len(text) and text[start] == "{":
            close = matching_brace(text, start)
            if close < 0:
                return found  # truncated completion: the box never closed
            found.append(text[start + 1 : close].strip())
            pos = close + 1
        else:
            token = re.match(r"[^\s$]+", text[start : start + 200])
            if token:
                found.append(token.group(0))
            pos = start + 1


def _strip_wrapping(answer: str) -> str:
    answer = re.sub(r"^\*\*|\*\*$", "", answer.strip()).strip().rstrip(".").strip()
    if answer.startswith("$") and answer.endswith("$") and len(answer) > 1:
        answer = answer.strip("$").strip()
    return answer


def _answer_lines(text: str) -> list[str]:
    hits = [(m.start(), m.group(1)) for m in _ANSWER_LINE_RE.finditer(text)]
    hits += [(m.start(), m.group(1)) for m in _ANSWER_IS_RE.finditer(text)]
    return [_strip_wrapping(a) for _, a in sorted(hits) if a.strip()]


def _is_lone_answer(text: str) -> bool:
    """A single short line of mathematics, such as `x = 2` or `\\frac{1}{2}`."""
    if len(text) > _LONE_MAX_CHARS or "\n" in text or not text:
        return False
    if not re.search(r"[\d\\]", text) and len(text) > 1:
        return False
    bare = _COMMAND_RE.sub(" ", text)
    return all(len(w) == 1 or w.lower() in _LONE_WORDS for w in _WORD_RE.findall(bare))


def _last_number(text: str) -> Extraction:
    last = None
    for match in _NUMBER_RE.finditer(text):
        last = match
    if last is None:
        return Extraction((), "none")
    line_start = text.rfind("\n", 0, last.start()) + 1
    line_end = text.find("\n", last.end())
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    hedged = _HEDGE_RE.search(line) is not None
    return Extraction((last.group(0).replace(" ", ""),), "last_number", hedged)


def _distinct(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i))


def extract_answers(completion: str, fallback_last_number: bool = True) -> Extraction:
    """All final-answer candidates of the first source that has any."""
    boxes = _distinct(boxed_contents(completion))
    if boxes:
        return Extraction(boxes, "boxed")
    gsm = _distinct([_strip_wrapping(m.group(1)) for m in _GSM8K_RE.finditer(completion)])
    if gsm:
        return Extraction(gsm, "gsm8k")
    lines = _distinct(_answer_lines(completion))
    if lines:
        return Extraction(lines, "answer_line")
    lone = _strip_wrapping(completion)
    if _is_lone_answer(lone):
        return Extraction((lone,), "lone")
    if fallback_last_number:
        return _last_number(completion)
    return Extraction((), "none")
