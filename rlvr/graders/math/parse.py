"""Parse a normalised answer into a small syntax tree, without evaluating anything.

A hand-written parser rather than sympy's `parse_expr` (which calls `eval`) or a LaTeX grammar:
model output is untrusted, and the tree must exist before anything is computed so that
`guard` can measure it first. Choices a reader might question:

- an unbraced exponent takes the whole number (`2^10` is 1024), while `\\frac12` and `\\sqrt2`
  take one digit as LaTeX does;
- a whole number directly followed by a fraction of whole numbers is a mixed number
  (`3\\frac{1}{4}` is 13/4);
- `e` is Euler's number, `i` the imaginary unit, `\\pi` and `pi` are pi;
- a bare comma list (`1, 2`) or `or`/`and` list is an unordered collection; `(a, b)`, `[a, b)`
  keep their brackets (tuples and intervals); `\\{a, b\\}` is a set;
- `\\pm` is kept as a node and later expands to two values;
- a ratio `3:4` is the quotient 3/4.
"""

from __future__ import annotations

import re

from rlvr.graders.math.atoms import base_number, parse_atom, parse_exponent, parse_subscript
from rlvr.graders.math.lexicon import (
    DIV_OPS,
    GREEK,
    MUL_OPS,
    NOT_FACTOR_CMDS,
    RELATIONS,
    WORD_KEYWORDS,
    tokenize,
)
from rlvr.graders.math.tree import MAX_DEPTH, Node, ParseError, num

__all__ = ["Node", "ParseError", "Parser", "num", "parse", "text_answer", "tokenize"]


