"""Final-answer statements in prose and the values in them: the readers extraction builds on.

`Answer: x` lines and "the answer is x" phrases (also in French, Spanish, German and Chinese),
the value a statement states (`from_prose`: trimmed of trailing prose, a hedge or a negation
marked), numbers and math spans (`$...$`, `\\(...\\)`, `\\[...\\]`), and whether a text is
one short line of mathematics. Every scan is linear in the text's length: a policy writes the
text, and it is read before the grader's per-answer deadline starts.
"""

from __future__ import annotations

import itertools
import re

from rlvr.graders.math.hedge import PROSE_HEDGE_RE, REFUSAL_RE

_LABELS = r"(?:answer|ответ|答え|答|정답|उत्तर|الإجابة|الجواب|คำตอบ|cevap|jawaban|trả lời)"
_ANSWER_LINE_RE = re.compile(
    r"(?:^[ \t>*#_-]*(?:final[ \t]+)?|(?<=[.!?$:,])[ \t]+\**final[ \t]+)"
    + _LABELS
    + r"[ \t]*(?:\*+[ \t]*)?[:：][ \t]*",  # one way to split the spaces: linear
    re.MULTILINE | re.IGNORECASE,
)
_ANSWER_IS_RE = re.compile(  # keyword first (no optional prefix), so the scan stays fast
    r"(?:answer|option|choice)[ \t]+is\b[ \t]*:?[ \t]*"
    r"|r[ée]ponse(?:[ \t]+finale)?[ \t]+(?:est\b|:)[ \t]*:?[ \t]*"
    r"|respuesta(?:[ \t]+final)?[ \t]+es\b[ \t]*:?[ \t]*"
    r"|antwort[ \t]+(?:ist|lautet)\b[ \t]*:?[ \t]*"
    r"|答案(?:是|为)?】?[ \t]*[：:]?[ \t]*"
    r"|(?:故|所以|应)选[ \t]*[：:]?[ \t]*",
    re.IGNORECASE,
)
NUMBER_RE = re.compile(
    r"(?<![A-Za-z0-9_.^])-?(?:\d+,\d{1,2}(?![\d,])|(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)"
    r"(?:[ \t]*/[ \t]*\d+)?"
)
SPAN_RE = re.compile(  # a span never runs past another opener of its kind: linear time
    r"\$\$(.+?)\$\$|\\\[((?:(?!\\\[).)+?)\\\]|\\\(((?:(?!\\\().)+?)\\\)"
    r"|(?<![\\$])\$((?:[^$\n\\]|\\.)+?)\$",
    re.DOTALL,
)
_COMMAND_RE = re.compile(r"\\(?:begin|end)\s*\{[a-zA-Z*]+\}|\\[a-zA-Z]+")
_WORD_RE = re.compile(r"[A-Za-z]+")
_LONE_WORDS = frozenset(
    "or and pi sin cos tan cot sec csc log ln exp sqrt inf oo".split()  # noqa: SIM905
)

_PROSE_END_RE = re.compile(
    r"\.\s+(?=[A-Z(\[])|\bI hope\b|(?<!\s)\s+\((?:Note|Check)|\n|[。！？．]", re.IGNORECASE
)
_LEAD_RE = re.compile(
    r"^(?:the[ \t]+(?:final[ \t]+)?answer[ \t]+is[ \t]*:?|is[ \t]*:?)[ \t]*", re.I
)
JOIN_DENY_RE = re.compile(
    r"\b(?:or|maybe|perhaps|possibly|alternatively|either|wait|actually|instead|but|however|"
    r"hmm|no|not|wrong|incorrect|mistake|check|recheck|guess|probably|likely|might|could|"
    r"then|else|otherwise|if|ou|oder|o|或)\b|[?]",
    re.IGNORECASE,
)

_SCRIPT_RE = re.compile(  # prose in a non-Latin script is never a lone answer
    "[\u0400-\u04ff\u0600-\u06ff\u0900-\u097f\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
)

_CJK_TAIL_RE = re.compile(r"(?<=[\d$}])[ \t]*[\u3400-\u9fff]{1,3}$")  # 5个, 18 元, 18 美元
SCALE_WORD_RE = re.compile(
    r"[ \t]+(?:(?:ten|hundred|thousand|million|billion|trillion|dozen)s?|squared|cubed)\b", re.I
)

LONE_MAX_CHARS = 200
STATEMENT_CHARS = 1200  # of a statement's line: an answer is never longer
MAX_STATEMENTS = 64  # of full length, read back from the last: more hedged ones state nothing


