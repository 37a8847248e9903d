"""Multiple-choice answers: when the gold is a choice letter, read the letter the model chose.

`(C)`, `C`, `C.`, `C) 42`, `\\text{(C)}`, "the answer is C", "Answer: C" all choose C. Naming
two letters (`A or C`, `\\boxed{A}` ... `\\boxed{C}`) is rejected like any hedge. Without a box or
answer line, the last letter written as an option (`(C)` or `C.` / `C)` ending a line or
sentence) counts, when the grader may fall back on the text.
"""

from __future__ import annotations

import re

from rlvr.graders.math.extract import extract_answers
from rlvr.graders.math.normalize import normalize
from rlvr.types import Verdict

_LETTER_RE = re.compile(r"\(?([A-J])\)?")
_GOLD_OPTION_RE = re.compile(r"\(?([A-J])[.)]\s")  # `C. x = 42`: the option's letter and text
_LEADING_RE = re.compile(r"(\()?([A-J])(\)|\.|:|(?![A-Za-z0-9]))")
_OTHER_RE = re.compile(r"(?<![A-Za-z\\])\(?([A-J])\)?(?![A-Za-z])")
_IN_TEXT_RE = re.compile(r"\(([A-J])\)|(?<![A-Za-z\\])([A-J])[.)](?=\s|$)")


_MULTI_RE = re.compile(r"\(?[A-J]\)?(?:\s*(?:,|and|\s)\s*\(?[A-J]\)?){1,9}|[A-J]{2,10}")


def multi_choice(norm: str) -> str | None:
    """A multi-select answer (`ACD`, `A, C, D`, `(A) and (C)`) as its sorted letters, else None."""
    if not _MULTI_RE.fullmatch(norm.strip()):
        return None
    letters = re.findall(r"[A-J]", norm)
    return "".join(sorted(letters)) if len(set(letters)) == len(letters) else None


def choice_letter(gold: str) -> str | None:
    """The letter of a multiple-choice gold (`C`, `(C)`), else None."""
    m = _LETTER_RE.fullmatch(gold.strip()) or _GOLD_OPTION_RE.match(gold.strip())
    return m.group(1) if m else None


def _letter(candidate: str) -> str | None:
    """The letter a final answer chooses; '?' when it names several; None when none."""
    text = normalize(candidate).strip()
    m = _LEADING_RE.match(text)
    if m is None:
        return None
    rest = text[m.end() :]
    if rest.strip() and not (m.group(1) or m.group(3)) and not re.match(r"\s+[A-Za-z]", rest):
        return None  # `E + 1` is an expression, not a choice
    if any(o.group(1) != m.group(2) for o in _OTHER_RE.finditer(rest)):
        return "?"
    return m.group(2)


def _text_letter(completion: str) -> str | None:
    """The last option letter in the text; '?' when its sentence names another one too."""
    last = None
    for last in _IN_TEXT_RE.finditer(completion):  # noqa: B007
        pass
    if last is None:
        return None
    letter = last.group(1) or last.group(2)
    start = max(completion.rfind(c, 0, last.start()) for c in ".!?\n") + 1
    sentence = completion[start : last.end()]
    named = {m.group(1) or m.group(2) for m in _IN_TEXT_RE.finditer(sentence)}
    return letter if named == {letter} else "?"


def grade_choice(gold: str, completion: str, fallback: bool, gold_shown: str) -> Verdict:
    """One multiple-choice verdict; no worker needed, letters cannot hang."""
    ext = extract_answers(completion, fallback)
    explicit = ext.source in ("boxed", "gsm8k", "answer_line", "lone")
    letters = [_letter(c) for c in ext.candidates] if explicit else []
    if not letters or None in letters:
        found = _text_letter(completion) if fallback or explicit else None
        letters = [found] if found else letters
    details = {"source": ext.source, "gold_normalized": gold_shown, "path": "choice"}
    chosen = {x for x in letters if x is not None}
    if not chosen or None in letters:
        reason = "no choice letter found in the final answer (write it as (C) or \\boxed{C})"
        return Verdict.reject(reason, details=details, duration_s=0.0)
    if len(chosen) > 1 or "?" in chosen:
        return Verdict.reject("the answer names several choices; give one", details=details)
    letter = chosen.pop()
    details["extracted"] = letter
    if letter == gold:
        return Verdict.score(1.0, f"chose {letter}, the gold choice", passed=True, details=details)
    return Verdict.score(0.0, f"chose {letter}, the gold is {gold}", passed=False, details=details)
