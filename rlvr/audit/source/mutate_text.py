"""Token-level mutants for JavaScript, Go and Rust reference solutions, and for any other
stack's as "text" (the lexer's generic C-family reading).

The same operators as the Python AST mutator, applied to the reference's source text through
the lexer (strings and comments are never touched): comparison swaps, arithmetic swaps,
`++` <-> `--`, off-by-one integer constants, `true` <-> `false`, negated `if` / `while`
conditions, swapped `return` values and deleted single-line statements. Without a parser the
operators stay on the safe side: `<` and `>` change only with spaces on both sides (so Rust and
Go generics stay intact), binary `+ - * / %` only between operands, and declarations or
returns are never deleted (the mutant would not compile). A mutant that still fails to compile
is reported by the audit as stillborn, not as killed.

    >>> [m.description for m in text_mutants("if (a < b) { x++; }", "javascript")][:2]
    ['line 1: < -> <=', 'line 1: ++ -> --']
"""

from __future__ import annotations

import itertools
import random
import re

from rlvr.audit.source.mutate import Mutant
from rlvr.source.lexer import Language, Token, tokens

COMPARE = {
    "<": "<=",
    "<=": "<",
    ">": ">=",
    ">=": ">",
    "==": "!=",
    "!=": "==",
    "===": "!==",
    "!==": "===",
}
ARITH = {"+": "-", "-": "+", "*": "/", "/": "*", "%": "/", "+=": "-=", "-=": "+=", "*=": "/="}
STEP = {"++": "--", "--": "++"}
OPERAND_END = ("ident", "number", "string")
KEYWORDS = {
    "return",
    "if",
    "else",
    "while",
    "for",
    "let",
    "const",
    "var",
    "in",
    "of",
    "match",
    "case",
}
NO_DELETE = re.compile(
    r"^\s*(?:return\b|let\b|const\b|var\b|use\b|import\b|package\b|case\b|default\b|export\b|if\b|else\b|for\b|while\b|do\b|"
    r"module\.exports|pub\b|fn\b|func\b|type\b|struct\b|impl\b|mod\b|#|//|/\*|\*)|:=|[{}]"
)


def _operand_before(toks: list[Token], i: int) -> bool:
    j = i - 1
    while j >= 0 and toks[j].kind in ("space", "comment"):
        j -= 1
    if j < 0:
        return False
    t = toks[j]
    return (t.kind in OPERAND_END and t.text not in KEYWORDS) or t.text in (")", "]")


def _operand_after(toks: list[Token], i: int) -> bool:
    j = i + 1
    while j < len(toks) and toks[j].kind in ("space", "comment"):
        j += 1
    return j < len(toks) and (toks[j].kind in OPERAND_END or toks[j].text in ("(", "[", "!", "-"))


def _spaced(toks: list[Token], i: int) -> tuple[bool, bool]:
    before = i > 0 and toks[i - 1].kind == "space"
    after = i + 1 < len(toks) and toks[i + 1].kind == "space"
    return before, after


def _token_sites(toks: list[Token]) -> list[tuple[str, int, int, str, str]]:
    """(operator, start, end, old, new) for single-token changes."""
    out = []
    for i, t in enumerate(toks):
        if t.kind == "op" and t.text in COMPARE:
            before, after = _spaced(toks, i)
            if t.text in ("<", ">") and not (before and after):
                continue
            if _operand_before(toks, i) and _operand_after(toks, i):
                out.append(("compare", t.start, t.end, t.text, COMPARE[t.text]))
        elif t.kind == "op" and t.text in ARITH:
            before, after = _spaced(toks, i)
            if (
                before == after
                and _operand_before(toks, i)
                and (_operand_after(toks, i) or t.text.endswith("="))
            ):
                out.append(("arith", t.start, t.end, t.text, ARITH[t.text]))
        elif t.kind == "op" and t.text in STEP:
            out.append(("arith", t.start, t.end, t.text, STEP[t.text]))
        elif t.kind == "number" and re.fullmatch(r"\d+", t.text):
            value = int(t.text)
            out.append(("constant", t.start, t.end, t.text, str(value + 1)))
            if value > 0:
                out.append(("constant", t.start, t.end, t.text, str(value - 1)))
        elif t.kind == "ident" and t.text in ("true", "false"):
            out.append(
                ("constant", t.start, t.end, t.text, "false" if t.text == "true" else "true")
            )
    return out


