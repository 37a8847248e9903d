"""Types and expression helpers of from_python.py (Python reference -> Java).

Python's meaning is kept where Java's differs: `//` and `%` are `Math.floorDiv`/`floorMod`
(plain `%` when only compared with 0), a string is iterated as `char`s, slices clamp their end,
`s.split()` drops empty words, boxed values compare with `.equals`, `a or b` on strings and
lists picks a value, `a < b < c` is two tests. Ints are `long` (a `len`, an `int` index loop
and literals stay `int`, widened where a `Long` is needed), a constant negative index counts
from the end, any other index is taken as non-negative (true of every family; a negative one
fails loudly). Types of locals come from their assignments, `append`s, subscript stores and
the returned type, unified over three passes; comprehensions become loops before their
statement.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

T = Any  # "int" | "float" | "bool" | "str" | "char" | "none" | ("list", T) | ("dict", K, V) ...
ATOM, UNARY, CAST, MUL, ADD, REL, EQ, AND, OR, COND = 16, 14, 13, 12, 11, 9, 8, 4, 3, 2
PRIM = {"int": "long", "float": "double", "bool": "boolean", "str": "String", "char": "char"}
BOX = {"int": "Long", "float": "Double", "bool": "Boolean", "str": "String", "char": "Character"}
OPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}
ARITH = {ast.Add: ("+", ADD), ast.Sub: ("-", ADD), ast.Mult: ("*", MUL)}


class Unsupported(Exception):
    """The reference uses something this renderer does not translate."""


@dataclass
class E:
    """A rendered expression: Java code, Python type, precedence, and how Java holds it."""

    code: str
    t: T
    p: int = ATOM
    boxed: bool = False  # a Long from a collection: `==` between two must be `.equals`
    narrow: bool = False  # a Java int (literal, size(), index loop) standing for a Python int


def from_ftype(t: Any) -> T:
    """The renderer's type of a type-language `FType`."""
    if t.kind in ("list", "optional", "dict"):
        kind = {"optional": "opt"}.get(t.kind, t.kind)
        return (kind, *(from_ftype(a) for a in t.args))
    if t.kind == "tuple":
        return ("tuple", *(from_ftype(a) for a in t.args))
    return t.kind


def java(t: T, boxed: bool = False) -> str:
    """The Java type (boxed inside generics and for optionals)."""
    if t is None:
        raise Unsupported("a type could not be inferred")
    if isinstance(t, str):
        return (BOX if boxed else PRIM).get(t) or "Object"
    kind, *args = t
    if kind == "opt":
        return java(args[0], True)
    if kind == "dict":
        return f"Map<{java(args[0], True)}, {java(args[1], True)}>"
    if kind == "tuple":
        return f"List<{java(args[0], True) if len(set(args)) == 1 else 'Object'}>"
    return f"{'List' if kind == 'list' else 'Set'}<{java(args[0], True)}>"


def unify(a: T, b: T) -> T:
    """One type for two assignments of a variable (None: not known yet)."""
    if a is None or a == b:
        return b
    if b is None:
        return a
    if "none" in (a, b):
        other = b if a == "none" else a
        return other if isinstance(other, tuple) and other[0] == "opt" else ("opt", other)
    if {a, b} <= {"int", "float"} or {a, b} <= {"str", "char"}:
        return "float" if "float" in (a, b) else "str"
    if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] and len(a) == len(b):
        return (a[0], *(unify(x, y) for x, y in zip(a[1:], b[1:], strict=True)))
    if isinstance(a, tuple) and a[0] == "opt":
        return ("opt", unify(a[1], b))
    raise Unsupported(f"a variable holds both {a} and {b}")


def held(t: T) -> T:
    """A value's type inside a container: a char is kept as a one-letter String."""
    return "str" if t == "char" else t


def wrap(e: E, p: int) -> str:
    return e.code if e.p >= p else f"({e.code})"


def jstr(s: str) -> str:
    out = "".join({'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t"}.get(c, c) for c in s)
    return f'"{out}"'


def jchar(c: str) -> str:
    return "'" + {"'": "\\'", "\\": "\\\\", "\n": "\\n", "\t": "\\t"}.get(c, c) + "'"


def box(e: E, t: T = None) -> E:
    """`e` where a boxed value of (Python) type `t` is wanted: widen ints, chars to Strings."""
    want = held(t if t is not None else e.t)
    if e.t == "char" and want == "str":
        return E(f"String.valueOf({e.code})", "str")
    if e.t == "int" and want == "float":
        return E(f"(double) {wrap(e, CAST)}", "float", CAST)
    if e.t == "int" and e.narrow:
        if e.code.lstrip("-").isdigit():
            return E(e.code + "L", "int", e.p)
        return E(f"(long) {wrap(e, CAST)}", "int", CAST)
    return e


def coerce(e: E, t: T) -> E:
    """`e` as a value of declared type `t` (a variable's, a parameter's or the result's)."""
    if isinstance(t, tuple) or t in ("str", "float") or e.t == "none":
        if isinstance(t, tuple) and t[0] == "opt":
            return box(e, t[1]) if e.t != "none" else E("null", t)
        return box(e, t) if not isinstance(t, tuple) else e
    return e


def falsy(e: E) -> E:
    """Python's `not e`, on what the subset applies it to."""
    if e.t == "bool":
        return E(f"!{wrap(e, UNARY)}", "bool", UNARY)
    if e.t in ("int", "float", "char"):
        return E(f"{wrap(e, REL)} == 0", "bool", EQ)
    if isinstance(e.t, tuple) and e.t[0] == "opt":
        return E(f"{wrap(e, REL)} == null", "bool", EQ)
    return E(f"{wrap(e, ATOM)}.isEmpty()", "bool")


def truthy(e: E) -> E:
    if e.t == "bool":
        return e
    f = falsy(e)
    if f.code.endswith(".isEmpty()"):
        return E("!" + f.code, "bool", UNARY)
    return E(f.code.replace(" == ", " != "), "bool", EQ)


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


Namer = Callable[[str], str]