def strip_wrapping(answer: str) -> str:
    answer = re.sub(r"^\*\*|\*\*$", "", answer.strip()).strip().rstrip(".").strip()
    answer = re.sub(r'^(?:\\?["“])(.*?)(?:\\?["”])$', r"\1", answer).strip()
    if answer.startswith("$") and answer.endswith("$") and len(answer) > 1:
        answer = answer.strip("$").strip()
    return answer


def read_aside(text: str) -> tuple[str, bool] | None:
    """(the value, whether the aside offers another) when a value is followed by an aside in
    brackets: "42 (6 × 7)", "$42$ ($6 \\times 7$)", "1/2 (0.5)" and "(1, 2) (the point)" are
    their value; "42 (or 41)", "42 (41?)", "42 (approximately 41)" offer another. None: no aside."""
    m = _ASIDE_RE.fullmatch(text.strip())
    if m is None:
        return None
    value, aside = m.groups()
    other = _OTHER_VALUE_RE.fullmatch(aside)
    offers = _ALTERNATIVE_RE.search(aside) is not None or (
        other is not None and not _restates(value, other.group(1))
    )
    return value, offers


def drop_aside(text: str) -> str:
    """The value of "value (aside)" when the aside offers no other value, else the text."""
    read = read_aside(text)
    return read[0] if read is not None and not read[1] else text


def _restates(value: str, shown: str) -> bool:
    """ "1/2 (0.5)", "1/3 (0.333...)", "$2^3$ (8)": the aside is the value, to its digits."""
    try:
        bare = value.strip("$ ").replace("\\%", "%").rstrip("%").replace(",", "")
        base, _, power = bare.partition("^")
        num, _, den = base.partition("/")
        exact = float(num) / float(den or 1)
        exact = exact ** float(power.strip("{}")) if power else exact
        digits = len(shown.split(".")[1].rstrip(".")) if "." in shown.rstrip(".") else 0
        return abs(exact - float(shown.rstrip(".").replace(",", ""))) <= 0.5 * 10.0**-digits
    except (ValueError, ZeroDivisionError, OverflowError):
        return False


def from_prose(text: str) -> str:
    """The answer inside a final-answer sentence: "The largest $n$ is 34. I hope..." -> 34."""
    text = _LEAD_RE.sub("", text.strip())
    cut = _PROSE_END_RE.search(text)
    if cut is not None and cut.start() > 0:
        text = text[: cut.start()]
    text = strip_wrapping(text.strip().rstrip(".,;:!．。"))
    text = _CJK_TAIL_RE.sub("", text).strip()
    if (aside := read_aside(text)) is not None:
        return HEDGED if aside[1] else aside[0]  # "42 (6 × 7)" is 42, not 42 times 42
    if PROSE_HEDGE_RE.search(text) or _RANGE_RE.match(text):
        return HEDGED  # "at least 3", "18 or maybe 20", "up to 42", "42 or more": not one value
    if REFUSAL_RE.search(text):
        return NEGATED  # "I am not sure, 0 idea" states no answer
    if is_lone_answer(_SPAN_DELIMS_RE.sub(" ", text).strip()) or not text:
        return text
    if _NEGATION_RE.match(text):
        but = re.search(r"[ \t,]+but[ \t]+(?:it[ \t]+is[ \t]+|is[ \t]+)?", text)
        return from_prose(text[but.end() :]) if but else NEGATED  # "not 3 but 2" states 2
    lead = SPAN_RE.match(text) or NUMBER_RE.match(text)
    scale = SCALE_WORD_RE.match(text, lead.end()) if lead is not None else None
    if scale is not None:
        return text[: scale.end()]  # "5 million" is not 5
    if lead is not None and (after := _after_value(text, lead)) is not None:
        return after
    if lead is not None and not _JOINER_RE.fullmatch(text[lead.end() :]):
        return span_text(lead) if lead.re is SPAN_RE else lead.group(0).replace(" ", "")
    if lead is None and (lead_in := _LEAD_IN_RE.match(text)) is not None:
        return from_prose(text[lead_in.end() :])  # "x = 41, not 42", "a total of 42 apples"
    return _later_value(text, lead is None)


