"""Find a named function in JavaScript, Go or Rust source: its signature and its body's braces.

Trivial answers replace the entry point's body and hard-coding checks read it, so both need
to know where the body starts and ends without a parser. Braces are matched on tokens, so
braces inside strings and comments do not count.

    >>> span = function_span("function f(a) { return a; }", "javascript", "f")
    >>> span.params, span.body_open, span.body_close
    ('a', 14, 26)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rlvr.source.lexer import Language, tokens

OPENERS = {
    "javascript": (
        r"(?:function\s*\*?\s*{name}\s*\(|"
        r"\b{name}\s*[=:]\s*(?:async\s*)?(?:function\b[^(]*\(|\())"
    ),
    "go": r"\bfunc\s+(?:\([^)]*\)\s*)?{name}\s*(?:\[[^\]]*\]\s*)?\(",
    "rust": r"\bfn\s+{name}\s*(?:<[^>{{]*>)?\s*\(",
    "text": r"\b{name}\s*\(",  # any stack: the first `name(...)` followed by a braced body
}


@dataclass(frozen=True)
class FunctionSpan:
    """Where a function's parts lie in the source (offsets into it)."""

    params: str
    returns: str
    body_open: int
    body_close: int


def _code_positions(src: str, lang: Language) -> list[tuple[int, str]]:
    return [
        (t.start, t.text) for t in tokens(src, lang) if t.kind not in ("space", "comment", "string")
    ]


def function_span(src: str, lang: Language, name: str) -> FunctionSpan | None:
    """The parameters, return type text and body braces of function `name`, or None."""
    for m in re.finditer(OPENERS[lang].format(name=re.escape(name)), src):
        span = _span_at(src, lang, m)
        if span is not None or lang != "text":
            return span
    return None


def _span_at(src: str, lang: Language, m: re.Match[str]) -> FunctionSpan | None:
    toks = [(p, t) for p, t in _code_positions(src, lang) if p >= m.end() - 1]
    depth, close_paren = 0, None
    for i, (_pos, text) in enumerate(toks):
        depth += {"(": 1, ")": -1}.get(text, 0)
        if depth == 0:
            close_paren = i
            break
    if close_paren is None:
        return None
    params = src[toks[0][0] + 1 : toks[close_paren][0]]
    open_i = next((i for i in range(close_paren + 1, len(toks)) if toks[i][1] == "{"), None)
    if open_i is None:
        return None
    between = src[toks[close_paren][0] + 1 : toks[open_i][0]]
    if lang == "text" and re.search(r"[;=}]", between):  # a call or a declaration, not a body
        return None
    returns = re.sub(r"^\s*(?:->|=>|:)?\s*", "", between).strip()
    if lang == "javascript":
        returns = ""
    depth = 0
    for pos, text in toks[open_i:]:
        depth += {"{": 1, "}": -1}.get(text, 0)
        if depth == 0:
            return FunctionSpan(params.strip(), returns, toks[open_i][0], pos)
    return None


def _generic_param(p: str) -> str:
    """A parameter's name in any C-family syntax: before `:` (`a: Int`), else the last word
    (`const std::vector<int>& a`), defaults cut off."""
    p = p.split("=")[0]
    typed = re.match(r"\s*(?:\w+\s+)*?([A-Za-z_$][\w$]*)\s*:(?!:)", p)
    if typed:
        return typed.group(1)
    words = re.findall(r"[A-Za-z_$][\w$]*", p)
    return words[-1] if words else ""


def param_names(params: str, lang: Language) -> list[tuple[str, str]]:
    """(name, type text) of each parameter; JavaScript types are ''."""
    out, depth, cur = [], 0, ""
    for c in params + ",":
        if c in "([{<":
            depth += 1
        elif c in ")]}>":
            depth -= 1
        if c == "," and depth == 0:
            if cur.strip():
                out.append(cur.strip())
            cur = ""
        else:
            cur += c
    pairs = []
    for p in out:
        if lang == "rust":
            name, _, typ = p.partition(":")
            pairs.append((name.replace("mut ", "").strip(), typ.strip()))
        elif lang == "go":
            bits = p.split(None, 1)
            pairs.append((bits[0], bits[1] if len(bits) > 1 else ""))
        elif lang == "text":
            pairs.append((_generic_param(p), ""))
        else:
            pairs.append((re.split(r"[=\s]", p.lstrip("."))[0], ""))
    if lang == "go":  # `a, b int`: names without a type share the next one's
        typ = ""
        for i in range(len(pairs) - 1, -1, -1):
            typ = pairs[i][1] or typ
            pairs[i] = (pairs[i][0], typ)
    return pairs
