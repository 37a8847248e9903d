"""Relations as values: equations, chains, assignments and inequalities.

- A chain `x = 5 + 5 + 1 = 11` states its first and last sides (`x = 11`); a chain whose
  first side has no letters (`\\sqrt{4} = 2`, `\\binom{5}{2} = 10`) is a computation and states
  its last side. Anything after a first `\\approx` is a rounding and is dropped.
- `name = value` is an assignment when the name (`x`, `AB`, `f(x)`, `|AB|`, `A:B`, `(p, q)`) is
  made of letters only and the value has none of them; the value alone answers it.
- An inequality in one name becomes an interval (`x > 3` is x in (3, oo)); any other
  inequality in one letter (`-x > -1`, `1 \\le |z| \\le 2`) is solved over the reals by sympy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy
from sympy.solvers.inequalities import solve_univariate_inequality

from rlvr.graders.math.tree import Node, render

_OPEN = {"<": "(", "<=": "["}
_CLOSE = {"<": ")", "<=": "]"}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!=", "in": "in"}
_NAME_KINDS = frozenset({"sym", "mul", "frac", "inv", "tuple", "list"})
_SYMPY_REL = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge}


def relation_value(
    node: Node, to_value: Callable[[Node], Node], to_sympy: Callable[[Node], Any]
) -> Node:
    """The value a top-level relation tree states (the converters come from `values`, which
    imports this module)."""
    ops: tuple[str, ...] = node.value
    sides = node.kids
    if ops[0] == "~" and is_name(sides[0]):  # `x \approx 4` names its value
        ops = ("=", *ops[1:])
    if "~" in ops:  # `a = b \approx c`: what follows the first \approx is a rounding
        cut = ops.index("~")
        ops, sides = ops[:cut], sides[: cut + 1]
    if not ops:
        return to_value(sides[0])
    if all(o == "=" for o in ops):
        if not _symbols(sides[0]) and not _symbols(sides[-1]):
            return to_value(sides[-1])
        ops, sides = ("=",), (sides[0], sides[-1])
    if ops == ("=",) or ops == ("in",):
        lhs, rhs = to_value(sides[0]), to_value(sides[1])
        if rhs.kind == "set" and ops == ("=",) and lhs.kind == "scalar":
            return Node("set", tuple(Node("eq", (lhs, r)) for r in rhs.kids))
        return Node("eq", (lhs, rhs))
    interval = _as_interval(ops, sides)
    if interval is None:
        interval = _solved(ops, sides, to_sympy)
    if interval is not None:
        return interval
    return Node("rel", tuple(to_value(s) for s in sides), ops)


def constant_sides(node: Node) -> list[Node]:
    """The sides without letters of an equation chain (`x = 5+5+1 = 11` gives 5+5+1 and 11),
    up to a first `\\approx`; empty for any other relation. `chains` checks they agree."""
    ops: tuple[str, ...] = node.value
    sides = node.kids
    if "~" in ops:
        cut = ops.index("~")
        ops, sides = ops[:cut], sides[: cut + 1]
    if not ops or not all(o == "=" for o in ops):
        return []
    return [s for s in sides if not _symbols(s)]


def is_name(node: Node) -> bool:
    """Letters only: `x`, `AB`, `f(x)`, `NO/BO`, `(p, q)`; also `a+b`, a call at a number
    (`f(2)`, `f^{-1}(x)`) and a word holding e or i (`\\text{Area}`)."""
    if node.kind == "sym":
        return True
    if node.kind == "fn" and node.value == "Abs":
        return is_name(node.kids[0])
    if node.kind == "add":
        return all(is_name(k) for k in node.kids)
    if node.kind == "mul" and len(node.kids) > 1 and _is_head(node.kids[0]):
        return all(is_name(k) or k.kind == "num" or _is_letter_const(k) for k in node.kids[1:])
    return node.kind in _NAME_KINDS and bool(node.kids) and all(is_name(k) for k in node.kids)


def _is_head(node: Node) -> bool:
    """`f` of `f(2)`, `f^{-1}` of `f^{-1}(x)`."""
    if node.kind == "pow" and node.kids[0].kind == "sym" and node.kids[1].kind in ("num", "neg"):
        return True
    return node.kind == "sym"


def _is_letter_const(node: Node) -> bool:
    return node.kind == "const" and node.value in ("e", "i")


def _interval_name(node: Node) -> bool:
    """A lone letter, or a name of several letters (`f(x)`); `|z|` is solved for z instead."""
    return node.kind == "sym" or (is_name(node) and len(_symbols(node)) > 1)


def _interval(var: Node, lo: Node, hi: Node, brackets: tuple[str, str]) -> Node:
    seq = Node("seq", (Node("scalar", (lo,)), Node("scalar", (hi,))), brackets)
    return Node("eq", (Node("scalar", (var,)), seq))


def _as_interval(ops: tuple[str, ...], sides: tuple[Node, ...]) -> Node | None:
    """`1 < x <= 3` as x in (1, 3]; `x > 3` as x in (3, oo). None if not of that shape."""
    if len(ops) == 2 and _interval_name(sides[1]):
        if all(o in ("<", "<=") for o in ops):
            return _interval(sides[1], sides[0], sides[2], (_OPEN[ops[0]], _CLOSE[ops[1]]))
        if all(o in (">", ">=") for o in ops):
            brackets = (_OPEN[_FLIP[ops[1]]], _CLOSE[_FLIP[ops[0]]])
            return _interval(sides[1], sides[2], sides[0], brackets)
        return None
    if len(ops) != 1 or ops[0] not in _SYMPY_REL:
        return None
    op, var, bound = ops[0], sides[0], sides[1]
    if not _interval_name(var) or _symbols(bound):
        op, var, bound = _FLIP[op], sides[1], sides[0]
    if not _interval_name(var) or _symbols(var) & _symbols(bound):
        return None
    inf = Node("const", value="oo")
    if op in ("<", "<="):
        return _interval(var, Node("neg", (inf,)), bound, ("(", _CLOSE[op]))
    return _interval(var, bound, inf, (_OPEN[_FLIP[op]], ")"))


def _solved(
    ops: tuple[str, ...], sides: tuple[Node, ...], to_sympy: Callable[[Node], Any]
) -> Node | None:
    """Solve an inequality in one letter over the reals: x in a union of intervals."""
    names = set().union(*(_symbols(s) for s in sides))
    if len(names) != 1 or not all(o in _SYMPY_REL for o in ops):
        return None
    exprs = [to_sympy(s) for s in sides]
    var = sympy.Symbol(names.pop())
    real = sympy.Symbol(var.name, real=True)
    conds = [_SYMPY_REL[o](a, b) for o, a, b in zip(ops, exprs, exprs[1:], strict=False)]
    try:
        parts = [
            solve_univariate_inequality(c.subs(var, real), real, relational=False) for c in conds
        ]
        solution = sympy.Intersection(*parts)
    except (NotImplementedError, TypeError, ValueError):
        return None
    pieces = solution.args if isinstance(solution, sympy.Union) else (solution,)
    if not all(isinstance(p, sympy.Interval) for p in pieces):
        return None
    seqs = tuple(_seq(p) for p in pieces)
    value = seqs[0] if len(seqs) == 1 else Node("set", seqs)
    return Node("eq", (Node("scalar", (Node("sym", value=var.name),)), value))


def _seq(interval: sympy.Interval) -> Node:
    brackets = ("(" if interval.left_open else "[", ")" if interval.right_open else "]")
    ends = (Node("scalar", (Node("sx", value=e),)) for e in (interval.start, interval.end))
    return Node("seq", tuple(ends), brackets)


def assigned(eq: Node) -> Node | None:
    """The value of `name = v` (or `v = name`) when the name's letters are not in v."""
    lhs, rhs = eq.kids
    for var, val in ((lhs, rhs), (rhs, lhs)):
        if not _value_is_name(var):
            continue
        head = _call_head(var)
        if not (_symbols(var) & _symbols(val)) or (head and not head & _symbols(val)):
            return val
    return None