def _later_value(text: str, unled: bool) -> str:
    """A statement's value when no value leads it: its math spans, else its last number."""
    text = DENIED_VALUE_RE.sub(" ", text)  # "forty-one, not 42" offers no 42
    if unled and _ALTERNATIVE_RE.search(text):
        return HEDGED  # "forty-two or 41"
    spans = list(SPAN_RE.finditer(text))
    if spans:
        between = [text[a.end() : b.start()] for a, b in itertools.pairwise(spans)]
        if (
            len(spans) > 1
            and spans[0].start() == 0
            and all(_JOINER_RE.fullmatch(g) for g in between)
        ):
            return _SPAN_DELIMS_RE.sub(" ", text[: spans[-1].end()]).strip()
        last = spans[-1]
        number = last_match(NUMBER_RE, text)
        if number is None or number.start() < last.end():
            return span_text(last)
        return number.group(0).replace(" ", "")
    number = last_match(NUMBER_RE, text)
    return number.group(0).replace(" ", "") if number else text


_SPAN_DELIMS_RE = re.compile(r"\$|\\\(|\\\)|\\\[|\\\]")
NEGATED = "\x00not"
HEDGED = "\x00hedged"
_NEGATION_RE = re.compile(r"(?:not|never|no longer)\b", re.IGNORECASE)
_VALUE = (
    r"(?:\$|\\[(\[]|\*\*|-?\d|(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|"
    r"fifty|sixty|seventy|eighty|ninety|hundred)\b)"
)
DENIED_VALUE_RE = re.compile(  # "not 41", "not 41 or 43": values set aside, not offered
    r"\b(?:not|never)[ \t]+\$?-?\d[\d.,/]*\$?(?:[ \t]*(?:,|or|nor|and)[ \t]*\$?-?\d[\d.,/]*\$?)*",
    re.IGNORECASE,
)
_SEPARATOR = r"(?:[^\w$\\*-]|_|-(?!\d)|\*(?!\*)|\\(?![(\[]))"  # stops where a value may start
_ALTERNATIVE_RE = re.compile(  # a second value offered: "or 41", "no, it's 41", "could be 41"
    r"(?:\b(?:or|no|nope|wait|maybe|perhaps|possibly|could|might|rather|actually|wrong|"
    r"instead|oops|alternatively|alternately|although|though|unless|vs|versus|otherwise|else|"
    r"oder|bzw|nein|ou|o|или|либо|eller|lub|veya|atau|hoặc)\b|\?|？"
    r"|或|还是|または|또는|या|أو|หรือ)"
    + _SEPARATOR
    + r"{0,8}+(?:[^\W\d_]++(?:['’][^\W\d_]++)?"
    + _SEPARATOR
    + r"{1,8}+){0,2}?"  # short separators and words, each read one way: linear on any run
    + _VALUE,
    re.IGNORECASE,
)
_CHAIN_RE = re.compile(  # "× 7 = 42": an arithmetic chain from the first value to `=`
    r"\s*(?:[-+*/×·÷^]|x(?=[ \t]*\d)|\\times|\\cdot|\\div)"
    r"(?:[\s\d.,+\-*/×·÷^()]|x(?=[ \t]*\d)|\\times|\\cdot|\\div)*="
)
_SPACES_RE = re.compile(r"\s*")
_ASIDE_RE = re.compile(
    r"(\$[^$\n]+\$|[(\[]-?[\d.]+[ \t]*,[ \t]*-?[\d.]+[)\]]"
    r"|-?\d[\d,]*(?:\.\d+)?(?:[ \t]*/[ \t]*\d+|\^\{?\d+\}?)?(?:\\?%)?)"
    r"(?:[ \t]+[A-Za-z]+){0,2}[ \t]+([(\[][^()\[\]\n]*[)\]])[ \t]*\.?"
)
_OTHER_VALUE_RE = re.compile(  # "(41)", "(41?)", "(approximately 41)", "(41-43)", "(±1)"
    r"[(\[][ \t]*(?:(?:approximately|about|around|roughly|~|≈)[ \t]*)?"
    r"((?:±|\+/-)?[ \t]*-?\d[\d.,]*)"
    r"(?:[ \t]*(?:-|–|to)[ \t]*-?\d[\d.,]*)?[ \t]*(?:\?|(?:is[ \t]+)?also[ \t]+\w+|actually)?"
    r"[ \t]*[)\]]",
    re.IGNORECASE,
)
_RANGE_RE = re.compile(  # "up to 42", "42 or more", "42 to 43": a range, not one value
    r"(?:up[ \t]+to|between|over|under|anywhere[ \t]+from|a[ \t]+(?:minimum|maximum)[ \t]+of|"
    r"as[ \t]+many[ \t]+as)\b|[^\s,;]+[ \t]+(?:or[ \t]+(?:more|fewer|less|greater|above|below|"
    r"higher|lower)\b|and[ \t]+up\b|to[ \t]+-?\d)",
    re.IGNORECASE,
)
_TIMES_X_RE = re.compile(r"(?<=\d)[ \t]*x[ \t]*(?=\d)")
_LEAD_IN_RE = re.compile(  # words before a statement's value that state nothing themselves
    r"(?:[A-Za-z](?:_\{?\w+\}?)?[ \t]*=|(?:a[ \t]+total[ \t]+of|exactly|precisely|just|"
    r"simply|therefore|thus|then|so|equal[ \t]+to)\b,?)[ \t]*(?=[$\d-])",
    re.IGNORECASE,
)
_VERDICT_RE = re.compile(  # "I believe this answer is correct": a judgement, not a value
    r"(?:(?:definitely|indeed|probably|likely|now|therefore|thus|also)[ \t]+)?(?:correct|right|"
    r"helpful|clear|reasonable|valid|verified|confirmed|consistent|plausible|sound|accurate|"
    r"complete|above|below|as follows|shown above|given above)",
    re.IGNORECASE,
)
_RETRACTED_RE = re.compile(r"\b(?:wrong|incorrect|mistaken|not (?:right|correct))\b", re.I)
_JOINER_RE = re.compile(r"[\s,;]*(?:and|or)?[\s,;]*")


