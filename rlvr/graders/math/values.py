"""Turn a syntax tree into the kind of object the answer denotes, and into sympy.

Kinds: `scalar` (one expression), `set` (order-free: `\\{1,2\\}`, a bare `1, 2`, `2 or 3`, an
expanded `\\pm`, a union of intervals), `seq` (tuples and intervals, brackets kept), `matrix`,
`eq` (an equation; `x = 2` and `x > 3` become assignments of a value or an interval), `rel`
(any other relation) and `text`. Every kind is a `Node` so values pickle cheaply.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import sympy

from rlvr.graders.math.calculus import CALCULUS as _CALCULUS
from rlvr.graders.math.exact import has_decimal, rational
from rlvr.graders.math.relations import assigned, relation_value
from rlvr.graders.math.tree import Node

MAX_PM = 4
__all__ = ["assigned", "has_decimal", "rational", "scalar", "to_sympy", "to_value"]


class NotComparable(ValueError):
    """The tree has no meaning this checker can compare (a matrix in a sum, say)."""


def to_value(node: Node) -> Node:
    """The value a top-level answer tree denotes."""
    kind = node.kind
    if kind == "text":
        return node
    if kind in ("list", "set", "union"):
        bare = "bare" if kind == "list" and node.value <= {","} else None
        return Node("set", tuple(to_value(k) for k in node.kids), bare)
    if kind == "tuple":
        return Node("seq", tuple(to_value(k) for k in node.kids), node.value)
    if kind == "matrix":
        rows = tuple(Node("row", tuple(to_value(c) for c in r.kids)) for r in node.kids)
        return Node("matrix", rows)
    if kind == "rel":
        return relation_value(node, to_value, to_sympy)
    if kind in ("add", "mul", "neg") and _has_matrix(node):
        return _matrix_arithmetic(node)
    expansions = expand_pm(node)
    if len(expansions) > 1:
        return Node("set", tuple(scalar(e) for e in expansions))
    return scalar(node)


def _has_matrix(node: Node) -> bool:
    return node.kind == "matrix" or any(_has_matrix(k) for k in node.kids)


def _matrix_arithmetic(node: Node) -> Node:
    """Sums and products of matrices (`A + B`, `2A`, `AB`), computed into one matrix."""
    result = _matrix_sympy(node)
    if not isinstance(result, sympy.MatrixBase):
        raise NotComparable("a matrix expression that is not a matrix")
    rows = tuple(
        Node(
            "row",
            tuple(Node("scalar", (Node("sx", value=result[i, j]),)) for j in range(result.cols)),
        )
        for i in range(result.rows)
    )
    return Node("matrix", rows)


def _matrix_sympy(node: Node) -> Any:
    if node.kind == "matrix":
        return sympy.Matrix([[to_sympy(c) for c in row.kids] for row in node.kids])
    if node.kind in ("add", "mul", "neg") and _has_matrix(node):
        parts = [_matrix_sympy(k) for k in node.kids]
        if node.kind == "neg":
            return -parts[0]
        out = parts[0]
        for part in parts[1:]:
            out = out + part if node.kind == "add" else out * part
        return out
    if _has_matrix(node):
        raise NotComparable(f"a matrix cannot be used inside {node.kind}")
    return to_sympy(node)


_EXPRESSION_KINDS = frozenset(
    {"num", "sym", "const", "add", "mul", "neg", "inv", "frac", "pow", "fact", "root", "fn"}
    | {"sum", "prod", "lim", "mod", "sx"}
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


def to_sympy(node: Node, positive: bool = False) -> sympy.Expr:
    """A sympy expression for a scalar tree; call only after `guard.check_size`.

    `positive`: letters are positive reals, so `\\sqrt{1/n}` is `1/\\sqrt{n}`.
    """
    kind = node.kind
    if kind == "num":
        frac = node.value[0]
        return sympy.Rational(frac.numerator, frac.denominator)
    if kind == "sym":
        return sympy.Symbol(node.value, positive=True) if positive else sympy.Symbol(node.value)
    if kind == "sx":
        return node.value
    if kind == "const":
        return _CONSTS[node.value]
    if kind in _CALCULUS:
        return _CALCULUS[kind](node, positive, to_sympy)
    args = [to_sympy(k, positive) for k in node.kids]
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
    "mod": lambda a, b: sympy.Mod(a, b),
}


def _root(radicand: sympy.Expr, index: sympy.Expr) -> sympy.Expr:
    if index == 2:
        return sympy.sqrt(radicand)
    if index.is_Integer and index % 2 == 1 and radicand.is_negative:
        return sympy.real_root(radicand, index)
    return radicand ** (1 / index)