class Parser:
    """Recursive descent over the token list; see the module docstring for the grammar's choices."""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.toks = tokens
        self.i = 0
        self.depth = 0

    def peek(self, offset: int = 0) -> tuple[str, str]:
        j = self.i + offset
        return self.toks[j] if j < len(self.toks) else ("end", "")

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok[0] == "end":
            raise ParseError("the answer ends too early")
        self.i += 1
        return tok

    def expect(self, text: str) -> None:
        tok = self.take()
        if tok[1] != text:
            raise ParseError(f"expected {text!r} but found {tok[1]!r}")

    def at(self, *texts: str) -> bool:
        tok = self.peek()
        return tok[0] != "end" and tok[1] in texts

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseError(f"nested deeper than {MAX_DEPTH} levels")

    def top(self) -> Node:
        while self.at("=") or self.at("\\approx"):
            self.take()  # a leading "=" or "≈" says nothing
        node = self.seq()
        if self.peek()[0] != "end":
            raise ParseError(f"unexpected {self.peek()[1]!r} after a complete answer")
        return node

    def seq(self) -> Node:
        """Items separated by `,` `;` `or` `and`: an unordered list when there are several."""
        items = [self.relation()]
        seps: set[str] = set()
        while self.at(",", ";") or self.peek()[0] == "sep":
            seps.add(self.take()[1])
            if self.peek()[0] == "sep":
                seps.add(self.take()[1])  # ", or"
            items.append(self.relation())
        if len(items) == 1:
            return items[0]
        return Node("list", tuple(items), frozenset(seps))

    def relation(self) -> Node:
        items = [self.union()]
        ops: list[str] = []
        while self.peek()[1] in RELATIONS and self.peek()[0] in ("op", "cmd"):
            ops.append(RELATIONS[self.take()[1]])
            items.append(self.union())
        if not ops:
            return items[0]
        return Node("rel", tuple(items), tuple(ops))

    def union(self) -> Node:
        items = [self.additive()]
        while self.at("\\cup"):
            self.take()
            items.append(self.additive())
        return items[0] if len(items) == 1 else Node("union", tuple(items))

    def additive(self) -> Node:
        self.enter()
        terms: list[Node] = []
        sign = self._sign()
        terms.append(self._signed(sign, self.term()))
        while self.at("+", "-", "\\pm", "\\mp"):
            terms.append(self._signed(self._sign(), self.term()))
        self.depth -= 1
        return terms[0] if len(terms) == 1 else Node("add", tuple(terms))

    def _sign(self) -> str:
        sign = "+"
        while self.at("+", "-", "\\pm", "\\mp"):
            op = self.take()[1]
            if op in ("\\pm", "\\mp"):
                sign = "pm"
            elif op == "-" and sign != "pm":
                sign = "-" if sign == "+" else "+"
        return sign

    @staticmethod
    def _signed(sign: str, node: Node) -> Node:
        if sign == "-":
            return Node("neg", (node,))
        if sign == "pm":
            return Node("pm", (node,))
        return node

    def term(self) -> Node:
        factors = [self.factor()]
        while True:
            tok = self.peek()
            if tok[1] in MUL_OPS:
                self.take()
                factors.append(self.factor())
            elif tok[1] in ("\\bmod", "\\mod"):
                self.take()
                left = factors[0] if len(factors) == 1 else Node("mul", tuple(factors))
                factors = [Node("mod", (left, self.factor()))]
            elif tok[1] in DIV_OPS:
                self.take()
                factors.append(Node("inv", (self.factor(),)))
            elif self._starts_factor(tok, factors[-1]):
                nxt = self.factor()
                if _is_mixed(factors, nxt):
                    factors[-1] = Node("add", (factors[-1], nxt))
                else:
                    factors.append(nxt)
            else:
                break
        return factors[0] if len(factors) == 1 else Node("mul", tuple(factors))

    @staticmethod
    def _starts_factor(tok: tuple[str, str], prev: Node) -> bool:
        """Whether `tok` begins a factor multiplied implicitly (`2x`, `3\\sqrt{2}`, `x(x+1)`)."""
        kind, text = tok
        if kind in ("sym", "const"):
            return True
        if kind == "num":
            return prev.kind != "num"
        if kind == "cmd":
            return text not in NOT_FACTOR_CMDS
        if kind == "env":
            return text.startswith("\\begin")
        return kind == "op" and text in ("(", "{")

    def factor(self) -> Node:
        if self.at("-", "+", "\\pm", "\\mp"):
            return self._signed(self._sign(), self.factor())
        return self.postfix()

    def postfix(self) -> Node:
        node = parse_atom(self)
        for _ in range(MAX_DEPTH + 1):  # `2!!!...`, `2^1^1...`: each one nests the tree
            if self.at("!"):
                self.take()
                node = Node("fact", (node,))
            elif self.at("^"):
                self.take()
                node = Node("pow", (node, parse_exponent(self)))
            elif self.at("_") and node.kind == "num":
                self.take()
                node = base_number(self, node)
            elif self.at("_") and node.kind == "sym":
                self.take()
                node = Node("sym", value=f"{node.value}_{parse_subscript(self)}")
            elif self.at("'") and node.kind == "sym":
                self.take()
                node = Node("sym", value=node.value + "'")
            else:
                return node
        raise ParseError(f"more than {MAX_DEPTH} operators after one value")


def _is_mixed(factors: list[Node], nxt: Node) -> bool:
    """`3\\frac{1}{4}`: a lone whole number followed by a fraction of whole numbers."""
    if len(factors) != 1 or factors[0].kind != "num" or nxt.kind != "frac":
        return False
    value, decimal = factors[0].value
    whole = value.denominator == 1 and not decimal
    return whole and all(k.kind == "num" and k.value[0].denominator == 1 for k in nxt.kids)


_TEXT_RE = re.compile(r"[A-Za-z][A-Za-z .'-]*")


def text_answer(text: str) -> str | None:
    """The canonical form of a word answer (`Monday`, `no solution`), or None for mathematics."""
    if not _TEXT_RE.fullmatch(text):
        return None
    words = re.findall(r"[A-Za-z]+", text)
    if all(w in WORD_KEYWORDS or w in GREEK for w in words):
        return None
    if max(len(w) for w in words) < 3 and text.lower() != "no":
        return None
    words = [w.lower() for w in words]
    if len(words) > 1 and words[0] in ("the", "a", "an"):
        words = words[1:]  # "the first player" is "first player"
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") and w[-2] != "s" else w for w in words)


def parse(text: str) -> Node:
    """Parse one normalised answer; raises ParseError with a short reason."""
    if not text.strip():
        raise ParseError("the answer is empty")
    words = text_answer(text.strip())
    if words is not None:
        return Node("text", value=words)
    return Parser(tokenize(text)).top()
