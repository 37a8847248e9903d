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

import re
from dataclasses import dataclass
from typing import Literal

from rlvr.graders.math.bare import SIGN_BEFORE, expression_around
from rlvr.graders.math.hedge import (
    REFUSAL_RE,
    box_hedged,
    negated,
)
from rlvr.graders.math.normalize import matching_brace
from rlvr.graders.math.notation import scaled_expression
from rlvr.graders.math.revision import WITHDRAWN, read_revision
from rlvr.graders.math.statements import (
    HEDGED,
    JOIN_DENY_RE,
    LONE_MAX_CHARS,
    NEGATED,
    NUMBER_RE,
    SCALE_WORD_RE,
    SPAN_RE,
    answer_lines,
    drop_aside,
    is_lone_answer,
    last_match,
    span_text,
    strip_wrapping,
)

Source = Literal["boxed", "gsm8k", "answer_line", "lone", "last_math", "last_number", "none"]

_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![a-zA-Z])\s*")
_GSM8K_RE = re.compile(r"^[ \t]*####([^\n]*)$", re.MULTILINE)  # stripped after: linear
_HEDGE_RE = re.compile(r"\bor\b|\\pm|±|\\mp|\beither\b", re.IGNORECASE)
# what makes a sentence's last number no final value: a bound, a guess, a rejection of it
# what makes a sentence's last number no final value: a bound or a guess just before it, a
# rejection just after it, or a symbol of either anywhere in its sentence
_BOUND_BEFORE_RE = re.compile(
    r"\b(?:at (?:most|least)|(?:less|more|fewer|greater|smaller|larger|other) than|up to|"
    r"except|anything but|probably|maybe|perhaps|possibly|approximately|roughly|nearly|almost|"
    r"(?:a )?multiple of|divisible by|(?:a )?factor of|versus|vs\.?|reject(?:ed|s)?|"
    r"rul(?:e|ed|ing) out|excluded?|not)\W+(?:[^\W\d]+\W+){0,2}$",
    re.IGNORECASE,
)
_REJECTED_AFTER_RE = re.compile(
    r"^\W*(?:[^\W\d]+\W+){0,3}?(?:wrong|incorrect|impossible|invalid|fails?|rejected)\b",
    re.IGNORECASE,
)
_DENY_SYMBOL_RE = re.compile(r"[⩽⩾≦≧≲≳≪≫≅≢∨∪‰]|=/=|~~|<del>|❌|\\(?:lor|vee|cup)\b")
# a word right before the last number that makes it an argument, or right after it a scale
_ARGUMENT_BEFORE_RE = re.compile(
    r"\b(?:sqrt|ln|log|exp|sin|cos|tan|half|third|quarter|double|twice|triple|times|root|"
    r"percent|fraction)(?:[ \t]+of)?[ \t]*$",
    re.IGNORECASE,
)
_SCALE_AFTER_RE = re.compile(r"[ \t]*(?:(?:ten|hundred|thousand|million)ths\b|[kKM]\b|[⁻¹²³])")
_ODD_MINUS_RE = re.compile(r"[\u2010\u2011\u2012\ufe63\uff0d](?=[ \t]?\d)")  # hyphens as minus
_SPACED_MINUS_RE = re.compile(r"-(?:\\[,;:! ]|~|\\?\$)+(?=\d)")  # `-\,55`, `-\$55`: a minus
_FRACTION_SLASH_RE = re.compile(r"[\u2044\u2215]")  # `1⁄42` is 1/42
_SPECIAL_TOKEN_RE = re.compile(r"<\|(?:im_start|im_end|endoftext|end|eot_id)\|>")
_ANSWER_TAG_RE = re.compile(r"<answer>((?:(?!<answer>).)*?)</answer>", re.DOTALL | re.IGNORECASE)
_NEGATIVE_WORD_RE = re.compile(  # "negative 3"; "minus 3" unless it subtracts ("10 minus 3")
    r"\bnegative[ \t]+(?=\$?\d)|(?<![\d)}\]])(?<![\d)}\]][ \t])\bminus[ \t]+(?=\$?\d)",
    re.IGNORECASE,
)
# an en or em dash where a minus is a sign (bare.SIGN_BEFORE) is one: "x = –5", "x is – 5"
_DASH_SIGN_RE = re.compile(f"({SIGN_BEFORE})[\u2013\u2014](?=[ \t]*[\\d\\\\(])", re.IGNORECASE)
_UMINUS_RE = re.compile(r"(?<=[^\w)\]}\s])\s*\u2212[ \t]*(?=\d)|(?<=[A-Za-z])\s+\u2212[ \t]*(?=\d)")
_JOIN_MAX_GAP = 80


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
    inner = span_text(span)
    return inner.endswith((".", "!", "?")) or not re.search(r"[\d\\]", inner)


