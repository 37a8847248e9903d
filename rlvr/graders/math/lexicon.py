"""The tokens of the answer grammar: the tokenizer and the tables of words and commands.

Shared by the parser (`parse`) and its atoms (`atoms`), which is why it is its own module.
"""

from __future__ import annotations

import re

from rlvr.graders.math.tree import ParseError

MAX_TOKENS = 1500

_TOKEN_RE = re.compile(
    r"(?P<ws>\s+)"
    r"|(?P<num>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)"
    r"|(?P<env>\\(?:begin|end)\s*\{[a-zA-Z]+\*?\})"
    r"|(?P<cmd>\\[a-zA-Z]+|\\[{}|\\])"
    r"|(?P<word>[a-zA-Z]+)"
    r"|(?P<op><=|>=|!=|\*\*|[-+*/^_!,;:()\[\]{}|=<>&'])"
)
FUNCS = frozenset(
    "sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh log ln exp lg gcd lcm".split()  # noqa: SIM905
)
WORD_KEYWORDS = {"pi": ("const", "pi"), "oo": ("const", "oo"), "inf": ("const", "oo")}
WORD_KEYWORDS |= {"infty": ("const", "oo"), "infinity": ("const", "oo"), "sqrt": ("cmd", "sqrt")}
WORD_KEYWORDS |= {"or": ("sep", "or"), "and": ("sep", "and")}
WORD_KEYWORDS |= {f: ("cmd", f) for f in FUNCS}
GREEK = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa "  # noqa: SIM905
    "lambda mu nu xi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta "
    "Lambda Xi Sigma Phi Psi Omega".split()
)
RELATIONS = {
    "=": "=",
    "<": "<",
    ">": ">",
    "<=": "<=",
    ">=": ">=",
    "!=": "!=",
    "\\le": "<=",
    "\\leq": "<=",
    "\\ge": ">=",
    "\\geq": ">=",
    "\\ne": "!=",
    "\\neq": "!=",
    "\\lt": "<",
    "\\gt": ">",
    "\\in": "in",
    "\\approx": "~",
    "\\equiv": "=",
}
MUL_OPS = {"*", "\\cdot", "\\times"}
DIV_OPS = {"/", "\\div", ":"}
CONSTS = {"\\pi": "pi", "\\infty": "oo", "\\emptyset": "empty", "\\varnothing": "empty"}
MATRIX_ENVS = frozenset(
    {"pmatrix", "bmatrix", "matrix", "Bmatrix", "vmatrix", "smallmatrix", "array"}
)
CLOSERS = {"(": (")", "]"), "[": (")", "]"), "\\{": ("\\}",)}
NOT_FACTOR_CMDS = frozenset(
    {"\\}", "\\\\", "\\div", "\\pm", "\\mp", "\\cup", "\\rfloor", "\\rceil", "\\choose"}
    | {"\\bmod", "\\mod", "\\to", "\\rightarrow"}
    | set(RELATIONS)
    | MUL_OPS
)


def tokenize(text: str) -> list[tuple[str, str]]:
    """(kind, text) tokens; kinds: num, cmd, sym, const, sep, op."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None:
            raise ParseError(f"unexpected character {text[pos]!r} at position {pos}")
        pos = m.end()
        kind = m.lastgroup or ""
        tok = m.group(0)
        if kind == "ws":
            continue
        if kind == "word":
            tokens.extend(_word_tokens(tok))
        elif tok == "**":
            tokens.append(("op", "^"))  # `x**2` is a power, as in Python (it was read as 2x)
        else:
            tokens.append((kind, tok))
        if len(tokens) > MAX_TOKENS:
            raise ParseError(f"more than {MAX_TOKENS} tokens")
    return tokens


def _word_tokens(word: str) -> list[tuple[str, str]]:
    if word in WORD_KEYWORDS:
        kind, name = WORD_KEYWORDS[word]
        return [(kind, "\\" + name if kind == "cmd" else name)]
    return [("sym", ch) for ch in word]
