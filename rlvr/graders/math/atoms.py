"""The atoms of the answer grammar: numbers, symbols, brackets, LaTeX commands, matrices.

Split from `parse` to keep modules small: `Parser.postfix` calls `parse_atom` here, and the
atoms call back into the parser through the `Cursor` protocol it implements, so this module does
not import `parse`. Big operators and limits (`\\sum`, `\\prod`, `\\lim`) are atoms too; `calculus`
evaluates them.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Protocol

from rlvr.graders.math.lexicon import CLOSERS, CONSTS, FUNCS, GREEK, MATRIX_ENVS
from rlvr.graders.math.tree import Node, ParseError

MAX_SCI_EXPONENT = 1000
_SCI_RE = re.compile(r"[eE]([+-]?\d+)$")
_ARC = {"sin": "arcsin", "cos": "arccos", "tan": "arctan"}


class Cursor(Protocol):
    """What the atoms need from the parser (`parse.Parser` implements it)."""

    def peek(self, offset: int = 0) -> tuple[str, str]: ...
    def take(self) -> tuple[str, str]: ...
    def expect(self, text: str) -> None: ...
    def at(self, *texts: str) -> bool: ...
    def seq(self) -> Node: ...
    def additive(self) -> Node: ...
    def term(self) -> Node: ...
    def factor(self) -> Node: ...
    def _starts_factor(self, tok: tuple[str, str], prev: Node) -> bool: ...


def number(text: str) -> Node:
    """A numeric literal as an exact fraction; decimals and scientific notation are flagged."""
    sci = _SCI_RE.search(text)
    if sci and abs(int(sci.group(1))) > MAX_SCI_EXPONENT:
        raise ParseError(f"the exponent of {text} is beyond ±{MAX_SCI_EXPONENT}")
    decimal = "." in text or sci is not None
    try:
        value = Fraction(text)
    except ValueError:  # a piece of a number token (`\\sqrt 3.x` splits `3.`): unreadable
        raise ParseError(f"{text!r} is not a number") from None
    return Node("num", value=(value, decimal))


def parse_atom(p: Cursor) -> Node:
    """One atom: a number, symbol, constant, bracketed group, command or matrix."""
    kind, text = p.peek()
    if kind == "num":
        p.take()
        return number(text)
    if kind == "sym":
        p.take()
        if text in ("e", "i"):
            return Node("const", value=text)
        return Node("sym", value=text)
    if kind == "const":
        p.take()
        return Node("const", value=text)
    if kind == "env" and text.startswith("\\begin"):
        return _matrix(p)
    if kind == "cmd":
        return _command(p)
    if text in ("(", "["):
        return _brackets(p)
    if text == "{":
        p.take()
        node = p.seq()
        p.expect("}")
        return node
    if text == "|":
        p.take()
        inner = p.additive()
        p.expect("|")
        return Node("fn", (inner,), "Abs")
    raise ParseError(f"unexpected {text!r}" if text else "the answer ends too early")


def _command(p: Cursor) -> Node:
    text = p.peek()[1]
    name = text[1:]
    if text == "\\{":
        return _brackets(p)
    if name in FUNCS:
        return _function(p, name)
    p.take()
    if name in ("sum", "prod"):
        return parse_big_operator(p, name)
    if name == "lim":
        return parse_limit(p)
    if name == "frac":
        return Node("frac", (latex_arg(p), latex_arg(p)))
    if name == "binom":
        return Node("fn", (latex_arg(p), latex_arg(p)), "binomial")
    if name == "sqrt":
        if p.at("["):
            p.take()
            index = p.additive()
            p.expect("]")
            return Node("root", (latex_arg(p), index))
        return Node("root", (latex_arg(p), Node("num", value=(Fraction(2), False))))
    if name in ("lfloor", "lceil"):
        inner = p.additive()
        p.expect("\\rfloor" if name == "lfloor" else "\\rceil")
        return Node("fn", (inner,), "floor" if name == "lfloor" else "ceiling")
    if text in CONSTS:
        value = CONSTS[text]
        return Node("set", ()) if value == "empty" else Node("const", value=value)
    if name in GREEK:
        return Node("sym", value=name)
    raise ParseError(f"unsupported command {text}")


def latex_arg(p: Cursor) -> Node:
    """A LaTeX macro argument: a braced group, or one token (`\\frac12` takes the digit 1)."""
    kind, text = p.peek()
    if text == "{" and kind == "op":
        p.take()
        node = p.seq()
        p.expect("}")
        return node
    if kind == "num":
        if len(text) > 1:
            p.toks[p.i] = ("num", text[1:])
        else:
            p.take()
        if not text[0].isdigit():
            raise ParseError(f"cannot take one digit of {text}")
        return number(text[0])
    return parse_atom(p)


def parse_exponent(p: Cursor) -> Node:
    """After `^`: a braced group, a whole number (`2^10` is 1024), or a signed atom."""
    kind, text = p.peek()
    if text in ("-", "+") and kind == "op":
        p.take()
        inner = parse_exponent(p)
        return Node("neg", (inner,)) if text == "-" else inner
    if kind == "num":
        p.take()
        return number(text)
    return latex_arg(p)


def parse_subscript(p: Cursor) -> str:
    """After `_`: the subscript's raw text, kept as part of a symbol's name (`x_1`, `a_{n}`)."""
    text = p.take()[1]
    if text != "{":
        return text.lstrip("\\")
    parts: list[str] = []
    while not p.at("}"):
        parts.append(p.take()[1].lstrip("\\"))
        if len(parts) > 20:
            raise ParseError("subscript too long")
    p.take()
    return "".join(parts)


def _function(p: Cursor, name: str) -> Node:
    p.take()
    power: Node | None = None
    base: Node | None = None
    while p.at("^", "_"):
        if p.take()[1] == "^":
            power = parse_exponent(p)
        else:
            base = latex_arg(p)
    if power is not None and _is_minus_one(power) and name in _ARC:
        name, power = _ARC[name], None
    if p.at("("):
        p.take()
        arg = p.seq()
        p.expect(")")
    elif p.at("{"):
        arg = latex_arg(p)
    else:
        arg = _bare_argument(p)
    args = arg.kids if arg.kind == "list" and name in ("gcd", "lcm") else (arg,)
    if name in ("log", "lg") and (base is not None or name == "lg"):
        args = (arg, base or Node("num", value=(Fraction(10), False)))
    node = Node("fn", args, _CANONICAL.get(name, name))
    return Node("pow", (node, power)) if power is not None else node


_CANONICAL = {"ln": "log", "lg": "log", "arcsin": "asin", "arccos": "acos", "arctan": "atan"}


def _is_minus_one(node: Node) -> bool:
    return node.kind == "neg" and node.kids[0].kind == "num" and node.kids[0].value[0] == 1


def _bare_argument(p: Cursor) -> Node:
    """`\\sin 2x` is sin(2x); the argument stops before the next function or operator."""
    factors = [p.factor()]
    while True:
        kind, text = p.peek()
        if kind == "cmd" and text[1:] in FUNCS:
            break
        if not p._starts_factor((kind, text), factors[-1]) or text == "(":
            break
        factors.append(p.factor())
    return factors[0] if len(factors) == 1 else Node("mul", tuple(factors))


def _brackets(p: Cursor) -> Node:
    opener = p.take()[1]
    closers = CLOSERS[opener]
    if p.peek()[1] in closers:
        p.take()
        return Node("set", ()) if opener == "\\{" else Node("tuple", (), (opener, ")"))
    inner = p.seq()
    closer = p.take()[1]
    if closer not in closers:
        raise ParseError(f"{opener!r} closed by {closer!r}")
    items = inner.kids if inner.kind == "list" else (inner,)
    if opener == "\\{":
        return Node("set", items)
    if inner.kind == "list" and inner.value <= {",", ";"}:
        return Node("tuple", items, (opener, closer))
    if opener + closer not in ("()", "[]"):
        raise ParseError(f"an interval needs two ends, got {opener}...{closer}")
    return inner


def _matrix(p: Cursor) -> Node:
    env = re.sub(r"\s", "", p.take()[1])[len("\\begin{") : -1]
    if env not in MATRIX_ENVS:
        raise ParseError(f"unsupported environment {env}")
    if env == "array" and p.at("{"):  # the column spec, `{cc}` or `{c|c}`
        p.take()
        while not p.at("}"):
            p.take()
        p.take()
    rows: list[Node] = []
    cells: list[Node] = []
    while True:
        kind, text = p.peek()
        if kind == "env" and text.startswith("\\end"):
            p.take()
            break
        cells.append(p.additive())
        if p.at("&"):
            p.take()
        elif p.at("\\\\"):
            p.take()
            rows.append(Node("row", tuple(cells)))
            cells = []
            if p.peek()[0] == "env" and p.peek()[1].startswith("\\end"):
                continue  # a trailing row break
        elif not (p.peek()[0] == "env" and p.peek()[1].startswith("\\end")):
            raise ParseError(f"unexpected {p.peek()[1]!r} in a matrix")
    if cells:
        rows.append(Node("row", tuple(cells)))
    if not rows or len({len(r.kids) for r in rows}) != 1:
        raise ParseError("matrix rows have different lengths")
    return Node("matrix", tuple(rows))


def base_number(p: Cursor, node: Node) -> Node:
    """`204_5` (after the `_`): a numeral in base 2-36, read as its value (54)."""
    digits = str(node.value[0].numerator) if not node.value[1] else ""
    base_text = parse_subscript(p)
    if not digits or not base_text.isdigit() or not 2 <= int(base_text) <= 36:
        raise ParseError(f"{digits or 'a decimal'}_{base_text} is not a numeral in a base 2-36")
    try:
        return Node("num", value=(Fraction(int(digits, int(base_text))), False))
    except ValueError:
        raise ParseError(f"{digits} has a digit that base {base_text} does not have") from None


_ARROWS = ("\\to", "\\rightarrow", "\\longrightarrow", "\\mapsto")


def parse_big_operator(p: Cursor, name: str) -> Node:
    """After `\\sum` or `\\prod`: `_{k=a}^{b}` then the body."""
    lower: Node | None = None
    upper: Node | None = None
    while p.at("_", "^"):
        if p.take()[1] == "_":
            lower = latex_arg(p)
        else:
            upper = parse_exponent(p)
    if lower is None or upper is None or lower.kind != "rel" or lower.value != ("=",):
        raise ParseError(f"\\{name} needs _{{k=a}}^{{b}}")
    var, start = lower.kids
    if var.kind != "sym":
        raise ParseError(f"the index of \\{name} must be a letter")
    return Node(name, (var, start, upper, p.term()))


def parse_limit(p: Cursor) -> Node:
    """After `\\lim`: `_{x \\to a}` then the body."""
    if not p.at("_"):
        raise ParseError("\\lim needs _{x \\to a}")
    p.take()
    braced = p.at("{")
    if braced:
        p.take()
    var = parse_atom(p)
    if var.kind != "sym" or not p.at(*_ARROWS):
        raise ParseError("\\lim needs _{x \\to a}")
    p.take()
    point = p.additive()
    if braced:
        p.expect("}")
    return Node("lim", (var, point, p.term()))