def _call_head(value: Node) -> set[str]:
    """The function letter of `f(x)` (read as f*x): `f(x) = 2x + 3` assigns to f, not x."""
    tree = value.kids[0] if value.kind == "scalar" else value
    if tree.kind == "mul" and len(tree.kids) > 1 and _is_head(tree.kids[0]):
        head = tree.kids[0]
        return {(head.kids[0] if head.kind == "pow" else head).value}
    return set()


def _value_is_name(value: Node) -> bool:
    if value.kind == "scalar":
        return is_name(value.kids[0])
    return value.kind == "seq" and all(_value_is_name(k) for k in value.kids)


def name_of(eq: Node) -> str:
    """A printable name of an assignment's named side, for reasons."""
    for side in eq.kids:
        if _value_is_name(side):
            return render(side.kids[0]) if side.kind == "scalar" else render(side)
    return "?"


def _symbols(node: Node) -> set[str]:
    """The free letters of a tree: a sum's index or a limit's variable is bound."""
    found = {node.value} if node.kind == "sym" else set()
    for kid in node.kids:
        found |= _symbols(kid)
    if node.kind in ("sum", "prod", "lim") and node.kids[0].kind == "sym":
        found = set().union(*(_symbols(k) for k in node.kids[1:])) - {node.kids[0].value}
    return found
