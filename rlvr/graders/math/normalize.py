"""Normalise a LaTeX or plain-text math answer into the one form the parser reads.

The rules, in order (graders/math/README.md is the reference):

- Unicode math (−, ×, ·, √, π, ∞, ±, ≤, ≥, °) becomes its LaTeX command.
- Layout is dropped: `$`, `\\(`, `\\[`, `\\displaystyle`, `\\left`, `\\right`, `\\big`, thin
  spaces (`\\,` `\\!` `\\;`), `~`.
- Text wrappers (`\\text`, `\\mathrm`, `\\mbox`, `\\textbf`, `\\operatorname`, nested `\\boxed`)
  are unwrapped; `\\dfrac` and `\\tfrac` become `\\frac`.
- Display units go: degrees (`^\\circ`), the percent sign (`10\\%` is compared as 10, never as
  0.1), the dollar sign, and trailing unit words after a number (`5 cm`, `12 apples`). Units are
  dropped, not converted.
- A repeating decimal (`0.\\overline{3}`) becomes its exact fraction.
- Thousands separators are removed when the whole answer is one grouped number (`1,000`,
  `1{,}000`, `32,\\!348`); a bare `1,2` stays a list of two numbers.

Every step is a linear scan or a regular expression without nested quantifiers, so a long
answer cannot make normalisation slow.
"""

from __future__ import annotations

import functools
import re

from rlvr.graders.math.notation import (
    ROW_SPACE_RE,
    lead_phrase,
    numbers,
    phrase,
    scaled,
    sets,
)
from rlvr.graders.math.number_words import number_words
from rlvr.graders.math.units import SINGLE_LETTER_UNITS, STOP_WORDS, canonical_unit, raw_unit

_UNICODE = {
    "−": "-",
    "–": "-",
    "—": "-",
    "×": r"\times ",
    "·": r"\cdot ",
    "⋅": r"\cdot ",
    "÷": r"\div ",
    "√": r"\sqrt ",
    "π": r"\pi ",
    "∞": r"\infty ",
    "±": r"\pm ",
    "∓": r"\mp ",
    "≤": r"\le ",
    "≥": r"\ge ",
    "≠": r"\ne ",
    "°": r"^\circ ",
    "∪": r"\cup ",
    "¢": "",
    "€": "",
    "£": "",
    "’": "'",
    "。": ".",
    "，": ",",
    "：": ":",
    "；": ";",
    "（": "(",
    "）": ")",
    "！": "!",
    "？": "?",
    "．": ".",
    "或": " or ",
    "½": r"\frac{1}{2}",
    "¼": r"\frac{1}{4}",
    "¾": r"\frac{3}{4}",
    "²": "^2",
    "³": "^3",
    "\u00a0": " ",
    "\u2009": " ",
    "\u202f": " ",
}
_UNICODE_RE = re.compile("|".join(re.escape(k) for k in _UNICODE))

_LAYOUT_RE = re.compile(
    r"\\(?:left|right)\s*\.|\\(?:displaystyle|textstyle|scriptstyle|limits|nolimits|middle"
    r"|left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|Biggl|Biggr|bigg|Bigg|big|Big|qquad|quad"
    r"|mathstrut|strut|hfill|phantom\{[^{}]*\})(?![a-zA-Z])|\\q?quad|(?<!\\)\\ |~"
)
_DOUBLE_ESCAPED_RE = re.compile(r"(?<!\\)\\\\(?=[a-zA-Z])")
_NEWLINE_ESCAPE_RE = re.compile(r"\\n(?![a-zA-Z])")
_SEPARATED_THOUSANDS_RE = re.compile(r"(\d)\s*(?:\{,\s*\}|,)\s*\\!\s*(?=\d{3}(?!\d))")
_THIN_THOUSANDS_RE = re.compile(r"(\d)\s*\\[,!]\s*(?=\d{3}(?!\d))")
_SPACED_COMMA_RE = re.compile(r"\{\s*,\s*\}")
_THIN_SPACE_RE = re.compile(r"(?<!\\)\\[,:;!]")
_DELIM_RE = re.compile(r"\\\$|\$|\\\(|\\\)|\\\[|\\\]")
_DECIMAL_COMMA_RE = re.compile(r"\{,\}(?=\d{3}(?!\d))")
_ZERO_COMMA_RE = re.compile(r"(?<![\d.])0\{,\}(?=\d)")  # `0{,}055`: no thousands start with 0

