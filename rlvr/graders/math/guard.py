"""Measure a parsed answer before anything evaluates it, and refuse expression bombs.

sympy evaluates `9**9**9` eagerly and `factorial(10**8)` for minutes, and expanding
`(x+1)^(10^6)` never ends; a worker process can be killed, but a bomb should cost a model a
reward of 0 with a reason, not a masked timeout. So every node gets a cheap float estimate:

- `height`: about how many decimal digits the exact numbers in it can need (a rational's
  numerator or denominator; a power multiplies its base's height by the exponent);
- `value`: an approximate float value for constant sub-trees (exponents and factorial
  arguments must be known before their results are sized);
- `degree`: a bound on the polynomial degree in the answer's variables.

A tree passes when every node stays under `Limits`. The bounds are loose upward on purpose: a
false "too big" costs a reward on an answer no problem asks for, a missed bomb costs a worker.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rlvr.graders.math.tree import Node, render


class TooBig(ValueError):
    """The answer would take too long or too much memory to evaluate."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what an answer may ask the checker to compute."""

    max_digits: float = 20_000
    max_degree: float = 1_000
    max_factorial: float = 5_000
    max_nodes: int = 2_000


@dataclass(frozen=True, slots=True)
class _Est:
    height: float
    value: float | None
    degree: float = 0.0
    symbolic: bool = False


_CONST_VALUES = {"pi": math.pi, "e": math.e, "oo": math.inf}
_LOG10_2 = math.log10(2)


def check_size(node: Node, limits: Limits) -> None:
    """Raise TooBig with a reason when `node` is a bomb; return quietly otherwise."""
    count = _count(node, limits.max_nodes)
    if count > limits.max_nodes:
        raise TooBig(f"the answer has more than {limits.max_nodes} parts")
    _estimate(node, limits)


_UNBOUNDED = Limits(math.inf, math.inf, math.inf, 10**9)


def size_digits(node: Node) -> float:
    """The digit estimate of a tree that passed `check_size`: how precisely to evaluate it."""
    try:
        return _estimate(node, _UNBOUNDED).height
    except (TooBig, OverflowError, ValueError):
        return _UNBOUNDED.max_digits


def _count(node: Node, cap: int) -> int:
    total = 1
    for kid in node.kids:
        total += _count(kid, cap)
        if total > cap:
            break
    return total


def _int_height(n: int) -> float:
    n = abs(n)
    return math.log10(n) if 0 < n < 1 << 1000 else n.bit_length() * _LOG10_2


def _safe(fn: Callable[..., float], *args: Any) -> float | None:
    try:
        out = fn(*args)
    except (OverflowError, ValueError, ZeroDivisionError):
        return None
    if isinstance(out, complex):
        return None
    return out


def _estimate(node: Node, lim: Limits) -> _Est:
    est = _ESTIMATORS.get(node.kind, _collection)(node, lim)
    if est.height > lim.max_digits:
        raise TooBig(
            f"{_short(node)} needs about {est.height:.3g} digits (limit {lim.max_digits:g})"
        )
    if est.degree > lim.max_degree:
        raise TooBig(f"{_short(node)} has degree about {est.degree:.3g}")
    return est


def _num(node: Node, lim: Limits) -> _Est:
    frac = node.value[0]
    height = max(_int_height(frac.numerator), _int_height(frac.denominator))
    value = float(frac) if height < 300 else (math.inf if frac > 0 else -math.inf)  # no float()
    return _Est(height, value)


def _sym(node: Node, lim: Limits) -> _Est:
    return _Est(0.0, None, 1.0, True)


def _const(node: Node, lim: Limits) -> _Est:
    if node.value == "i":
        return _Est(0.0, None)
    return _Est(1.0 if node.value != "oo" else 0.0, _CONST_VALUES[node.value])


def _combine(kids: list[_Est], value: float | None, degree: float) -> _Est:
    height = sum(k.height for k in kids) + math.log10(max(len(kids), 1))
    return _Est(height, value, degree, any(k.symbolic for k in kids))


def _add(node: Node, lim: Limits) -> _Est:
    kids = [_estimate(k, lim) for k in node.kids]
    values = [k.value for k in kids]
    value = None if None in values else _safe(math.fsum, values)
    if value is not None and _cancels(value, values):  # type: ignore[arg-type]
        value = None  # `(10^{20}+1) \cdot 10^8 - 10^{28}` is 10^8, not the float's 0
    return _combine(kids, value, max(k.degree for k in kids))


def _cancels(total: float, values: list[float]) -> bool:
    """Whether a float sum may have lost the exact one: terms past 2^53 are rounded, so a sum
    that cancels them down is not known (an exponent sized from it would be a bomb's way in)."""
    largest = max((abs(v) for v in values), default=0.0)
    return largest >= 2.0**53 and not abs(total) > largest * 2.0**-20


