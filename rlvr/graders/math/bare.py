"""The expression a last number belongs to, when a completion writes mathematics outside `$...$`.

The last-number fallback must not read the 2 out of `AB = \\sqrt{2}`, the 10 out of `2^{10}`,
the 3 out of `27 \\text{ cm}^{3}` or the 5 out of `n = 5k`: each of these passed for a gold
equal to the piece. So the number is widened to the run of mathematics around it (no prose
word, no `=`: `x = y + 5` is read from `y + 5`) and the run is graded whole; a run that does
not parse is a reject, never its last piece.
"""

from __future__ import annotations

import re

# no `:` (`1:15` is a time, not 1/15) and no `=`; `<`, `>`, `≠`, `≥`, `≤` keep a relation whole
_MATH_CHARS = frozenset("0123456789{}^_+-*/()[]|!'<>√∛∜π∞.×÷·≠≥≤")
_SPACE_AFTER = frozenset("+-*/^_<>|×÷·≠≥≤")  # an operator on the left joins across a space
_SPACE_BEFORE = frozenset("+-*/^_<>|\\√π×÷·≠≥≤")  # an operator or a command on the right joins
_UNIT_LETTERS = frozenset("msgLh")  # `5m`, `30g`, `2L`, `1990s`: a unit, not a variable
_PLAIN_DASHED_RE = re.compile(r"[\d.,]+(?:\s*--?\s*[\d.,]+)+")  # 3-5, 3 - 2, 2023-05-10, 7 -- 2
_TAG_RE = re.compile(r"</[A-Za-z]+>?|<[A-Za-z]+>")  # `<answer>5`, `<b>12</b`; not `0<x<5`
# commands that end a value on its right: spacing, arrows, checks (`5 \quad \text{(check)}`);
# not `\text` or `\mathrm`, which change the value (`5 \text{ million}`, `3\mathrm{i}`)
_STOP_COMMANDS = frozenset(
    re.findall(r"\w+", "quad qquad Rightarrow rightarrow Longrightarrow longrightarrow implies "
               "iff to therefore because checkmark hspace hfill")
)  # fmt: skip
_ARROW_RE = re.compile(r"-+>|=+>")
_HALF_BEFORE_RE = re.compile(r"(?:[-=]|<[A-Za-z]+)[ \t]*$")  # `-`, `=`, `<answer` before a `>`
SIGN_BEFORE = (  # what a minus after it is the sign of: a relation, `(`, a stating word
    r"(?:[=(≈≅~→⇒]|\\approx|"
    r"\b(?:is|are|was|were|be|equals?|gives?|gets?|got|makes?|becomes?|to|of))[ \t]*"
)
_SIGN_BEFORE_RE = re.compile(SIGN_BEFORE + "$", re.IGNORECASE)
_LATEX_WORD_RE = re.compile(r"\\[A-Za-z]+(?:_\{?\w+\}?|\^\{?\w+\}?)?")
_BOX_RE = re.compile(r"\\(?:boxed|fbox)(?![a-zA-Z])")
_TRAIL = " \t.,;:?+-*/=<>"
_THOUSANDS_RE = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?")


def expression_around(text: str, start: int, end: int) -> tuple[str, int] | None:
    """(the run of mathematics holding text[start:end] (a number), where the run ends in
    `text`: a `%` or a scale word may follow), or None when the number stands alone (a range,
    a date, a box cut off). An unbalanced run is returned as it is: it is a piece of a
    bracket, a set or a function's arguments, and it is rejected, not read as its number."""
    left, right = _left(text, start), _right(text, end)
    number = text[start:end]
    if _THOUSANDS_RE.fullmatch(number):
        number = number.replace(",", "")  # `1,000.99m` is not the list 1, 000.99m
    run = _lead_stripped((text[left:start] + number + text[end:right]).rstrip(_TRAIL), text[:left])
    while run[:1] in ("(", "[", "{") and _unbalanced(run):
        run = run[1:].lstrip()  # `[45 degrees]`: a bracket opened before the number, closed later
    if run == number or not run or _PLAIN_DASHED_RE.fullmatch(run) or _TAG_RE.search(run):
        return None  # a range, a score, a date or a dash between plain numbers: the number
    if _BOX_RE.search(run):
        return None  # "cut off \\boxed{12": an unclosed box, the number alone
    if _unbalanced(run):
        return run, right  # a piece of `\\min(41, 42)`, `[0, 5]`: not a value, rejected
    return run, len(text[:right].rstrip(_TRAIL))


def _unbalanced(run: str) -> bool:
    return (
        any(run.count(a) != run.count(b) for a, b in ("{}", "()", "[]")) or run.count("|") % 2 == 1
    )


def _lead_stripped(run: str, before: str) -> str:
    """The run without the markup and arrows in front of its value (`**12`, `-> 12`, `=> 12`,
    a `- 12` bullet, `Total - 12`); a sign or a relation stays (`x = - 1/2` and `is - 2^{10}`
    are negative, `is <= 5` is a bound, not 5)."""
    line = before.rsplit("\n", 1)[-1]
    signed = _SIGN_BEFORE_RE.search(line) is not None  # `x = - 5`, `is - 2^{10}`: a sign
    quoted = not line.strip(" \t*") or _HALF_BEFORE_RE.search(line) is not None
    while True:
        head = run.lstrip(" \t*:")
        arrow = _ARROW_RE.match(head)
        if arrow:
            head = head[arrow.end() :]
        elif head.startswith(">") and quoted:
            head = head[1:]  # a `> 12` quote, or the rest of `->`, `=>` or `<answer>` (its first
            # half ended the left scan); elsewhere `>12` is a bound
        elif head.startswith("-") and not signed and (head[1:2].isspace() or head == "-"):
            head = head[1:]  # a `- 12` bullet, or a dash after a label: `Total apples - 12`
        if head == run:
            return run
        run, quoted = head, False