_WRAPPERS = (
    "text",
    "textrm",
    "textnormal",
    "textbf",
    "textit",
    "textsf",
    "texttt",
    "mbox",
    "hbox",
    "mathrm",
    "mathbf",
    "mathit",
    "mathsf",
    "mathtt",
    "mathnormal",
    "boldsymbol",
    "bm",
    "emph",
    "operatorname",
    "boxed",
    "fbox",
)
_WRAPPER_RE = re.compile(r"\\(" + "|".join(_WRAPPERS) + r")(?![a-zA-Z])\s*\*?\s*\{")

_RENAMES = [
    (re.compile(r"\\[dtc]frac(?![a-zA-Z])"), r"\\frac"),
    (re.compile(r"\\[dt]binom(?![a-zA-Z])"), r"\\binom"),
    (re.compile(r"\\(?:lvert|rvert|vert)(?![a-zA-Z])|\\\|"), "|"),
    (re.compile(r"\\lbrace(?![a-zA-Z])"), r"\\{"),
    (re.compile(r"\\mid(?![a-zA-Z])"), "|"),
    (re.compile(r"\\langle(?![a-zA-Z])"), "("),
    (re.compile(r"\\rangle(?![a-zA-Z])"), ")"),
    (re.compile(r"\\rbrace(?![a-zA-Z])"), r"\\}"),
    (re.compile(r"\\leqslant(?![a-zA-Z])"), r"\\le"),
    (re.compile(r"\\geqslant(?![a-zA-Z])"), r"\\ge"),
    (re.compile(r"\\mathbb\s*(?:\{\s*R\s*\}|R(?![a-zA-Z]))"), r"(-\\infty,\\infty)"),
    (re.compile(r"\\(?:dots|cdots|ldots)(?![a-zA-Z])"), r"\\ldots "),
    (re.compile(r"\\bar(?![a-zA-Z])"), r"\\overline"),
    (re.compile(r"\\[hv]space\s*\*?\s*\{[^{}]*\}"), " "),
    (re.compile(r"\{([^{}]*)\\over(?![a-zA-Z])([^{}]*)\}"), r"\\frac{\1}{\2}"),
    (re.compile(r"\\(?:angle|measuredangle|max|min)\s*(?=[a-zA-Z])"), " "),
    (re.compile(r"\\(?:vec|overrightarrow)\s*\{\s*([a-zA-Z]{1,3})\s*\}"), r"\1"),
    (re.compile(r"\\(Re|Im)(?![a-zA-Z])"), r"\1"),
    (
        re.compile(
            r",?\s*\(?\s*(?:\\text\{\s*where\s*\}\s*)?[a-z]\s*\\in\s*\\mathbb\s*\{?\s*Z\s*\}?\s*\)?\s*$"
        ),
        "",
    ),
    (re.compile(r"\^\s*\{\s*\\circ\s*\}|\^\s*\\circ(?![a-zA-Z])|\\circ(?![a-zA-Z])"), " "),
    (re.compile(r"\\degree(?![a-zA-Z])"), " "),
    (re.compile(r"\\pmod\s*\{[^{}]*\}|\\pmod\s*\w+|\(\s*\\mod\s*[^()]*\)"), " "),
]
PERCENT_RE = re.compile(r"\\%|%|\b(?:percent(?:age)?|pct)\b")

# Trailing words after a number are a unit: "5 cm", "12 apples", "3 square feet".
_UNIT_WORD_RE = re.compile(r"[A-Za-z]+(?:[/.][A-Za-z]+)?\.?(?:\^\{?[23]\}?)?")
_UNIT_HEAD_RE = re.compile(r"(?:[\d})\]|]|\\pi|\\infty)$")
_KEEP_WORDS = frozenset(
    "or and pi e i inf infty infinity oo sin cos tan cot sec csc ln log exp sqrt".split()  # noqa: SIM905
)
_GROUPED_RE = re.compile(r"([+-]?)(\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+)(\.\d+)?")
_SPACE_RE = re.compile(r"\s+")
_RUN_RE = re.compile(r"\s{2,}")  # a long run made the trailing `k \in Z` rename cubic


