"""Types for the type language from Python: typing annotations, and the values a test uses.

Converters of existing task sets (HumanEval) and generators use it: an annotation such as
`List[Tuple[int, str]]` maps directly; a missing or vague one (`list`, `Any`, none at all) is
inferred from every value seen for that position: ints and floats unify to float, `None`
beside values makes an optional, arrays of different lengths make a variadic tuple. Values of
unrelated types (a str and an int) cannot be typed: `InferError` says which.

    >>> str(infer_type([[1, 2], [], [3.5]]))
    'list[float]'
    >>> str(annotation_type("Optional[List[str]]"))
    'optional[list[str]]'
"""

from __future__ import annotations

import ast
from typing import Any

from rlvr.functions.typelang import FType, TypeMismatch, encode

_SCALAR_NAMES = {"int": "int", "float": "float", "bool": "bool", "str": "str", "None": "none"}
_GENERIC_NAMES = {
    "List": "list", "list": "list", "Dict": "dict", "dict": "dict", "Tuple": "tuple",
    "tuple": "tuple", "Optional": "optional",
}  # fmt: skip


_UNKNOWN = FType("unknown")


class InferError(ValueError):
    """No type of the type language fits."""


def annotation_type(text: str | None) -> FType | None:
    """A typing annotation -> FType; None when it is absent or too vague (`list`, `Any`)."""
    if not text:
        return None
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    return _from_node(node)


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    return None


def _from_node(node: ast.AST) -> FType | None:
    name = _name(node)
    if name in _SCALAR_NAMES:
        return FType(_SCALAR_NAMES[name])
    if not isinstance(node, ast.Subscript):
        return None
    kind = _GENERIC_NAMES.get(_name(node.value) or "")
    if kind is None:
        return None
    elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if kind == "tuple" and len(elts) == 2 and getattr(elts[1], "value", None) is Ellipsis:
        inner = _from_node(elts[0])
        return FType("tuple", (inner,), variadic=True) if inner else None
    args = [_from_node(e) for e in elts]
    if any(a is None for a in args):
        return None
    want = {"list": 1, "dict": 2, "optional": 1}.get(kind)
    if want is not None and len(args) != want:
        return None
    return FType(kind, tuple(args))  # type: ignore[arg-type]


def _of(value: Any) -> FType | None:
    """The type of one value; None for None (it only makes its siblings optional)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return FType("bool")
    if isinstance(value, int):
        return FType("int")
    if isinstance(value, float):
        return FType("float")
    if isinstance(value, str):
        return FType("str")
    if isinstance(value, list):
        return FType("list", (_elements(value),))
    if isinstance(value, tuple):
        if not value:
            return FType("tuple", (_UNKNOWN,), variadic=True)
        return FType("tuple", tuple(_elements([v]) for v in value))
    if isinstance(value, dict):
        return FType("dict", (_elements(list(value)), _elements(list(value.values()))))
    raise InferError(f"a {type(value).__name__} value ({str(value)[:40]}) has no type here")


def _elements(values: list) -> FType:
    return infer_type(values, unknown_ok=True)


def _unify(a: FType, b: FType) -> FType:
    if a == b or b == _UNKNOWN:
        return a
    if a == _UNKNOWN:
        return b
    if a.kind == "optional" or b.kind == "optional":
        inner_a = a.args[0] if a.kind == "optional" else a
        inner_b = b.args[0] if b.kind == "optional" else b
        return FType("optional", (_unify(inner_a, inner_b),))
    if {a.kind, b.kind} == {"int", "float"}:
        return FType("float")
    if a.kind == b.kind == "list":
        return FType("list", (_unify(a.args[0], b.args[0]),))
    if a.kind == b.kind == "dict":
        return FType("dict", tuple(_unify(x, y) for x, y in zip(a.args, b.args, strict=True)))
    if a.kind == b.kind == "tuple":
        if not a.variadic and not b.variadic and len(a.args) == len(b.args):
            return FType("tuple", tuple(_unify(x, y) for x, y in zip(a.args, b.args, strict=True)))
        elems = [*a.args, *b.args]
        out = elems[0]
        for e in elems[1:]:
            out = _unify(out, e)
        return FType("tuple", (out,), variadic=True)
    raise InferError(f"values of different types ({_show(a)} and {_show(b)})")


def _show(t: FType) -> str:
    return str(t).replace("unknown", "?")


def _settle(t: FType) -> FType:
    """Unknown element types (only empty containers were seen) default to int."""
    if t == _UNKNOWN:
        return FType("int")
    return FType(t.kind, tuple(_settle(a) for a in t.args), t.variadic)


def infer_type(values: list[Any], unknown_ok: bool = False) -> FType:
    """The narrowest type that fits every value (see the module docstring)."""
    out = _UNKNOWN
    optional = False
    for v in values:
        t = _of(v)
        if t is None:
            optional = True
            continue
        out = _unify(out, t)
    if optional and out.kind != "optional":
        out = FType("optional", (out,))
    if unknown_ok:
        return out
    out = _settle(out)
    return FType("none") if out == FType("optional", (FType("int"),)) and not values else out


def fits(t: FType, values: list[Any]) -> bool:
    """Whether every value fits `t` (a declared annotation checked against the test's values)."""
    try:
        for v in values:
            encode(t, v)
    except TypeMismatch:
        return False
    return True
