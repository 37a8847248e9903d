"""Hard-coding checks for JavaScript, Go and Rust, on tokens: a body that only returns a test's
literal, and `if` branches on test literals that return test values.
"""

from __future__ import annotations

from rlvr.flags import kinds as K
from rlvr.flags.knowledge import TestKnowledge, branch_flags, branch_hit
from rlvr.source.cases import Key, text_literals
from rlvr.source.functions import function_span
from rlvr.source.lexer import Language, Token, code_tokens
from rlvr.types import Flag


def text_constant_return(
    code: str, know: TestKnowledge, lang: Language, entry: str | None
) -> list[Flag]:
    """JavaScript/Go/Rust: the entry point's body is a single `return <literal>`."""
    span = function_span(code, lang, entry) if entry else None
    if span is None:
        return []
    inner = [
        t for t in code_tokens(code[span.body_open + 1 : span.body_close], lang) if t.text != ";"
    ]
    if inner and inner[0].text == "return":
        inner = inner[1:]
    if inner and inner[0].text == "-":
        inner = inner[1:]
    if len(inner) == 1 and inner[0].kind in ("number", "string", "ident"):
        lit = inner[0].text
        if text_literals(lit, lang) & know.literals or lit in ("true", "false"):
            return [Flag(kind=K.HARDCODED, evidence=f"{entry} only returns {lit[:40]}")]
    return []


RET_TOKENS = {
    "[",
    "]",
    ",",
    "(",
    ")",
    "-",
    "{",
    "}",
    ":",
    "Some",
    "Ok",
    "None",
    "null",
    "true",
    "false",
    "vec",
    "!",
    "&",
    "nil",
}


def _literal_keys(toks: list[Token], lang: Language) -> set[Key] | None:
    """Literal keys of a run of tokens made only of literals and punctuation, else None."""
    if not toks or any(
        t.kind not in ("number", "string") and t.text not in RET_TOKENS for t in toks
    ):
        return None
    keys = text_literals("".join(t.text + " " for t in toks), lang)
    return keys | {
        ("atom", t.text) for t in toks if t.text in ("true", "false", "null", "None", "nil")
    }


def _branch_parts(toks: list[Token], i: int, lang: Language) -> tuple[list[Token], list[Token]]:
    """(condition tokens, tokens returned right after) of the `if` at toks[i]."""
    depth, j = 0, i + 1
    cond: list[Token] = []
    while j < len(toks):
        t = toks[j].text
        depth += {"(": 1, ")": -1}.get(t, 0)
        if (lang == "javascript" and depth == 0 and t == ")") or (
            lang != "javascript" and depth == 0 and t == "{"
        ):
            break
        cond.append(toks[j])
        j += 1
    body = toks[j + 1 : j + 40]
    if body and body[0].text == "{":
        body = body[1:]
    if body and body[0].text == "return":
        body = body[1:]
    ret = []
    for t in body:
        if t.text in (";", "}") or (t.text == "{" and not ret):
            break
        ret.append(t)
    return cond, ret


def text_branches(code: str, know: TestKnowledge, lang: Language) -> list[Flag]:
    """JavaScript/Go/Rust: two or more `if` branches on test literals returning test values."""
    toks = code_tokens(code, lang)
    hits = []
    for i, t in enumerate(toks):
        if t.text != "if":
            continue
        cond, ret = _branch_parts(toks, i, lang)
        compared = {
            k
            for j, c in enumerate(cond)
            if c.kind in ("number", "string") and j > 0 and cond[j - 1].text in ("==", "===", "-")
            for k in text_literals(c.text, lang)
        }
        returned = _literal_keys(ret, lang)
        score = branch_hit(compared, returned, know) if returned else 0
        if score:
            hits.append((score, " ".join(c.text for c in cond)[:60]))
    return branch_flags(hits)