def _one_space(m: re.Match[str]) -> str:
    return "\n" if "\n" in m.group(0) else " "


_WORDS_RE = re.compile(r"[A-Za-z]+(?:[ ./][A-Za-z]+)*")
_ROOT_DIGITS_RE = re.compile(r"√\s*(\d+(?:\.\d+)?)")
_REPEATING_RE = re.compile(r"(\d*)\.(\d*)\\overline\s*\{\s*(\d{1,50})\s*\}")


def _repeating(m: re.Match[str]) -> str:
    """`0.1\\overline{6}` is exactly 1/6: a repeating decimal is a fraction, not a rounding."""
    whole, fixed, period = m.group(1) or "0", m.group(2), m.group(3)
    if len(whole) + len(fixed) > 50:
        return m.group(0)
    scale = 10 ** len(fixed)
    num = (int(whole) * scale + int(fixed or "0")) * (10 ** len(period) - 1) + int(period)
    return f"\\frac{{{num}}}{{{scale * (10 ** len(period) - 1)}}}"


def matching_brace(text: str, open_at: int) -> int:
    """Index of the `}` closing the `{` at `open_at`, or -1; escaped braces do not count."""
    depth = 0
    i = open_at
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _unwrap(text: str) -> str:
    """Replace `\\text{...}`-like wrappers by their content, spaced so words stay words."""
    out: list[str] = []
    pos = 0
    while True:
        m = _WRAPPER_RE.search(text, pos)
        if m is None:
            out.append(text[pos:])
            return "".join(out)
        close = matching_brace(text, m.end() - 1)
        if close < 0:
            out.append(text[pos:])
            return "".join(out)
        inner = _unwrap(text[m.end() : close])
        name = m.group(1)
        spaced = name.startswith(("text", "mbox", "hbox", "emph")) or _is_word(inner)
        out.append(text[pos : m.start()])
        out.append(f" {inner} " if spaced else f"{{{inner}}}" if name != "operatorname" else inner)
        pos = close + 1


def _is_word(inner: str) -> bool:
    """Words and units (`cm`, `m/s`) stay words; a single letter (`\\mathrm{d}`) is a symbol."""
    return _WORDS_RE.fullmatch(inner.strip()) is not None and len(inner.strip()) >= 2


def _strip_units(text: str) -> str:
    """Drop trailing unit words after a number, in each top-level comma-separated item."""
    if text.startswith("{") and matching_brace(text, 0) == len(text) - 1:
        text = text[1:-1].strip()
    if "," in text and "{" not in text and "(" not in text:
        items = [item.strip() for item in text.split(",")]
        stripped = [_strip_item_units(item) for item in items]
        return ", ".join(stripped) if stripped != items else text
    return _strip_item_units(text)


def _strip_item_units(text: str) -> str:
    return _split_units(text)[0]


def _is_unit_word(word: str) -> bool:
    if not _UNIT_WORD_RE.fullmatch(word):
        return False
    letters = word.split("^")[0].rstrip(".")
    low = letters.lower()
    return (len(letters) >= 2 or "/" in letters) and low not in _KEEP_WORDS | STOP_WORDS


_TEXT_UNIT_RE = re.compile(
    r"(?:(?<=[\d}])|(?<=\\pi))\s*\\(?:text|mathrm|mbox|textrm)\s*\{\s*([a-zA-Z]{1,5}(?:/[a-zA-Z]{1,3})?)\s*"
    r"(\^\s*\{?\s*[23]\s*\}?)?\s*\}(\s*\^\s*\{?\s*[23]\s*\}?)?"
)


def _text_unit(m: re.Match[str]) -> str:
    """`10 \\text{ m}`, `10 \\mathrm{~m}`, `\\mathrm{cm^2}` after a number: a unit, not a letter."""
    word = m.group(1)
    if word not in SINGLE_LETTER_UNITS and canonical_unit([word]) is None:
        return m.group(0)
    power = re.sub(r"[\s{}]", "", (m.group(2) or "") + (m.group(3) or ""))
    name = {"m": "meter", "s": "second", "g": "gram", "h": "hour", "l": "liter", "L": "liter"}
    return f" {name.get(word, word)}{power} "


