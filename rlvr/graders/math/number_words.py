"""English numerals as numbers (`forty-two` -> 42), and only numerals.

A model may write its answer in words. Reading every number word and adding them up would read
`thirty two twenty three` (the operands of 32 + 23) as 55, so the words must form one numeral:
units, teens and tens, hundreds, then thousand and million in falling order.
"""

from __future__ import annotations

import re

_SMALL = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
_SMALL += "fifteen sixteen seventeen eighteen nineteen"
_SMALL_WORDS = {w: i for i, w in enumerate(_SMALL.split())}
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety"
_TENS_WORDS = {w: 10 * (i + 2) for i, w in enumerate(_TENS.split())}
_SCALES = {"thousand": 1000, "million": 10**6}
_WORDS_ONLY_RE = re.compile(r"(?:minus |negative )?[a-z]+(?:[ -](?:and )?[a-z]+)*")


def _below_hundred(words: list[str], i: int) -> tuple[int, int] | None:
    """`seven`, `seventeen`, `seventy`, `seventy-seven` at `words[i]`: (value, next index)."""
    word = words[i] if i < len(words) else ""
    if word in _SMALL_WORDS:
        return _SMALL_WORDS[word], i + 1
    if word not in _TENS_WORDS:
        return None
    unit = words[i + 1] if i + 1 < len(words) else ""
    if 1 <= _SMALL_WORDS.get(unit, 0) <= 9:
        return _TENS_WORDS[word] + _SMALL_WORDS[unit], i + 2
    return _TENS_WORDS[word], i + 1


def _below_thousand(words: list[str], i: int) -> tuple[int, int] | None:
    """`five`, `five hundred`, `five hundred and five`, `fifteen hundred`: (value, next)."""
    head = _below_hundred(words, i)
    if head is None or head[0] == 0:
        return None
    value, i = head
    if i == len(words) or words[i] != "hundred":
        return value, i
    value, i = value * 100, i + 1
    j = i + 1 if i < len(words) and words[i] == "and" else i
    tail = _below_hundred(words, j)
    if tail is not None and tail[0] > 0:
        return value + tail[0], tail[1]
    return (value, i) if j == i else None  # `and` must lead somewhere


def words_value(words: list[str]) -> int | None:
    """The number an English numeral names (`forty two`, `two thousand and five`), or None when
    the words are not one numeral: `thirty two twenty three` is two numbers, not 55."""
    if words == ["zero"]:
        return 0
    total, i, above = 0, 0, 10**9  # `above`: the last scale used; the next must be smaller
    while i < len(words):
        if words[i] == "and" and i > 0 and words[i - 1] in _SCALES:
            i += 1  # `one thousand and five`
        group = _below_thousand(words, i)
        if group is None:
            return None
        value, i = group
        scale = _SCALES.get(words[i], 0) if i < len(words) else 0
        if not scale:  # the last group: nothing may follow it
            return total + value if i == len(words) and value < min(above, 10**4) else None
        if scale >= above or value >= 1000:
            return None
        total, above, i = total + value * scale, scale, i + 1
    return total


def number_words(text: str) -> str:
    """`forty-two` -> `42`, `one hundred and five` -> `105`, when the whole answer is one
    English numeral (and nothing else)."""
    low = text.strip().lower()
    if not _WORDS_ONLY_RE.fullmatch(low):
        return text
    sign = "-" if low.startswith(("minus ", "negative ")) else ""
    words = re.split(r"[ -]+", low)[1 if sign else 0 :]
    value = words_value(words)
    return text if value is None else f"{sign}{value}"
