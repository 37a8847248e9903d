"""Revisions after the final answer: "The answer is 42. Wait, I made an error: it's 41."

A model that states an answer and then changes its mind has given the later value, so a revision
adds the value it states to the candidates (and a completion whose candidates differ is
rejected). The rules (graders/math/README.md, "1. Extraction"):

- a cue starts a revision (hedge.REVISION_RE: wait, no, sorry, actually, rather, ... and the
  same in Chinese, Russian, French, German and Spanish);
- its last value decides when it is stated (`it's 41`, `= 6`, right after the cue and ending
  its phrase: "Wait, 41." but not "No, 6 of them were eaten"), otherwise the last value stated
  as the answer ("should be 41, since 42 double counts");
- a value given as a reason ("because 6") or denied ("not 42") does not count, nor one that
  cannot be ("it can't be 41");
- a check ("let me verify") revises nothing unless it names an error; a revision that ends on
  the answer restates it;
- "Wait, that's wrong." with no value takes the answer back (WITHDRAWN).
"""

from __future__ import annotations

import bisect
import re

from rlvr.graders.math.hedge import CHECK_RE, REVISION_RE, negated
from rlvr.graders.math.number_words import number_words
from rlvr.graders.math.statements import DENIED_VALUE_RE, NUMBER_RE, SPAN_RE, span_text

WITHDRAWN = "\x00withdrawn"  # read_revision's answer when the revision offers no value
_STATED_RE = re.compile(  # a value stated, not mentioned: "it's 41", "= 6", "answer is 41"
    r"(?:\bis\b|['’]s|=|\bbe\b|\bgets?\b|\bgot\b|\bgives?|\bequals?|:|answer|\bmeant|make that|"
    r"是|为|равно|будет|правильно|\bist|\best|\bes)\W*"
    r"(?:(?!(?:since|because|as|so|and|but|when|if|which|that|of|with|for)\b)[^\W\d_]+\W+)?\W*$",
    re.IGNORECASE,
)
_STRONG_RE = re.compile(  # stated as the answer, wherever in the revision: "should be 41"
    r"(?:\bit['’]s|\bit is|should be|answer is|answer:|\bI meant|make that|(?:change|correct) "
    r"(?:that|it) to|应该是|правильно)\W*$",
    re.IGNORECASE,
)
_BARE_RE = re.compile(r"^\W*$")  # "Wait, 41": the value right after the cue
_LOOSE_STATED_RE = re.compile(  # "so 41 apples.", "came to 41": stated when it ends its phrase
    r"(?:\bso|\bthus|\bhence|\btherefore|\b(?:comes?|came)(?:[ \t]+out)?[ \t]+to|\btotals?|"
    r"\badds?[ \t]+up[ \t]+to)\W*$",
    re.IGNORECASE,
)
_AFFIRMED_RE = re.compile(  # "Wait, 41 is correct.", "41 is indeed right": the value affirmed
    r"\$?[ \t]*(?:is|was|must be|would be|seems|looks)[ \t]+(?:(?:indeed|actually|really|"
    r"definitely|clearly|certainly)[ \t]+)?(?:the[ \t]+)?(?:correct|right|true|real|actual)\b"
    r"(?![ \t]+(?:answer[ \t]+)?(?:to|for|if|when)\b)",
    re.IGNORECASE,
)
_NOT_AFFIRMED_RE = re.compile(  # "step 2 is correct", "6 × 7 is right": a label or a factor
    r"(?:\b(?:steps?|parts?|rules?|equations?|eq\.|cases?|lines?|rows?|columns?|items?|"
    r"questions?|problems?|options?|methods?|approach|stages?|points?)|[×*+\-/^÷·]|\\times|"
    r"\\cdot)[ \t]*$",
    re.IGNORECASE,
)
_MENTION_RE = re.compile(  # "since 42 double counts": a reason, not a restatement
    r"\b(?:since|because|as|than|while|although|whereas|unlike|not)\W*(?:[^\W\d_]+\W+)?$", re.I
)
_BARE_END_RE = re.compile(  # the value ends its phrase: "41.", "41 apples.", "41 in total."
    r"\$?[ \t]*(?:[^\W\d_]+[ \t]*)?(?:(?:in[ \t]+(?:total|all)|altogether)[ \t]*)?"
    r"(?:[.!?,;:)\]]|$)",
    re.IGNORECASE,
)
_CUE_END_RE = re.compile("(?:" + REVISION_RE.pattern + r")\W*$", re.IGNORECASE)
_WITHDRAWN_RE = re.compile(  # "Wait, that's wrong." takes the answer back and offers none
    r"\b(?:that|this|it)(?:['’]s|[ \t]+is|[ \t]+was)[ \t]+(?:wrong|incorrect|not (?:right|correct))"
    r"|\bthat (?:seems|looks) wrong\b|\bI (?:think I )?made an? (?:error|mistake)\b|"
    r"\bscratch that\b",
    re.IGNORECASE,
)
_NUMERAL_RE = re.compile(  # "it's forty-one": a revision in words
    r"\b(?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|million)(?:[ -]|\b))+",
    re.IGNORECASE,
)
MAX_REVISION_VALUES = 64  # values read back from the end of a revision
_RETRACT_RE = re.compile(r"\b(?:wrong|incorrect|error|mistake|not)\b", re.IGNORECASE)


