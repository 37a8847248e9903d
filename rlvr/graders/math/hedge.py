"""Hedges, negations, refusals and revisions around a final answer.

A stated value does not count when its sentence hedges it ("either 18 or 20", "at least 3"),
negates it ("can't be 3"), gives up ("I cannot solve this"), or a later "Wait, I made an error"
revises it. graders/math/README.md ("Extraction") lists the rules.
"""

from __future__ import annotations

import re

PROSE_HEDGE_RE = re.compile(
    r"\b(?:maybe|possibly|perhaps|probably|either|unlikely|not sure|can'?t be sure|cannot be sure|"
    r"at least|at most|greater than|less than|more than|fewer than|bigger than|smaller than|"
    r"close to|no more than|no less than|approximately equal to)\b",
    re.IGNORECASE,
)
REFUSAL_RE = re.compile(  # giving up, not any "we can't divide by zero"
    r"\b(?:I|we)(?:'m|'re| am| are)?[ \t]+(?:(?:cannot|can'?t|can not|could ?n[o']t)[ \t]+"
    r"(?:solve|determine|answer|find|compute|finish|complete|figure|tell|say|be sure)|"
    r"do ?n[o']t know|(?:am |are )?not sure|(?:am |are )?unable)\b"
    r"|\bunable to (?:determine|solve|find|answer)\b",
    re.IGNORECASE,
)
_NEGATION_WORD_RE = re.compile(
    r"\b(?:not|never|cannot|can'?t|isn'?t|aren'?t|wasn'?t|unlikely|no longer)\b", re.IGNORECASE
)
_BOX_HEDGE_RE = re.compile(
    r"\beither\b.*\bor\b|\bor\s+(?:maybe\s+|possibly\s+|perhaps\s+)?[$\\(]*-?\d"
    r"|\b(?:possibly|perhaps|maybe|also possible|not sure|works as well|also works|"
    r"(?:is|are) also (?:correct|valid|acceptable|right))\b",
    re.IGNORECASE,
)
REVISION_RE = re.compile(
    r"\b(?:wait|actually|on second thought|correction|I made an? (?:error|mistake)|let me (?:re)?"
    r"(?:check|compute|calculate|recompute|recalculate|verify|redo|count)|oops|hold on|"
    r"scratch that|I was wrong|or maybe|never mind|on reflection|sorry|I mis(?:calculated|"
    r"counted|read|computed|added)|recount(?:ed|ing)?|recalculat(?:ed|ing)|"
    r"подожди(?:те)?|постой(?:те)?|на самом деле|attendez|en fait|warte|eigentlich|espera|"
    r"en realidad|de hecho|alternatively|rather|make that|my mistake|let me correct|erratum|"
    r"(?:edit|update|revised|corrected|fix)(?=[ \t]*:)|(?:scrap|strike|disregard|ignore) that|"
    r"nevermind|whoops|my bad|I retract|upon (?:further )?review|after re-?checking|"
    r"(?:it|that) (?:could|might|may|can) (?:also |well )?be)\b"
    r"|(?:(?<=[.!?] )|(?<=\n))(?:or|no|nope|maybe|perhaps|possibly|rather|could be|might be|"
    r"nein|нет)\b"
    r"|不对|等等|等一下|更正|其实",
    re.IGNORECASE,
)
CHECK_RE = re.compile(  # a check of the answer, not a revision: "let me verify: 42 ÷ 7 = 6"
    r"\b(?:let me|let's|I'll|I will)[ \t]+(?:double[- ]?)?(?:check|verify|confirm)|"
    r"\b(?:check|verification|verify)[ \t]*:",
    re.IGNORECASE,
)
_DIGIT_RE = re.compile(r"[\d,;]")


def _line_end(text: str, start: int) -> int:
    end = text.find("\n", start)
    return len(text) if end < 0 else end


def _last(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    found = None
    for found in pattern.finditer(text):  # noqa: B007
        pass
    return found


def negated(clause: str, value: str) -> bool:
    """ "can't be 3", "3 ... but it isn't": a negation right before the value (no other number
    or comma between) or after it in its sentence; "is not 10 which is 1,000" still states 1,000
    and "x cannot be negative, x = 5" states 5."""
    at = clause.rfind(value)
    head, tail = clause[: max(at, 0)], clause[at + len(value) :]
    neg = _last(_NEGATION_WORD_RE, head)
    if neg is not None and not _DIGIT_RE.search(head[neg.end() :]):
        return True
    return _NEGATION_WORD_RE.search(tail) is not None


def box_hedged(text: str, box: tuple[int, int, str]) -> bool:
    """`Either \\boxed{18} or 20`, `\\boxed{18} (or possibly 20)`: a hedge around the box."""
    head = text[text.rfind("\n", 0, box[0]) + 1 : box[0]][-300:]
    head = head[max(head.rfind(". "), head.rfind("? "), head.rfind("! ")) + 1 :]
    tail = text[box[1] : _line_end(text, box[1])][:300]
    stop = re.search(r"[.!?](?:\s|$)", tail)
    return _BOX_HEDGE_RE.search(f"{head} {tail[: stop.start()] if stop else tail}") is not None