def _is_word_at(text: str, i: int) -> bool:
    """Whether the letters around text[i] form a prose word: two or more letters that no
    backslash starts (`cm`, `apples`), not a variable (`x`, `k`) or a command (`\\pi`)."""
    a = b = i
    while a > 0 and text[a - 1].isalpha() and text[a - 1].isascii():
        a -= 1
    while b < len(text) and text[b].isalpha() and text[b].isascii():
        b += 1
    return b - a >= 2 and not (a > 0 and text[a - 1] == "\\")


def _right(text: str, i: int) -> int:
    depth = 0
    while i < len(text) and text[i] != "\n":
        c = text[i]
        if depth > 0:
            depth += {"{": 1, "}": -1}.get(c, 0)
        elif c == "{":
            depth = 1
        elif c == "\\" and i + 1 < len(text) and text[i + 1].isalpha():
            k = i + 1
            while k < len(text) and text[k].isalpha():
                k += 1
            if text[i + 1 : k] in _STOP_COMMANDS:
                break
            i = k
            continue
        elif c.isalpha() and c.isascii():
            if _is_word_at(text, i) or text[i + 1 : i + 2] in ("²", "³") or _is_unit(text, i):
                break  # a word, or a unit: `1,000.99m²`, `5m`
        elif c in " \t":
            j = _space_right(text, i)
            if j is None:
                break
            i = j
            continue
        elif _ends_right(text, i, c):
            break
        i += 1
    return i


def _space_right(text: str, i: int) -> int | None:
    """Past the spaces at text[i] when they join two parts (`x^2 + 1`, `3 \\sqrt{2}`)."""
    j = i
    while j < len(text) and text[j] in " \t":
        j += 1
    joins = text[i - 1] in _SPACE_AFTER or (j < len(text) and text[j] in _SPACE_BEFORE)
    return j if joins and j < len(text) else None


def _ends_right(text: str, i: int, c: str) -> bool:
    if c == ".":
        return not (i + 1 < len(text) and text[i + 1].isdigit())  # 0.5 goes on, `1.` ends
    if c == "'":
        return not text[i - 1 : i].isalpha()  # `f'` is a prime; `'12'` and `12'` are not
    return (c == "!" and _exclaims(text, i)) or c not in _MATH_CHARS


def _is_unit(text: str, i: int) -> bool:
    """`5m`, `30g`, `1990s`: a unit letter right after a digit, nothing mathematical after."""
    after = text[i + 1 : i + 2]
    return (
        text[i] in _UNIT_LETTERS
        and text[i - 1 : i].isdigit()
        and not (after and (after.isalnum() or after in "^_{("))
    )


def _exclaims(text: str, i: int) -> bool:
    """`42!` at the end of a sentence is an exclamation; `3! ways` is a factorial."""
    j = i + 1
    while j < len(text) and text[j] in " \t":
        j += 1
    return j == len(text) or text[j] == "\n" or text[j].isupper() or text[j] in "!?"


def _left(text: str, i: int) -> int:
    depth = 0
    while i > 0 and text[i - 1] != "\n":
        c = text[i - 1]
        if depth > 0:
            depth += {"}": 1, "{": -1}.get(c, 0)
        elif c == "}":
            depth = 1
        elif c.isalpha() and c.isascii():
            k = i - 1
            while k > 0 and text[k - 1].isalpha():
                k -= 1
            if k > 0 and text[k - 1] == "\\":
                i = k - 1  # a command: `\sqrt`, `\pi`
                continue
            if i - 1 - k >= 1:
                break  # a prose word
        elif c in " \t":
            j = _space_left(text, i)
            if j is None:
                break
            i = j
            continue
        elif c == "=" and text[i - 2 : i - 1] in ("!", "<", ">") and text[i - 2 : i - 1]:
            i -= 2  # `x != 3`, `x <= 5`: a relation, read whole
            continue
        elif _ends_left(text, i, c):
            break
        i -= 1
    return i


def _ends_left(text: str, i: int, c: str) -> bool:
    """Whether text[i - 1] (`c`) ends the run on its left: `=`, prose, a sentence's full stop,
    a quote mark (`'12'`; a prime follows a letter: `f'`)."""
    if c == "'":
        return not text[i - 2 : i - 1].isalpha()
    return c == "=" or c not in _MATH_CHARS or (c == "." and not text[i - 2 : i - 1].isdigit())


def _space_left(text: str, i: int) -> int | None:
    """Before the spaces that end at text[i] when they join two parts (`y + 5`, `\\log_2 4`)."""
    j = i - 1
    while j > 0 and text[j - 1] in " \t":
        j -= 1
    head = text[:j].rsplit(None, 1)[-1] if text[:j].strip() else ""
    joins = text[i] in _SPACE_BEFORE or (j > 0 and text[j - 1] in _SPACE_AFTER)
    joins = joins or text[j - 2 : j] in ("!=", "<=", ">=")  # `x != 3`: a relation
    return j if (joins or _LATEX_WORD_RE.fullmatch(head)) and j > 0 else None