def read_revision(text: str, end: int, answer: tuple[str, ...]) -> str | None:
    """What a revision after the final answer (which ends at `end`) does to it: the value it
    states ("Wait, I made an error: it's 27"), WITHDRAWN when it takes the answer back and offers
    none ("Wait, that's wrong."), or None when there is no revision, it is a check of the
    answer ("let me verify: 42 ÷ 7 = 6") or it ends on the answer."""
    m = REVISION_RE.search(text, end)
    if m is None:
        return None
    tail = DENIED_VALUE_RE.sub(" ", text[m.end() :])  # "it's 41, not 42" revises to 41
    checks = CHECK_RE.match(text, m.start()) is not None or CHECK_RE.search(tail) is not None
    if checks and not _RETRACT_RE.search(tail):
        return None  # "let me verify: 42 ÷ 7 = 6", "let me verify: 4 friends, each gets 3"
    stated = _last_stated(tail, checks, answer)
    if stated is None:
        return WITHDRAWN if _WITHDRAWN_RE.search(text, m.start()) is not None else None
    if any(_same(stated, c) for c in answer):
        return None  # "Wait, it's 41. No, it's 42." and "... 3 × 14... yes, 42." end on 42
    return stated


def _last_stated(tail: str, checks: bool, answer: tuple[str, ...]) -> str | None:
    """The revision's last value when it is stated ("it's 41", "= 6", right after a cue; in a
    check, a value right after the cue is a mention), else the last one it states as the
    answer ("should be 41, since 42 double counts"); None when it states none."""
    spans = list(SPAN_RE.finditer(tail))  # in order, never overlapping
    starts = [s.start() for s in spans]

    def in_span(i: int) -> bool:
        k = bisect.bisect_right(starts, i) - 1
        return k >= 0 and i < spans[k].end()

    found = [(s.start(), s.end(), span_text(s)) for s in spans]
    found += [(n.start(), n.end(), n.group(0).replace(" ", "")) for n in NUMBER_RE.finditer(tail)
              if not in_span(n.start())]  # fmt: skip
    found += [(w.start(), w.start() + len(w.group(0).rstrip(" -")), w.group(0).strip())
              for w in _NUMERAL_RE.finditer(tail)]  # fmt: skip
    for k, (start, stop, value) in enumerate(sorted(found, reverse=True)[:MAX_REVISION_VALUES]):
        before = tail[:start][-40:]
        if negated(before + value, value):
            continue  # "it can't be 41"
        if k == 0 and any(_same(value, c) for c in answer) and not _MENTION_RE.search(before):
            return value  # the revision ends on the answer: "Wait, 3 × 14... yes, 42."
        if _STRONG_RE.search(before):
            return value
        if _AFFIRMED_RE.match(tail, stop) and not _NOT_AFFIRMED_RE.search(before):
            return value  # "Wait, 41 is correct (one chair is broken)."
        if k > 0:
            continue
        ends = not checks and _BARE_END_RE.match(tail, stop) is not None
        if _BARE_RE.match(tail, 0, start) or _CUE_END_RE.search(before):
            if ends:
                return value  # "Wait, 41.", "No, 41 apples." (not "No, 6 of them were eaten")
        elif _STATED_RE.search(before):
            return value
        if ends and _LOOSE_STATED_RE.search(before):
            return value  # "so 41 apples.", "the total comes to 41"
    return None


def _same(a: str, b: str) -> bool:
    return re.sub(r"[\s$,]", "", number_words(a)) == re.sub(r"[\s$,]", "", number_words(b))
