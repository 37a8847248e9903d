"""Turn a syntax tree into the kind of object the answer denotes, and into sympy.

Kinds: `scalar` (one expression), `set` (order-free: `\\{1,2\\}`, a bare `1, 2`, `2 or 3`, an
expanded `\\pm`, a union of intervals), `seq` (tuples and intervals, brackets kept), `matrix`,
`eq` (an equation; `x = 2` and `x > 3` become assignments of a value or an interval), `rel`
(any other relation) and `text`. Every kind is a `Node` so values pickle cheaply.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

import sympy

from rlvr.graders.math_parse import Node

MAX_PM = 4
_OPEN = {"<": "(", "<=": "["}
_CLOSE = {"<": ")", "<=": "]"}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!=", "in": "in"}


class NotComparable(ValueError):
    """The tree has no meaning this checker can compare (a matrix in a sum, say)."""


def to_value(node: Node) -> Node:
    """The value a top-level answer tree denotes."""
    kind = node.kind
    if kind == "text":
        return node
    if kind in ("list", "set", "union"):
        return Node("set", tuple(to_value(k) for k in node.kids))
    if kind == "tuple":
        return Node("seq", tuple(to_value(k) for k in node.kids), node.value)
    if kind == "matrix":
        rows = tuple(Node("row", tuple(to_value(c) for c in r.kids)) for r in node.kids)
        return Node("matrix", rows)
    if kind == "rel":
        return _relation(node)
    expansions = expand_pm(node)
    if len(expansions) > 1:
        return Node("set", tuple(scalar(e) for e in expansions))
    return scalar(node)


_EXPRESSION_KINDS = frozenset(
    {"num", "sym", "const", "add", "mul", "neg", "inv", "frac", "pow", "fact", "root", "fn"}
)


def scalar(node: Node) -> Node:
    """Wrap an expression tree as a scalar value; collections inside it are not comparable."""
    _check_expression(node)
    return Node("scalar", (node,))


def _check_expression(node: Node) -> None:
    if node.kind not in _EXPRESSION_KINDS:
        what = {"pm": "a ± sign", "rel": "a relation"}.get(node.kind, f"a {node.kind}")
        raise NotComparable(f"{what} cannot be used inside an expression")
    for kid in node.kids:
        _check_expression(kid)


def expand_pm(node: Node) -> list[Node]:
    """Every sign choice of the `\\pm` nodes: `1 \\pm \\sqrt2` gives 1 + √2 and 1 - √2."""
    count = _count_pm(node)
    if count == 0:
        return [node]
    if count > MAX_PM:
        raise NotComparable(f"more than {MAX_PM} ± signs")
    return [_choose(node, iter(signs)) for signs in itertools.product("+-", repeat=count)]


def _count_pm(node: Node) -> int:
    return (node.kind == "pm") + sum(_count_pm(k) for k in node.kids)


def _choose(node: Node, signs: Iterator[str]) -> Node:
    kids = tuple(_choose(k, signs) for k in node.kids)
    if node.kind == "pm":
        sign = next(signs)
        return kids[0] if sign == "+" else Node("neg", kids)
    return Node(node.kind, kids, node.value) if node.kids else node


def _relation(node: Node) -> Node:
    ops: tuple[str, ...] = node.value
    sides = node.kids
    if ops == ("=",) or ops == ("in",):
        lhs, rhs = to_value(sides[0]), to_value(sides[1])
        if rhs.kind == "set" and ops == ("=",) and lhs.kind == "scalar":
            return Node("set", tuple(Node("eq", (lhs, r)) for r in rhs.kids))
        return Node("eq", (lhs, rhs))
    interval = _as_interval(ops, sides)
    if interval is not None:
        return interval
    return Node("rel", tuple(scalar(s) for s in sides), ops)


def _as_interval(ops: tuple[str, ...], sides: tuple[Node, ...]) -> Node | None:
    """`1 < x <= 3` as x in (1, 3]; `x > 3` as x in (3, oo). None if not of that shape."""
    if len(ops) == 2 and sides[1].kind == "sym":
        if all(o in ("<", "<=") for o in ops):
            lo, hi, var = sides[0], sides[2], sides[1]
            brackets = (_OPEN[ops[0]], _CLOSE[ops[1]])
        elif all(o in (">", ">=") for o in ops):
            lo, hi, var = sides[2], sides[0], sides[1]
            brackets = (_OPEN[_FLIP[ops[1]]], _CLOSE[_FLIP[ops[0]]])
        else:
            return None
    elif len(ops) == 1 and ops[0] in ("<", "<=", ">", ">="):
        op, var, bound = ops[0], sides[0], sides[1]
        if var.kind != "sym":
            op, var, bound = _FLIP[op], sides[1], sides[0]
        if var.kind != "sym":
            return None
        inf = Node("const", value="oo")
        if op in ("<", "<="):
            lo, hi, brackets = Node("neg", (inf,)), bound, ("(", _CLOSE[op])
        else:
            lo, hi, brackets = bound, inf, (_OPEN[_FLIP[op]], ")")
    else:
        return None
    seq = Node("seq", (scalar(lo), scalar(hi)), brackets)
    return Node("eq", (scalar(var), seq))


def assigned(eq: Node) -> Node | None:
    """The value of `x = v` (or `v = x`) when one side is a lone symbol the other lacks."""
    lhs, rhs = eq.kids
    for var, val in ((lhs, rhs), (rhs, lhs)):
        is_symbol = var.kind == "scalar" and var.kids[0].kind == "sym"
        if is_symbol and var.kids[0].value not in _symbols(val):
            return val
    return None


def _symbols(node: Node) -> set[str]:
    found = {node.value} if node.kind == "sym" else set()
    for kid in node.kids:
        found |= _symbols(kid)
    return found


def has_decimal(node: Node) -> bool:
    if node.kind == "num":
        return bool(node.value[1])
    return any(has_decimal(k) for k in node.kids)


def rational(node: Node) -> Fraction | None:
    """The exact rational value of a tree of +, -, *, / and whole powers, else None."""
    try:
        return _rational(node)
    except (_NotRational, ZeroDivisionError):
        return None


class _NotRational(Exception):
    pass


def _rational(node: Node) -> Fraction:
    kind = node.kind
    if kind == "num":
        return node.value[0]
    if kind == "add":
        return sum((_rational(k) for k in node.kids), Fraction(0))
    if kind == "mul":
        out = Fraction(1)
        for k in node.kids:
            out *= _rational(k)
        return out
    if kind == "neg":
        return -_rational(node.kids[0])
    if kind == "inv":
        return 1 / _rational(node.kids[0])
    if kind == "frac":
        return _rational(node.kids[0]) / _rational(node.kids[1])
    if kind == "pow":
        exp = _rational(node.kids[1])
        if exp.denominator != 1:
            raise _NotRational
        return _rational(node.kids[0]) ** int(exp)
    raise _NotRational


_FUNCS = {
    "Abs": sympy.Abs,
    "floor": sympy.floor,
    "ceiling": sympy.ceiling,
    "sin": sympy.sin,
    "cos": sympy.cos,
    "tan": sympy.tan,
    "cot": sympy.cot,
    "sec": sympy.sec,
    "csc": sympy.csc,
    "asin": sympy.asin,
    "acos": sympy.acos,
    "atan": sympy.atan,
    "sinh": sympy.sinh,
    "cosh": sympy.cosh,
    "tanh": sympy.tanh,
    "exp": sympy.exp,
    "log": sympy.log,
    "binomial": sympy.binomial,
    "gcd": sympy.gcd,
    "lcm": sympy.lcm,
}
_CONSTS = {"pi": sympy.pi, "e": sympy.E, "i": sympy.I, "oo": sympy.oo}


def to_sympy(node: Node) -> sympy.Expr:
    """A sympy expression for a scalar tree; call only after `math_guard.check_size`."""
    kind = node.kind
    if kind == "num":
        frac = node.value[0]
        return sympy.Rational(frac.numerator, frac.denominator)
    if kind == "sym":
        return sympy.Symbol(node.value)
    if kind == "const":
        return _CONSTS[node.value]
    args = [to_sympy(k) for k in node.kids]
    if kind == "fn" and node.value in _FUNCS:
        return _FUNCS[node.value](*args)
    if kind not in _BUILD:
        raise NotComparable(f"{kind} cannot be used inside an expression")
    return _BUILD[kind](*args)


_BUILD = {
    "add": lambda *a: sympy.Add(*a),
    "mul": lambda *a: sympy.Mul(*a),
    "neg": lambda a: -a,
    "inv": lambda a: 1 / a,
    "frac": lambda a, b: a / b,
    "pow": lambda a, b: a**b,
    "fact": sympy.factorial,
    "root": lambda a, n: _root(a, n),
}


def _root(radicand: sympy.Expr, index: sympy.Expr) -> sympy.Expr:
    if index == 2:
        return sympy.sqrt(radicand)
    if index.is_Integer and index % 2 == 1 and radicand.is_negative:
        return sympy.real_root(radicand, index)
    return radicand ** (1 / index)