def _split_units(text: str) -> tuple[str, list[str]]:
    words = text.split(" ")
    cut = len(words)
    while cut > 1 and _is_unit_word(words[cut - 1]):
        cut -= 1
    if cut == len(words) or not _UNIT_HEAD_RE.search(words[cut - 1]):
        return text, []
    return " ".join(words[:cut]), words[cut:]


def unit_of(text: str) -> str | None:
    """The known unit an answer states (`km`, `ft^2`, `degree`), or None."""
    bare = normalize(text, strip_units=False)
    found = raw_unit(text)
    if "," in bare:
        return found
    return canonical_unit(_split_units(bare)[1]) or found


def _strip_punctuation(text: str) -> str:
    if text.endswith(".."):
        return text
    return text.rstrip(".,;: ")


_DECIMAL_COMMA_NUMBER_RE = re.compile(r"(-?)(0|\d+(?=,\d{2}(?!\d))|\d+(?=,\d{4,}))(,)(\d+)")


def _ungroup_thousands(text: str) -> str:
    """`1,000` is 1000; a lone `0,111`, `1,22`, `1000,99` is a decimal comma (not 3 digits
    after a non-zero whole part, which is a thousands separator)."""
    d = _DECIMAL_COMMA_NUMBER_RE.fullmatch(text)
    if d is not None:
        return f"{d.group(1)}{d.group(2)}.{d.group(4)}"
    m = _GROUPED_RE.fullmatch(text)
    if m is None:
        return text
    return m.group(1) + m.group(2).replace(",", "").replace(" ", "") + (m.group(3) or "")


def has_percent(text: str) -> bool:
    """Whether the answer is written as a percentage (`10\\%`, `10 percent`)."""
    return PERCENT_RE.search(text) is not None


@functools.lru_cache(maxsize=4096)  # pure; a group's repeated answers and its gold are read once
def normalize(text: str, percent_as_fraction: bool = False, strip_units: bool = True) -> str:
    """The canonical string form of an answer (or gold) for the parser and for reports.

    The percent sign is dropped (`10\\%` is 10) unless `percent_as_fraction` (then it is 10/100).
    """
    s = _DOUBLE_ESCAPED_RE.sub(r"\\", _RUN_RE.sub(_one_space, text))
    s = ROW_SPACE_RE.sub(r"\\\\ ", s)  # `\\\\[2pt]` is a row break, not `\\[`
    s = _NEWLINE_ESCAPE_RE.sub(" ", s)
    s = _ROOT_DIGITS_RE.sub(r"\\sqrt{\1}", s)
    s = _UNICODE_RE.sub(lambda m: _UNICODE[m.group(0)], s)
    s = numbers(s)
    s = _REPEATING_RE.sub(_repeating, s)
    s = _SPACED_COMMA_RE.sub("{,}", s)
    s = _SEPARATED_THOUSANDS_RE.sub(r"\1,", s)
    s = _THIN_THOUSANDS_RE.sub(r"\1", s)
    s = _THIN_SPACE_RE.sub("", s)
    s = _LAYOUT_RE.sub(" ", s)
    s = _RUN_RE.sub(_one_space, _DELIM_RE.sub(" ", s))  # `~` and `$` became spaces again
    s = _DECIMAL_COMMA_RE.sub("", _ZERO_COMMA_RE.sub("0.", s)).replace("{,}", ".")
    s = _TEXT_UNIT_RE.sub(_text_unit, s)
    s = _unwrap(s)
    for pattern, repl in _RENAMES:
        s = pattern.sub(repl, s)
    s = sets(s)
    s = PERCENT_RE.sub(" /100 " if percent_as_fraction else " ", s)
    s = _SPACE_RE.sub(" ", s).replace(" ^", "^").strip()
    s = _strip_punctuation(s)
    s = _strip_units(s).strip() if strip_units else s
    s = _strip_punctuation(s)
    s = scaled(_ungroup_thousands(s))
    s = number_words(lead_phrase(s.rstrip("\\").strip()))
    return phrase(s)
