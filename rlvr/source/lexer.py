"""A small lexer for Python, JavaScript, Go and Rust source: enough to find literals and
operators without touching strings or comments. Any other stack's source goes through it as
"text", a generic C-family reading: `//` and `/* */` comments, a `#` line (a preprocessor line
or a shell comment), and strings in `"`, `'` or backticks.

The audits need two things from source text in any stack: the literals an answer contains
(hard-coded test data) and the operators a mutant may change. Full parsers exist only for
Python, so the other stacks go through this lexer. It never raises: unterminated strings and
comments run to the end of the text.

    >>> [t.text for t in tokens('x = "a<b" // c < d', "javascript") if t.kind != "space"]
    ['x', '=', '"a<b"', '// c < d']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["ident", "number", "string", "op", "comment", "space"]
Language = Literal["python", "javascript", "go", "rust", "text"]

_NUMBER = re.compile(
    r"0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|"
    r"(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?"
)
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_SPACE = re.compile(r"\s+")
_OPS = sorted(
    (  # noqa: SIM905  (one string reads better than 60 quoted operators)
        "=== !== **= //= >>= <<= ... ..= :: -> => == != <= >= && || ++ -- += -= *= /= %= &= |= "
        "^= ** // << >> := <- ?. ?? + - * / % < > = ! & | ^ ~ ? : ; , . ( ) [ ] { } @ # \\"
    ).split(),
    key=len,
    reverse=True,
)
REGEX_AFTER = {"return", "typeof", "case", "in", "of", "delete", "void", "throw", "new", "yield"}
_PY_PREFIX = re.compile(r"(?i)(?:rb|br|fr|rf|r|b|f|u)?(?='|\")")
_RUST_RAW = re.compile(r'b?r(#*)"')


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its kind, its text and where it starts in the source."""

    kind: Kind
    text: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def _quoted(src: str, i: int, quote: str, escapes: bool = True) -> int:
    """End index (exclusive) of a string opened by `quote` at i."""
    j = i + len(quote)
    while j < len(src):
        if escapes and src[j] == "\\":
            j += 2
            continue
        if src.startswith(quote, j):
            return j + len(quote)
        if len(quote) == 1 and quote != "`" and src[j] == "\n":
            return j
        j += 1
    return len(src)


def _python_string(src: str, i: int) -> int | None:
    m = _PY_PREFIX.match(src, i)
    if m is None:
        return None
    j = m.end()
    quote = src[j : j + 3] if src[j : j + 3] in ('"""', "'''") else src[j]
    return _quoted(src, j, quote, escapes="r" not in m.group(0).lower())


def _rust_char_end(src: str, i: int) -> int | None:
    """A Rust char literal at i ('a', '\\n', '\\u{1F600}'), or None for a lifetime."""
    m = re.compile(r"'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])'").match(src, i)
    return m.end() if m else None


def _string_end(src: str, i: int, lang: Language) -> int | None:
    """End of a string literal starting at i, or None when none starts there."""
    c = src[i]
    if lang == "python":
        return _python_string(src, i) if c in "'\"rRbBfFuU" else None
    if lang == "rust":
        m = _RUST_RAW.match(src, i)
        if m:
            return _quoted(src, m.end() - 1, '"' + m.group(1), escapes=False)
        if c == "b" and src[i + 1 : i + 2] in ("'", '"'):
            return _string_end(src, i + 1, lang)
        if c == "'":
            return _rust_char_end(src, i)
        return _quoted(src, i, '"') if c == '"' else None
    if c == "`":
        return _quoted(src, i, "`", escapes=lang == "javascript")
    if c in "'\"":
        return _quoted(src, i, c)
    return None


def _line_start_hash(src: str, i: int) -> bool:
    """A `#` with only whitespace before it on its line."""
    return src[i] == "#" and not src[src.rfind("\n", 0, i) + 1 : i].strip()


def _comment_end(src: str, i: int, lang: Language) -> int | None:
    if lang == "python":
        if src[i] == "#":
            j = src.find("\n", i)
            return len(src) if j < 0 else j
        return None
    if src.startswith("//", i) or (lang == "text" and _line_start_hash(src, i)):
        j = src.find("\n", i)
        return len(src) if j < 0 else j
    if src.startswith("/*", i):
        j = src.find("*/", i + 2)
        return len(src) if j < 0 else j + 2
    return None


def _regex_end(src: str, i: int, prev: Token | None) -> int | None:
    """End of a JavaScript regex literal at i (`/[^a-z]/g`), told from division by what precedes."""
    if src[i] != "/" or src.startswith(("//", "/*"), i):
        return None
    if prev is not None and (prev.kind in ("number", "string") or prev.text in (")", "]", "}")):
        return None
    if prev is not None and prev.kind == "ident" and prev.text not in REGEX_AFTER:
        return None
    j, in_class = i + 1, False
    while j < len(src) and src[j] != "\n":
        c = src[j]
        if c == "\\":
            j += 2
            continue
        in_class = (in_class or c == "[") and c != "]"
        if c == "/" and not in_class:
            m = re.compile(r"[a-z]*").match(src, j + 1)
            return m.end() if m else j + 1
        j += 1
    return None


def tokens(src: str, lang: Language) -> list[Token]:
    """Every token of `src`, whitespace included, so that their texts join back to `src`."""
    out: list[Token] = []
    prev: Token | None = None
    i = 0
    while i < len(src):
        end = _comment_end(src, i, lang)
        kind: Kind = "comment"
        if end is None:
            end, kind = _string_end(src, i, lang), "string"
        if end is None and lang == "javascript":
            end = _regex_end(src, i, prev)
        if end is None:
            for name, rx in (("space", _SPACE), ("number", _NUMBER), ("ident", _IDENT)):
                m = rx.match(src, i)
                if m and m.end() > i:
                    end, kind = m.end(), name  # type: ignore[assignment]
                    break
        if end is None:
            kind = "op"
            end = i + next((len(op) for op in _OPS if src.startswith(op, i)), 1)
        out.append(Token(kind, src[i:end], i))
        if kind not in ("space", "comment"):
            prev = out[-1]
        i = end
    return out


def code_tokens(src: str, lang: Language) -> list[Token]:
    """Tokens without whitespace and comments."""
    return [t for t in tokens(src, lang) if t.kind not in ("space", "comment")]


def string_value(text: str) -> str:
    """The contents of a string token, quotes and prefixes removed, escapes left as written."""
    m = re.match(r"^[A-Za-z]*(#*)(\"\"\"|'''|\"|'|`)", text)
    if not m:
        return text
    quote, hashes = m.group(2), m.group(1)
    body = text[m.end() :]
    closing = quote + hashes
    return body[: -len(closing)] if body.endswith(closing) else body


def number_value(text: str) -> float | int | None:
    """The value of a number token, or None when it is not a plain decimal or hex number."""
    t = text.replace("_", "")
    try:
        if t[:2].lower() in ("0x", "0b", "0o"):
            return int(t, 0)
        return int(t) if re.fullmatch(r"\d+", t) else float(t)
    except ValueError:
        return None


def strip_comments(src: str, lang: Language) -> str:
    """The source with comments blanked out (newlines kept, so line numbers stay)."""
    return "".join(
        re.sub(r"[^\n]", " ", t.text) if t.kind == "comment" else t.text for t in tokens(src, lang)
    )
