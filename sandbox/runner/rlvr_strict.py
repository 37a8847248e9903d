"""Strict comparisons for rewritten test asserts (runs inside the sandbox, stdlib only).

rlvr rewrites `assert a == b` in test files into `assert _rlvr.eq(a, b)` on the host. `eq`
never calls the answer's `__eq__`: both sides are turned into a canonical form made only of
builtin values (type name + contents, recursively) and those are compared. So an object whose
`__eq__` always returns True, or whose `__bool__` lies, does not pass. Numbers compare by value
across int and float (as Python does); bool is not a number here; other types must match
exactly. `type` and friends are bound as default arguments so that an answer patching `builtins`
does not change the type checks.
"""

from __future__ import annotations

import math
import operator

_NoneType = type(None)
_MAX_DEPTH = 200
_TRUSTED_DICTS = ("collections.OrderedDict", "collections.defaultdict", "collections.Counter")


class Unsupported(Exception):
    """The value cannot be compared without trusting its own methods."""


def _qualname(t: type) -> str:
    return f"{t.__module__}.{t.__qualname__}"


def canon(x, depth=0, _type=type, _tuple=tuple, _sorted=sorted, _repr=repr, _isnan=math.isnan):
    """A nested tuple of builtin values that stands for `x` (never calls x's own methods)."""
    if depth > _MAX_DEPTH:
        raise Unsupported("value nested too deeply")
    t = _type(x)
    if t is bool:
        return ("bool", x)
    if t is int:
        return ("num", x)
    if t is float:
        return ("nan",) if _isnan(x) else ("num", x)
    if t is str or t is bytes or t is complex or t is _NoneType:
        return (t.__name__, x)
    if t is list or t is tuple:
        return (t.__name__, _tuple(canon(e, depth + 1) for e in x))
    if t is dict or _qualname(t) in _TRUSTED_DICTS:
        items = [(canon(k, depth + 1), canon(v, depth + 1)) for k, v in dict.items(x)]
        return ("dict", _tuple(_sorted(items, key=_repr)))
    if t is set or t is frozenset:
        return (t.__name__, _tuple(_sorted((canon(e, depth + 1) for e in x), key=_repr)))
    if t is range:
        return ("range", x.start, x.stop, x.step)
    if t.__module__ == "rpc":  # a handle to an object in the answer's process: no state here
        raise Unsupported("an object that lives in the answer's process cannot be compared")
    try:
        return _canon_object(x, t, depth)
    except (TypeError, AttributeError, ValueError) as e:
        raise Unsupported(f"cannot read the state of a {_qualname(t)} object ({e})") from None


def _canon_object(x, t, depth):
    """User-defined objects: compared by their type and their stored state, never by __eq__."""
    name = _qualname(t)
    parts: list = [name]
    if isinstance(x, list):
        parts.append(canon(list(list.__iter__(x)), depth + 1))
    elif isinstance(x, tuple):
        parts.append(canon(tuple(tuple.__iter__(x)), depth + 1))
    elif isinstance(x, dict):
        parts.append(canon(dict(dict.items(x)), depth + 1))
    elif isinstance(x, str):
        parts.append(canon(str.__add__("", x), depth + 1))
    elif isinstance(x, int):
        parts.append(canon(int.__add__(0, x), depth + 1))
    state = getattr(x, "__dict__", None)
    if type(state) is dict:
        parts.append(canon(dict(state), depth + 1))
    for cls in t.__mro__:
        for slot in cls.__dict__.get("__slots__", ()):
            if isinstance(slot, str) and slot not in ("__dict__", "__weakref__"):
                parts.append((slot, canon(getattr(x, slot, None), depth + 1)))
    if len(parts) == 1:
        if t.__eq__ is object.__eq__:
            return ("id", id(x))
        raise Unsupported(f"a {name} object has no state to compare")
    return ("obj", tuple(parts))


def _approx(x) -> bool:
    t = type(x)
    return t.__module__.startswith("_pytest") and t.__name__.startswith("Approx")


def eq(a, b) -> bool:
    """`a == b` without trusting either side's __eq__."""
    if _approx(a) or _approx(b):
        approx, other = (a, b) if _approx(a) else (b, a)
        try:
            canon(other)
        except Unsupported:
            return False
        return bool(approx == other)
    try:
        return canon(a) == canon(b)
    except (Unsupported, RecursionError):
        return False


def ne(a, b) -> bool:
    if _approx(a) or _approx(b):
        return not eq(a, b)
    try:
        return canon(a) != canon(b)
    except (Unsupported, RecursionError):
        return False


_ORDERED = (int, float, str, bytes, tuple, list)
_OPS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _plain(x, depth=0) -> bool:
    t = type(x)
    if t is tuple or t is list:
        return depth < _MAX_DEPTH and all(_plain(e, depth + 1) for e in x)
    return t in _ORDERED


def order(op: str, a, b) -> bool:
    """`a < b` etc. for builtin numbers, strings and sequences of them only."""
    if not (_plain(a) and _plain(b)):
        return False
    try:
        return bool(_OPS[op](a, b))
    except TypeError:
        return False


def contains(item, container) -> bool:
    """`item in container` for builtin containers, comparing canonical forms."""
    t = type(container)
    if t is str or t is bytes:
        return type(item) is t and t.__contains__(container, item)
    if t not in (list, tuple, set, frozenset, dict, range):
        return False
    try:
        target = canon(item)
        return any(canon(e) == target for e in (dict.keys(container) if t is dict else container))
    except (Unsupported, RecursionError):
        return False


def not_contains(item, container) -> bool:
    t = type(container)
    if t not in (str, bytes, list, tuple, set, frozenset, dict, range):
        return False
    if (t is str or t is bytes) and type(item) is not t:
        return False
    return not contains(item, container)


def cmp(op: str, a, b) -> bool:
    """Dispatch one comparison operator by name (used for chained comparisons)."""
    if op == "==":
        return eq(a, b)
    if op == "!=":
        return ne(a, b)
    if op == "in":
        return contains(a, b)
    if op == "not in":
        return not_contains(a, b)
    if op == "is":
        return a is b
    if op == "is not":
        return a is not b
    return order(op, a, b)


def chain(ops: list, *values) -> bool:
    """`v0 op0 v1 op1 v2 ...` (operands already evaluated once, left to right)."""
    return all(cmp(op, values[i], values[i + 1]) for i, op in enumerate(ops))


def truth(x) -> bool:
    """`bool(x)` for builtin values only: an object's own __bool__/__len__ is not trusted."""
    t = type(x)
    if t in (bool, int, float, complex, str, bytes, list, tuple, dict, set, frozenset, range):
        return bool(x)
    if x is None:
        return False
    return False


def falsy(x) -> bool:
    """`not x` for builtin values only."""
    t = type(x)
    if t in (bool, int, float, complex, str, bytes, list, tuple, dict, set, frozenset, range):
        return not x
    return x is None
