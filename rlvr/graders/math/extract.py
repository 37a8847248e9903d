"""Find the final answer in a completion (or in a gold written as a worked solution).

Sources (graders/math/README.md is the reference):

1. `\\boxed{...}` / `\\fbox{...}` (nested braces allowed) - every box in the completion, unless
   a "final answer" statement comes after the last box (the model's last word wins);
2. GSM8K `#### x` lines;
3. `Answer: x` / `Final answer: x` lines and "the (final) answer is x" phrases (also in French,
   Spanish, German and Chinese), trimmed of trailing prose ("I hope it is correct");
4. the whole completion, when it is one short line of mathematics (`x = 2`, `\\frac{1}{2}`);
5. with `fallback_last_number`: the last math span (`$...$`, `\\(...\\)`, `\\[...\\]`) or the
   last number, whichever ends later.

Every candidate of the winning source is kept, so that a completion offering several different
final answers can be rejected rather than graded on whichever came last. Boxes separated only
by joining words (`\\boxed{1}, \\boxed{2} and \\boxed{3}`) are also offered `joined` as one
collection: the grader uses that form only when the gold itself has several members, so a
hedge (`\\boxed{12} ... or maybe \\boxed{10}`) is never joined. Scans are linear in the
completion's length.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Literal

from rlvr.graders.math.hedge import (
    PROSE_HEDGE_RE,
    REFUSAL_RE,
    REVISION_RE,
    box_hedged,
    negated,
)
from rlvr.graders.math.normalize import matching_brace

Source = Literal["boxed", "gsm8k", "answer_line", "lone", "last_math", "last_number", "none"]

_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![a-zA-Z])\s*")
_GSM8K_RE = re.compile(r"^[ \t]*####[ \t]*([^\n]*?)[ \t]*$", re.MULTILINE)
_LABELS = r"(?:answer|ответ|答え|答|정답|उत्तर|الإجابة|الجواب|คำตอบ|cevap|jawaban|trả lời)"
_ANSWER_LINE_RE = re.compile(
    r"(?:^[ \t>*#_-]*(?:final[ \t]+)?|(?<=[.!?$:,])[ \t]+\**final[ \t]+)"
    + _LABELS
    + r"[ \t]*\**[ \t]*"
    r"[:：][ \t]*(?=([^\n]*?)[ \t]*$)",
    re.MULTILINE | re.IGNORECASE,
)
_ANSWER_IS_RE = re.compile(  # keyword first (no optional prefix), so the scan stays fast
    r"(?:answer|option|choice)[ \t]+is[ \t]*:?[ \t]*(?=([^\n]{1,1200}))"
    r"|r[ée]ponse(?:[ \t]+finale)?[ \t]+(?:est|:)[ \t]*:?[ \t]*(?=([^\n]{1,1200}))"
    r"|respuesta(?:[ \t]+final)?[ \t]+es[ \t]*:?[ \t]*(?=([^\n]{1,1200}))"
    r"|antwort[ \t]+(?:ist|lautet)[ \t]*:?[ \t]*(?=([^\n]{1,1200}))"
    r"|答案(?:是|为)?】?[ \t]*[：:]?[ \t]*(?=([^\n]{1,1200}))"
    r"|(?:故|所以|应)选[ \t]*[：:]?[ \t]*(?=([^\n]{1,1200}))",
    re.IGNORECASE,
)
_NUMBER_RE = re.compile(
    r"(?<![A-Za-z0-9_.^])-?(?:\d+,\d{1,2}(?![\d,])|(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)"
    r"(?:[ \t]*/[ \t]*\d+)?"
)
_SPAN_RE = re.compile(  # a span never runs past another opener of its kind: linear time
    r"\$\$(.+?)\$\$|\\\[((?:(?!\\\[).)+?)\\\]|\\\(((?:(?!\\\().)+?)\\\)"
    r"|(?<![\\$])\$((?:[^$\n\\]|\\.)+?)\$",
    re.DOTALL,
)
_COMMAND_RE = re.compile(r"\\(?:begin|end)\s*\{[a-zA-Z*]+\}|\\[a-zA-Z]+")
_WORD_RE = re.compile(r"[A-Za-z]+")
_LONE_WORDS = frozenset(
    "or and pi sin cos tan cot sec csc log ln exp sqrt inf oo".split()  # noqa: SIM905
)
_HEDGE_RE = re.compile(r"\bor\b|\\pm|±|\\mp|\beither\b", re.IGNORECASE)
_SPECIAL_TOKEN_RE = re.compile(r"<\|(?:im_start|im_end|endoftext|end|eot_id)\|>")
_PROSE_END_RE = re.compile(
    r"\.\s+(?=[A-Z(\[])|\bI hope\b|\s+\((?:Note|Check)|\n|[。！？．]", re.IGNORECASE
)
_LEAD_RE = re.compile(
    r"^(?:the[ \t]+(?:final[ \t]+)?answer[ \t]+is[ \t]*:?|is[ \t]*:?)[ \t]*", re.I
)
_JOIN_DENY_RE = re.compile(
    r"\b(?:or|maybe|perhaps|possibly|alternatively|either|wait|actually|instead|but|however|"
    r"hmm|no|not|wrong|incorrect|mistake|check|recheck|guess|probably|likely|might|could|"
    r"then|else|otherwise|if|ou|oder|o|或)\b|[?]",
    re.IGNORECASE,
)
_ANSWER_TAG_RE = re.compile(r"<answer>((?:(?!<answer>).)*?)</answer>", re.DOTALL | re.IGNORECASE)
_NEGATIVE_WORD_RE = re.compile(r"\bnegative[ \t]+(?=\$?\d)", re.IGNORECASE)
_SCRIPT_RE = re.compile(  # prose in a non-Latin script is never a lone answer
    "[\u0400-\u04ff\u0600-\u06ff\u0900-\u097f\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)
_UMINUS_RE = re.compile(r"(?<=[^\w)\]}\s])\s*\u2212[ \t]*(?=\d)|(?<=[A-Za-z])\s+\u2212[ \t]*(?=\d)")
_CJK_TAIL_RE = re.compile(r"(?<=[\d$}])[ \t]*[\u3400-\u9fff]{1,3}$")  # 5个, 18 元, 18 美元
_SCALE_WORD_RE = re.compile(
    r"[ \t]+(?:(?:ten|hundred|thousand|million|billion|trillion|dozen)s?|squared|cubed)\b", re.I
)
_JOIN_MAX_GAP = 80
_LONE_MAX_CHARS = 200


@dataclass(frozen=True, slots=True)
class Extraction:
    """What a completion offers as its final answer."""

    candidates: tuple[str, ...]
    source: Source
    hedged: bool = False
    joined: str | None = None
    negated: bool = False

    @property
    def answer(self) -> str | None:
        """The last candidate (the one a lenient grader would take), or None."""
        return self.candidates[-1] if self.candidates else None


def _boxes(text: str) -> list[tuple[int, int, str]]:
    """(start, end, content) of every top-level box, in order; an unclosed box is ignored."""
    found: list[tuple[int, int, str]] = []
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
            found.append((m.start(), close + 1, text[start + 1 : close].strip()))
            pos = close + 1
        else:
            token = re.match(r"[^\s$]+", text[start : start + 200])
            if token:
                found.append((m.start(), start + token.end(), token.group(0)))
            pos = start + 1


def boxed_contents(text: str) -> list[str]:
    """Contents of every top-level `\\boxed{}`/`\\fbox{}`, in order; an unclosed box is ignored."""
    return [content for _, _, content in _boxes(text)]


def _strip_wrapping(answer: str) -> str:
    answer = re.sub(r"^\*\*|\*\*$", "", answer.strip()).strip().rstrip(".").strip()
    answer = re.sub(r'^(?:\\?["“])(.*?)(?:\\?["”])$', r"\1", answer).strip()
    if answer.startswith("$") and answer.endswith("$") and len(answer) > 1:
        answer = answer.strip("$").strip()
    return answer


def from_prose(text: str) -> str:
    """The answer inside a final-answer sentence: "The largest $n$ is 34. I hope..." -> 34."""
    text = _LEAD_RE.sub("", text.strip())
    cut = _PROSE_END_RE.search(text)
    if cut is not None and cut.start() > 0:
        text = text[: cut.start()]
    text = _strip_wrapping(text.strip().rstrip(".,;:!．。"))
    text = _CJK_TAIL_RE.sub("", text).strip()
    if PROSE_HEDGE_RE.search(text):
        return HEDGED  # "at least 3", "18 or maybe 20", "close to 3": not one value
    if REFUSAL_RE.search(text):
        return NEGATED  # "I am not sure, 0 idea" states no answer
    if _is_lone_answer(_SPAN_DELIMS_RE.sub(" ", text).strip()) or not text:
        return text
    if _NEGATION_RE.match(text):
        but = re.search(r"[ \t,]+but[ \t]+(?:it[ \t]+is[ \t]+|is[ \t]+)?", text)
        return from_prose(text[but.end() :]) if but else NEGATED  # "not 3 but 2" states 2
    lead = _SPAN_RE.match(text) or _NUMBER_RE.match(text)
    scale = _SCALE_WORD_RE.match(text, lead.end()) if lead is not None else None
    if scale is not None:
        return text[: scale.end()]  # "5 million" is not 5
    if lead is not None and not _JOINER_RE.fullmatch(text[lead.end() :]):
        return _span_text(lead) if lead.re is _SPAN_RE else lead.group(0).replace(" ", "")
    spans = list(_SPAN_RE.finditer(text))
    if spans:
        between = [text[a.end() : b.start()] for a, b in itertools.pairwise(spans)]
        if (
            len(spans) > 1
            and spans[0].start() == 0
            and all(_JOINER_RE.fullmatch(g) for g in between)
        ):
            return _SPAN_DELIMS_RE.sub(" ", text[: spans[-1].end()]).strip()
        last = spans[-1]
        number = _last_match(_NUMBER_RE, text)
        if number is None or number.start() < last.end():
            return _span_text(last)
        return number.group(0).replace(" ", "")
    number = _last_match(_NUMBER_RE, text)
    return number.group(0).replace(" ", "") if number else text


_SPAN_DELIMS_RE = re.compile(r"\$|\\\(|\\\)|\\\[|\\\]")
NEGATED = "\x00not"
HEDGED = "\x00hedged"
_NEGATION_RE = re.compile(r"(?:not|never|no longer)\b", re.IGNORECASE)
_JOINER_RE = re.compile(r"[\s,;]*(?:and|or)?[\s,;]*")


def _span_text(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g is not None).strip()


def _last_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    return next(reversed(list(pattern.finditer(text))), None)


def _answer_lines(text: str) -> list[tuple[int, str]]:
    """The last final-answer statement and, if that one is negated or hedged, the last stating
    a value before it (only these decide), read from the end: linear in the statements."""
    hits = [(m.start(), m.group(1)) for m in _ANSWER_LINE_RE.finditer(text)]
    hits += [(m.start(), next(g for g in m.groups() if g)) for m in _ANSWER_IS_RE.finditer(text)]
    out: list[tuple[int, str]] = []
    for start, raw in sorted(hits, reverse=True):
        answer = from_prose(raw)
        if answer and (not out or answer not in (NEGATED, HEDGED)):
            out.insert(0, (start, answer))
            if answer not in (NEGATED, HEDGED):
                break
    return out


def _is_lone_answer(text: str) -> bool:
    """A single short line of mathematics, such as `x = 2` or `\\frac{1}{2}`."""
    if len(text) > _LONE_MAX_CHARS or "\n" in text or not text or _SCRIPT_RE.search(text):
        return False
    if not re.search(r"[\d\\]", text) and len(text) > 1:
        return False
    bare = _COMMAND_RE.sub(" ", text)
    return all(len(w) == 1 or w.lower() in _LONE_WORDS for w in _WORD_RE.findall(bare))


def _line_of(text: str, start: int, end: int) -> str:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return text[line_start : line_end if line_end >= 0 else len(text)]


def _clause_of(text: str, start: int, end: int) -> str:
    """The sentence around a match: hedges are looked for there, not in a whole paragraph."""
    line = _line_of(text, start, end)
    offset = text.rfind("\n", 0, start) + 1
    head = line[: start - offset]
    cut = max(head.rfind(". "), head.rfind("? "), head.rfind("! "))
    tail = line[end - offset :]
    stop = re.search(r"[.!?](?:\s|$)", tail)
    return line[cut + 1 : (end - offset) + (stop.start() if stop else len(tail))]


def _number_wins(text: str, span: re.Match[str], number: re.Match[str]) -> bool:
    """A number after the last math span is the answer unless it sits in the span's sentence
    and the span holds a value: "the remainder is $4$ when divided by 7" answers 4."""
    if number.start() < span.end():
        return False
    between = text[span.end() : number.start()]
    if re.search(r"[.!?](?:\s|$)|\n", between) or re.match(r"\s+[A-Z]", between):
        return True  # the number is in a later sentence
    inner = _span_text(span)
    return inner.endswith((".", "!", "?")) or not re.search(r"[\d\\]", inner)


def _last_value(text: str) -> Extraction:
    """The last math span or the last number, whichever ends later."""
    span = _last_match(_SPAN_RE, text)
    number = _last_match(_NUMBER_RE, text)
    if span is None and number is None:
        return Extraction((), "none")
    if number is not None and (span is None or _number_wins(text, span, number)):
        clause = _clause_of(text, number.start(), number.end())
        if negated(clause, number.group(0)) or REFUSAL_RE.search(text):
            return Extraction((), "none", negated=True)  # "The answer can't be 3."
        hedged = _HEDGE_RE.search(clause) is not None
        scale = _SCALE_WORD_RE.match(text, number.end())  # "55 tens" is not 55
        value = text[number.start() : scale.end()] if scale else number.group(0).replace(" ", "")
        return Extraction((value,), "last_number", hedged)
    assert span is not None
    clause = _clause_of(text, span.start(), span.end())
    if negated(clause, span.group(0)) or REFUSAL_RE.search(text):
        return Extraction((), "none", negated=True)
    hedged = _HEDGE_RE.search(_SPAN_RE.sub(" ", clause)) is not None
    content = _span_text(span)
    return Extraction((content,), "last_math", hedged) if content else Extraction((), "none")


def _distinct(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i))


def _joined(text: str, boxes: list[tuple[int, int, str]]) -> str | None:
    """The final run of boxes read as one collection, when only joining words separate them."""
    run = [boxes[-1]]
    for box in reversed(boxes[:-1]):
        gap = text[box[1] : run[0][0]]
        if len(gap) > _JOIN_MAX_GAP or "\n\n" in gap.strip() or _JOIN_DENY_RE.search(gap):
            break
        run.insert(0, box)
    contents = list(dict.fromkeys(content for _, _, content in run))
    return ", ".join(contents) if len(contents) > 1 else None


def _answer_text(completion: str) -> str | None:
    """The part of a completion that may hold the answer; None when the reasoning never ended."""
    text = completion
    think_end = text.rfind("</think>")
    if think_end >= 0:
        text = text[think_end + len("</think>") :]  # the answer follows the reasoning
    elif text.lstrip().startswith("<think>"):
        return None  # the reasoning never ended: no answer was given
    special = _SPECIAL_TOKEN_RE.search(text)
    if special is not None and special.start() > 0:
        text = text[: special.start()]
    tags = list(_ANSWER_TAG_RE.finditer(text))
    if tags:
        text = tags[-1].group(1)  # `<answer>20</answer> 18` answers 20
    if "\u2212" in text:
        text = _UMINUS_RE.sub(" -", text).replace("\u2212", "-")  # "is − 3" is -3
    return _NEGATIVE_WORD_RE.sub("-", text) if "egative" in text else text


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end


def _revised(text: str, end: int, ext: Extraction) -> Extraction:
    """A revision after the final statement ("Wait, I made an error: it's 27") adds its value."""
    tail = text[end:]
    m = REVISION_RE.search(tail)
    if m is None:
        return ext
    later = _last_value(tail[m.end() :])
    if not later.candidates:
        return ext
    return Extraction(_distinct([*ext.candidates, *later.candidates]), ext.source, ext.hedged)


def _from_boxes(
    text: str, boxes: list[tuple[int, int, str]], lines: list[tuple[int, str]]
) -> Extraction:
    """The boxes; only those after a final-answer statement that holds the last box."""
    if lines and lines[-1][0] < boxes[-1][0] and "\n" not in text[lines[-1][0] : boxes[-1][0]]:
        boxes = [b for b in boxes if b[0] > lines[-1][0]]  # "Final answer: \\boxed{18}"
    found = _distinct([c for _, _, c in boxes])
    hedged = len(found) == 1 and box_hedged(text, boxes[-1])
    ext = Extraction(found, "boxed", hedged=hedged, joined=_joined(text, boxes))
    return _revised(text, boxes[-1][1], ext)


def _from_line(text: str, line: tuple[int, str]) -> Extraction:
    """The last final-answer statement wins: "The answer is 18. Wait... So the answer is 27."."""
    start, answer = line
    if answer == NEGATED:
        return Extraction((), "answer_line")
    if answer == HEDGED:
        return Extraction((text[start : _line_end(text, start)][:200],), "answer_line", True)
    return _revised(text, _line_end(text, start), Extraction((answer,), "answer_line"))


def extract_answers(completion: str, fallback_last_number: bool = True) -> Extraction:
    """The final-answer candidates of the first source that has any."""
    text = _answer_text(completion)
    if text is None:
        return Extraction((), "none")
    boxes = _boxes(text)
    lines = _answer_lines(text)
    last_word = lines and not (boxes and boxes[-1][1] > lines[-1][0])
    if last_word and (boxes or lines[-1][1] in (NEGATED, HEDGED)):
        return _from_line(text, lines[-1])
    if boxes:
        return _from_boxes(text, boxes, [ln for ln in lines if ln[1] not in (NEGATED, HEDGED)])
    gsm = _distinct([_strip_wrapping(m.group(1)) for m in _GSM8K_RE.finditer(text)])
    if gsm:
        return Extraction(gsm, "gsm8k")
    if lines:
        return _from_line(text, lines[-1])
    lone = _strip_wrapping(text)
    if _is_lone_answer(lone):
        return Extraction((lone,), "lone")
    if fallback_last_number:
        return _last_value(text)
    return Extraction((), "none")


def gold_answer(gold: str) -> str:
    """The answer a gold states: itself, or the boxed / final answer of a worked solution.

    Several boxes in a gold are its members (`\\boxed{1}, \\boxed{2}` is the collection 1, 2).
    """
    text = gold.strip()
    boxes = _boxes(text)
    if boxes:
        return _joined(text, boxes) or boxes[-1][2]
    lines = _answer_lines(text)
    if lines:
        return lines[-1][1]
    if "\n" not in text and len(text) <= _LONE_MAX_CHARS and not re.search(r"[.!?]\s+[A-Z]", text):
        return text
    found = _last_value(text)
    return found.candidates[-1] if found.candidates else text