def _after_value(text: str, lead: re.Match[str]) -> str | None:
    """What the words after a statement's first value make of it: the chain it heads (the
    grader checks every link), HEDGED when they offer another value, or None (it stands)."""
    rest = text[lead.end() :]
    chain = _CHAIN_RE.match(rest)
    after = _SPACES_RE.match(rest, chain.end()).end() if chain is not None else 0
    if chain is not None and (end := NUMBER_RE.match(rest, after)) is not None:
        chain = text[lead.start() : lead.end() + end.end()].strip()  # "6 × 7 = 42 pencils"
        return _TIMES_X_RE.sub(" × ", chain)  # "6 x 7 = 42": x is the sign, not a variable
    offered = DENIED_VALUE_RE.sub(" ", rest)
    retracted = _RETRACTED_RE.search(offered)  # "42, but that is wrong; the real count is 41"
    later = retracted is not None and re.search(_VALUE, offered[retracted.end() :]) is not None
    if later or _ALTERNATIVE_RE.search(offered):
        return HEDGED  # "42 or 41 apples", "42, but it could be 41", "42? No, 41"
    return None


def span_text(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g is not None).strip()


def last_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    return next(reversed(list(pattern.finditer(text))), None)


def answer_lines(text: str) -> list[tuple[int, str]]:
    """The last final-answer statement and, if that one is negated or hedged, the last stating
    a value before it (only these decide). Each statement is read lazily from the end, at most
    STATEMENT_CHARS of its line and at most MAX_STATEMENTS of them: linear in the text."""
    starts = [(m.start(), m.end()) for m in _ANSWER_LINE_RE.finditer(text)]
    starts += [(m.start(), m.end()) for m in _ANSWER_IS_RE.finditer(text)]
    out: list[tuple[int, str]] = []
    budget = MAX_STATEMENTS * STATEMENT_CHARS  # empty statements cost little: they cannot
    for start, end in sorted(starts, reverse=True):  # use up the reading of the real one
        line_end = text.find("\n", end, end + STATEMENT_CHARS)
        statement = text[end : line_end if line_end >= 0 else end + STATEMENT_CHARS]
        budget -= len(statement) + 16
        if budget < 0:
            break
        answer = from_prose(statement)
        if _VERDICT_RE.fullmatch(answer):
            continue
        if answer and (not out or answer not in (NEGATED, HEDGED)):
            out.insert(0, (start, answer))
            if answer not in (NEGATED, HEDGED):
                break
    return out


def is_lone_answer(text: str) -> bool:
    """A single short line of mathematics, such as `x = 2` or `\\frac{1}{2}`."""
    if len(text) > LONE_MAX_CHARS or "\n" in text or not text or _SCRIPT_RE.search(text):
        return False
    if not re.search(r"[\d\\]", text) and len(text) > 1:
        return False
    bare = _COMMAND_RE.sub(" ", text)
    return all(len(w) == 1 or w.lower() in _LONE_WORDS for w in _WORD_RE.findall(bare))