def _last_value(text: str) -> Extraction:
    """The last math span or the last number, whichever ends later."""
    span = last_match(SPAN_RE, text)
    number = last_match(NUMBER_RE, text)
    if span is None and number is None:
        return Extraction((), "none")
    if number is not None and (span is None or _number_wins(text, span, number)):
        clause = _clause_of(text, number.start(), number.end())
        if negated(clause, number.group(0)) or REFUSAL_RE.search(text):
            return Extraction((), "none", negated=True)  # "The answer can't be 3."
        hedged = _HEDGE_RE.search(clause) is not None or _denied(clause, number.group(0))
        hedged = hedged or _ARGUMENT_BEFORE_RE.search(text, 0, number.start()) is not None
        hedged = hedged or _SCALE_AFTER_RE.match(text, number.end()) is not None
        value, after = number.group(0).replace(" ", ""), number.end()
        widened = expression_around(text, number.start(), number.end())
        if widened is not None:
            value, after = widened  # "AB = \\sqrt{2}" answers sqrt(2), "2^{10}" 1024: not 2, 10
        scale = SCALE_WORD_RE.match(text, after)  # "55 tens" is not 55
        if scale and widened is None:
            value = text[number.start() : scale.end()]
        elif scale:
            value = scaled_expression(value, scale.group(0))
        elif _PERCENT_AFTER_RE.match(text, after):
            value += "%"  # 50% is not 50; a widened `3 + 2%` is read as a boxed one is
        return Extraction((value,), "last_number", hedged)
    assert span is not None
    clause = _clause_of(text, span.start(), span.end())
    if negated(clause, span.group(0)) or REFUSAL_RE.search(text):
        return Extraction((), "none", negated=True)
    hedged = _HEDGE_RE.search(SPAN_RE.sub(" ", clause)) is not None
    content = span_text(span)
    return Extraction((content,), "last_math", hedged) if content else Extraction((), "none")


_PERCENT_AFTER_RE = re.compile(r"\\?%")
_LISTED_RE = re.compile(r"\d[ \t]*(?:[,;]|\b(?:to|through|and)\b)[ \t]*$")  # "41, 42", "54 to 55"


def _denied(clause: str, number: str) -> bool:
    """Whether the sentence of a last number bounds, guesses or rejects it ("at most 55",
    "probably 55", "42, which is wrong") or lists it ("41, 42", "54 to 55"): then it is no
    final value.
    A relation such as `x <= 5` or `x \\ne 3` is read whole by bare.py instead."""
    at = clause.rfind(number)
    before, after = (clause[:at], clause[at + len(number) :]) if at >= 0 else (clause, "")
    return (
        _DENY_SYMBOL_RE.search(clause) is not None
        or _BOUND_BEFORE_RE.search(before) is not None
        or _REJECTED_AFTER_RE.match(after) is not None
        or _LISTED_RE.search(before) is not None
    )


def _distinct(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i))


def _joined(text: str, boxes: list[tuple[int, int, str]]) -> str | None:
    """The final run of boxes read as one collection, when only joining words separate them."""
    run = [boxes[-1]]
    for box in reversed(boxes[:-1]):
        gap = text[box[1] : run[0][0]]
        if len(gap) > _JOIN_MAX_GAP or "\n\n" in gap.strip() or JOIN_DENY_RE.search(gap):
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
    text = _SPACED_MINUS_RE.sub("-", _ODD_MINUS_RE.sub("-", text))
    text = _FRACTION_SLASH_RE.sub("/", text)
    if "\u2013" in text or "\u2014" in text:
        text = _DASH_SIGN_RE.sub(r"\1-", text)  # "x = –5" is -5 (a range `3–5` keeps its dash)
    has_word = "egative" in text or "inus" in text
    return _NEGATIVE_WORD_RE.sub("-", text) if has_word else text


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end


def _revised(text: str, end: int, ext: Extraction) -> Extraction:
    """The extraction after a revision past `end` (revision.read_revision): unchanged, taken
    back, or with the revision's value added."""
    value = read_revision(text, end, ext.candidates)
    if value is None:
        return ext
    if value == WITHDRAWN:
        return Extraction((), ext.source, negated=True)
    return Extraction(_distinct([*ext.candidates, value]), ext.source, ext.hedged)


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
    return _revised(text, start, Extraction((answer,), "answer_line"))  # "42. Wait, it's 41."


def extract_answers(completion: str, fallback_last_number: bool = True) -> Extraction:
    """The final-answer candidates of the first source that has any."""
    text = _answer_text(completion)
    if text is None:
        return Extraction((), "none")
    boxes = _boxes(text)
    lines = answer_lines(text)
    last_word = lines and not (boxes and boxes[-1][1] > lines[-1][0])
    if last_word and (boxes or lines[-1][1] in (NEGATED, HEDGED)):
        return _from_line(text, lines[-1])
    if boxes:
        return _from_boxes(text, boxes, [ln for ln in lines if ln[1] not in (NEGATED, HEDGED)])
    gsm = list(_GSM8K_RE.finditer(text))
    if gsm:  # a statement or a revision after the `####` line is a later word
        after = [line for line in lines if line[0] > gsm[-1].start()]
        if after and after[-1][1] in (NEGATED, HEDGED):
            return _from_line(text, after[-1])
        found = [drop_aside(strip_wrapping(m.group(1))) for m in gsm]
        found += [a for _, a in after[-1:]]
        return _revised(text, gsm[-1].end(), Extraction(_distinct(found), "gsm8k"))
    if lines:
        return _from_line(text, lines[-1])
    lone = strip_wrapping(text)
    if is_lone_answer(lone):
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
    lines = answer_lines(text)
    if lines:
        return lines[-1][1]
    if "\n" not in text and len(text) <= LONE_MAX_CHARS and not re.search(r"[.!?]\s+[A-Z]", text):
        return text
    found = _last_value(text)
    return found.candidates[-1] if found.candidates else text