def _mul(node: Node, lim: Limits) -> _Est:
    kids = [_estimate(k, lim) for k in node.kids]
    value: float | None = 1.0
    for k in kids:
        value = None if value is None or k.value is None else value * k.value
    return _combine(kids, value, sum(k.degree for k in kids))


def _unary(node: Node, lim: Limits) -> _Est:
    kid = _estimate(node.kids[0], lim)
    value = kid.value
    if value is not None and node.kind == "neg":
        value = -value
    elif value is not None and node.kind == "inv":
        value = _safe(lambda v: 1.0 / v, value) if value else math.inf
    return _Est(kid.height, value, kid.degree, kid.symbolic)


def _frac(node: Node, lim: Limits) -> _Est:
    return _mul(Node("mul", (node.kids[0], Node("inv", (node.kids[1],)))), lim)


def _exponent_size(exp: _Est, node: Node) -> float:
    if exp.value is not None:
        if math.isnan(exp.value):
            raise TooBig(f"the exponent in {_short(node)} is not a number")
        return abs(exp.value)
    if exp.height > 6:
        raise TooBig(f"the exponent in {_short(node)} is too large to evaluate")
    return 10.0**exp.height


def _pow(node: Node, lim: Limits) -> _Est:
    base = _estimate(node.kids[0], lim)
    exp = _estimate(node.kids[1], lim)
    if exp.symbolic:
        return _Est(base.height + exp.height, None, base.degree + 1.0, True)
    if node.kids[0].kind == "num" and abs(node.kids[0].value[0]) in (0, 1):  # exactly, not
        return _Est(0.0, base.value)  # as a float: 1.00000000000000000001 is not 1
    size = _exponent_size(exp, node)
    height = base.height * size + exp.height
    if math.isinf(height):
        raise TooBig(f"{_short(node)} is too large to evaluate")
    value = None
    if base.value is not None and exp.value is not None:
        value = _safe(math.pow, base.value, exp.value)
        if value is None and abs(base.value) > 1 and exp.value > 0:
            value = math.inf
    return _Est(height, value, base.degree * size, base.symbolic)


def _fact(node: Node, lim: Limits) -> _Est:
    arg = _estimate(node.kids[0], lim)
    if arg.symbolic:
        return _Est(arg.height, None, arg.degree, True)
    n = arg.value
    if n is None or not n < lim.max_factorial:
        raise TooBig(f"{_short(node)}: factorials are limited to n < {lim.max_factorial:g}")
    log10_value = math.lgamma(n + 1.0) / math.log(10) if n > -1 else 0.0
    return _Est(max(log10_value, 0.0) + arg.height, _safe(math.gamma, n + 1.0))


def _root(node: Node, lim: Limits) -> _Est:
    arg = _estimate(node.kids[0], lim)
    index = _estimate(node.kids[1], lim)
    value = None
    if arg.value is not None and index.value and arg.value >= 0:
        value = _safe(math.pow, arg.value, 1.0 / index.value)
    return _Est(arg.height + index.height, value, arg.degree, arg.symbolic or index.symbolic)


def _fn(node: Node, lim: Limits) -> _Est:
    if node.value == "exp":
        return _pow(Node("pow", (Node("const", value="e"), node.kids[0])), lim)
    kids = [_estimate(k, lim) for k in node.kids]
    if node.value == "binomial":
        n = kids[0].value
        if not kids[0].symbolic and (n is None or abs(n) > lim.max_digits / _LOG10_2):
            raise TooBig(f"{_short(node)} is too large to evaluate")
        height = abs(n or 0.0) * _LOG10_2 + sum(k.height for k in kids)
        return _Est(height, None, kids[0].degree, any(k.symbolic for k in kids))
    fn = _FLOAT_FNS.get(node.value)
    value = None
    if fn is not None and all(k.value is not None for k in kids):
        value = _safe(fn, *[k.value for k in kids])
    degree = kids[0].degree if node.value in _SHAPE_KEEPING else 0.0
    return _combine(kids, value, degree)


_SHAPE_KEEPING = frozenset({"Abs", "floor", "ceiling"})
_FLOAT_FNS = {
    "Abs": abs,
    "floor": math.floor,
    "ceiling": math.ceil,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "sinh": math.sinh,
    "cosh": math.cosh,
    "tanh": math.tanh,
    "log": math.log,
}


def _collection(node: Node, lim: Limits) -> _Est:
    kids = [_estimate(k, lim) for k in node.kids]
    if not kids:
        return _Est(0.0, None)
    return _Est(max(k.height for k in kids), None, max(k.degree for k in kids), True)


_ESTIMATORS = {
    "num": _num,
    "sym": _sym,
    "const": _const,
    "add": _add,
    "mul": _mul,
    "neg": _unary,
    "pm": _unary,
    "inv": _unary,
    "frac": _frac,
    "pow": _pow,
    "fact": _fact,
    "root": _root,
    "fn": _fn,
}


def _short(node: Node) -> str:
    text = render(node)
    return text if len(text) <= 60 else text[:57] + "..."