def _paren_condition(code: list[tuple[int, Token]]) -> tuple[int, int] | None:
    """`if (cond)`: the text between the parentheses."""
    if code[0][1].text != "(":
        return None
    depth = 0
    for _j, t in code:
        depth += {"(": 1, ")": -1}.get(t.text, 0)
        if depth == 0:
            return code[0][1].end, t.start
    return None


def _brace_condition(code: list[tuple[int, Token]], lang: Language) -> tuple[int, int] | None:
    """`if cond {` (Go, Rust): the text up to the brace, after a Go init statement."""
    if code[0][1].text in ("let", "{"):
        return None
    depth, start = 0, code[0][1].start
    for _j, t in code:
        if start == -1:
            start = t.start
        if t.text in ("(", "["):
            depth += 1
        elif t.text in (")", "]"):
            depth -= 1
        elif t.text == ";" and depth == 0 and lang == "go":
            start = -1
        if t.text == "{" and depth == 0:
            return (start, t.start) if start >= 0 else None
    return None


def _condition(toks: list[Token], i: int, lang: Language) -> tuple[int, int] | None:
    """(start, end) of the condition after the `if`/`while` token at i."""
    code = [(j, t) for j, t in enumerate(toks) if j > i and t.kind not in ("space", "comment")]
    if not code:
        return None
    if lang == "javascript" or (code[0][1].text == "(" and lang in ("go", "text")):
        return _paren_condition(code)
    return _brace_condition(code, lang)


def _negations(src: str, toks: list[Token], lang: Language) -> list[tuple[str, int, int, str, str]]:
    out = []
    for i, t in enumerate(toks):
        if t.kind == "ident" and t.text in ("if", "while"):
            span = _condition(toks, i, lang)
            if span is None:
                continue
            a, b = span
            cond = src[a:b].rstrip()
            if cond.strip():
                out.append(("negate", a, a + len(cond), cond, f"!({cond.strip()})"))
    return out


def _returns(src: str, toks: list[Token]) -> list[tuple[int, int, str]]:
    """(start, end, expression) of each `return <expr>` up to `;` or the end of its line."""
    out = []
    for i, t in enumerate(toks):
        if t.kind == "ident" and t.text == "return":
            start = t.end
            while start < len(src) and src[start] == " ":
                start += 1
            end, depth = start, 0
            for u in toks[i + 1 :]:
                if u.kind == "op" and u.text in "([{":
                    depth += 1
                elif u.kind == "op" and u.text in ")]}":
                    if depth == 0:
                        break
                    depth -= 1
                if depth == 0 and (u.text == ";" or (u.kind == "space" and "\n" in u.text)):
                    break
                end = u.end
            if src[start:end].strip():
                out.append((start, end, src[start:end]))
    return out


def _line_of(src: str, pos: int) -> int:
    return src.count("\n", 0, pos) + 1


def text_mutants(
    source: str, lang: Language, limit: int | None = None, seed: int = 0
) -> list[Mutant]:
    """Distinct single-site mutants of a JavaScript, Go or Rust source."""
    toks = tokens(source, lang)
    edits = [(op, a, b, new, f"{old} -> {new}") for op, a, b, old, new in _token_sites(toks)]
    edits += [
        (op, a, b, new, "condition negated")
        for op, a, b, _old, new in _negations(source, toks, lang)
    ]
    rets = _returns(source, toks)
    for (a1, b1, e1), (a2, b2, e2) in itertools.pairwise(rets):
        if e1.strip() != e2.strip():
            swapped = source[:a1] + e2 + source[b1:a2] + e1 + source[b2:]
            edits.append(
                (
                    "swap_return",
                    0,
                    len(source),
                    swapped,
                    f"returns of lines {_line_of(source, a1)}/{_line_of(source, a2)} swapped",
                )
            )
    offset = 0
    for line in source.splitlines(True):
        stripped = line.strip()
        ends = stripped.endswith(";") or (lang == "go" and stripped)
        if ends and not NO_DELETE.search(stripped):
            edits.append(
                (
                    "delete",
                    offset,
                    offset + len(line),
                    "\n" if line.endswith("\n") else "",
                    "statement deleted",
                )
            )
        offset += len(line)
    found, seen = [], {source}
    for op, a, b, new, desc in edits:
        text = source[:a] + new + source[b:]
        if text not in seen:
            seen.add(text)
            line = _line_of(source, a) if op != "swap_return" else _line_of(source, rets[0][0])
            label = desc if desc.startswith("returns") else f"line {line}: {desc}"
            found.append(Mutant(op, label, text, line))
    if limit is not None and len(found) > limit:
        keep = sorted(random.Random(seed).sample(range(len(found)), limit))
        found = [found[i] for i in keep]
    return found
