"""The small type language of function tasks, and the canonical JSON encoding of typed values.

Types are written as strings: `int`, `float`, `bool`, `str`, `none`, `list[T]`, `dict[K, V]`,
`optional[T]`, `tuple[A, B, ...]` (fixed length, one type per position) and `tuple[T, ...]`
(any length, one element type). That covers every signature HumanEval uses and maps onto every
stack's own types (see each `envs/<stack>/translator.py`).

Canonical JSON of a typed value (what task files store and what every driver writes back):

| type | JSON |
| --- | --- |
| `int` | an integer (never `true`/`false`, never `3.0`) |
| `float` | a number; non-finite values as the strings `"nan"`, `"inf"`, `"-inf"` |
| `bool` | `true` / `false` |
| `str` | a string |
| `none` | `null` |
| `list[T]`, `tuple[...]` | an array (a fixed tuple has exactly its arity) |
| `dict[str, V]` | an object |
| `dict[K, V]`, K not `str` | an array of `[key, value]` pairs, keys unique |
| `optional[T]` | `null` or T's encoding |

Decoding is strict and typed by the signature: `true` is not an `int`, `1.5` is not an `int`, an
array of the wrong arity is not a tuple. A JSON integer is accepted where a `float` is declared
(JavaScript and Go print `3.0` as `3`).

    >>> t = parse_type("dict[int, list[str]]")
    >>> decode(t, [[1, ["a"]], [2, []]])
    {1: ['a'], 2: []}
    >>> encode(t, {1: ["a"]})
    [[1, ['a']]]
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

SCALARS = ("int", "float", "bool", "str", "none")
GENERICS = {"list": 1, "dict": 2, "optional": 1, "tuple": -1}
MAX_DEPTH = 32
_TOKEN = re.compile(r"\s*(?:([A-Za-z_]+)|(\.\.\.)|([\[\],]))")


class TypeSyntaxError(ValueError):
    """A type string does not parse."""


class TypeMismatch(ValueError):
    """A value does not have the declared type; `path` says where inside it."""

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(f"{path or 'value'}: {message}")


@dataclass(frozen=True)
class FType:
    """A parsed type: `kind` is a scalar name or a generic name; `args` its parameters.

    `variadic` marks `tuple[T, ...]` (then `args == (T,)`).
    """

    kind: str
    args: tuple[FType, ...] = ()
    variadic: bool = False

    def __str__(self) -> str:
        if not self.args:
            return self.kind
        inner = ", ".join(str(a) for a in self.args)
        return f"{self.kind}[{inner}{', ...' if self.variadic else ''}]"

    @property
    def is_fixed_tuple(self) -> bool:
        return self.kind == "tuple" and not self.variadic

    def walk(self) -> list[FType]:
        """This type and every type nested in it, outermost first."""
        out = [self]
        for a in self.args:
            out.extend(a.walk())
        return out


def _tokens(text: str) -> list[str]:
    pos, out = 0, []
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise TypeSyntaxError(
                f"type {text!r}: unexpected character {text[pos]!r} at position {pos}; "
                "write types like int, list[str], dict[str, int], optional[float], tuple[int, str]"
            )
        out.append(m.group(m.lastindex or 0))
        pos = m.end()
    return out


def parse_type(text: str) -> FType:
    """Parse a type string; TypeSyntaxError names the problem and the accepted forms."""
    if not isinstance(text, str):
        raise TypeSyntaxError(f"a type must be a string like 'list[int]', got {text!r}")
    toks = _tokens(text)
    if not toks:
        raise TypeSyntaxError("empty type; write one of " + ", ".join(SCALARS) + " or list[T]...")
    t, pos = _parse(toks, 0, text, 0)
    if pos != len(toks):
        raise TypeSyntaxError(f"type {text!r}: unexpected {toks[pos]!r} after {t}")
    return t


def _parse(toks: list[str], pos: int, text: str, depth: int) -> tuple[FType, int]:
    if depth > MAX_DEPTH:
        raise TypeSyntaxError(f"type {text!r} nests deeper than {MAX_DEPTH}")
    name = toks[pos] if pos < len(toks) else "<end>"
    low = name.lower()
    if low in SCALARS:
        return FType(low), pos + 1
    if low not in GENERICS:
        known = ", ".join([*SCALARS, *(f"{g}[...]" for g in GENERICS)])
        raise TypeSyntaxError(f"type {text!r}: unknown type {name!r}; known: {known}")
    if pos + 1 >= len(toks) or toks[pos + 1] != "[":
        raise TypeSyntaxError(f"type {text!r}: {low} needs parameters, e.g. {low}[int]")
    args, variadic, pos = [], False, pos + 2
    while True:
        if pos < len(toks) and toks[pos] == "..." and low == "tuple" and len(args) == 1:
            variadic, pos = True, pos + 1
        else:
            arg, pos = _parse(toks, pos, text, depth + 1)
            args.append(arg)
        if pos < len(toks) and toks[pos] == ",":
            pos += 1
            continue
        if pos < len(toks) and toks[pos] == "]":
            pos += 1
            break
        raise TypeSyntaxError(f"type {text!r}: expected ',' or ']' in {low}[...]")
    want = GENERICS[low]
    if want > 0 and len(args) != want:
        raise TypeSyntaxError(f"type {text!r}: {low} takes {want} parameter(s), got {len(args)}")
    if low == "optional" and args[0].kind in ("optional", "none"):
        raise TypeSyntaxError(f"type {text!r}: optional[{args[0]}] is not allowed")
    return FType(low, tuple(args), variadic), pos


def _float(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise TypeMismatch(f"expected float, got {_kind(value)}", path)
    if isinstance(value, str):
        special = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
        if value not in special:
            raise TypeMismatch(f"expected float, got string {value[:40]!r}", path)
        return special[value]
    try:
        return float(value)
    except OverflowError:
        raise TypeMismatch("integer too large for a float", path) from None


def _kind(value: Any) -> str:
    names = {bool: "bool", int: "int", float: "float", str: "string", list: "array",
             dict: "object", type(None): "null", tuple: "tuple"}  # fmt: skip
    return names.get(type(value), type(value).__name__)


def _scalar(t: FType, value: Any, path: str) -> Any:
    k = t.kind
    if k == "float":
        return _float(value, path)
    ok = {
        "int": type(value) is int,
        "bool": type(value) is bool,
        "str": type(value) is str,
        "none": value is None,
    }[k]
    if not ok:
        return _mismatch(t, value, path)
    return value


def _mismatch(t: FType, value: Any, path: str) -> Any:
    raise TypeMismatch(f"expected {t}, got {_kind(value)} {str(value)[:40]}", path)


def decode(t: FType, value: Any, path: str = "") -> Any:
    """Canonical JSON -> Python value of type `t` (tuples as tuple, maps as dict)."""
    if t.kind in SCALARS:
        return _scalar(t, value, path)
    if t.kind == "optional":
        return None if value is None else decode(t.args[0], value, path)
    if t.kind == "dict":
        return _decode_dict(t, value, path)
    if not isinstance(value, list):
        return _mismatch(t, value, path)
    if t.is_fixed_tuple:
        if len(value) != len(t.args):
            raise TypeMismatch(f"expected {t} ({len(t.args)} items), got {len(value)}", path)
        return tuple(
            decode(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(t.args, value, strict=True))
        )
    items = [decode(t.args[0], v, f"{path}[{i}]") for i, v in enumerate(value)]
    return tuple(items) if t.kind == "tuple" else items


def _decode_dict(t: FType, value: Any, path: str) -> dict:
    key_t, val_t = t.args
    if key_t.kind == "str":
        if not isinstance(value, dict):
            return _mismatch(t, value, path)
        return {k: decode(val_t, v, f"{path}[{k!r}]") for k, v in value.items()}
    if not isinstance(value, list):
        raise TypeMismatch(f"expected {t} as a list of [key, value] pairs", path)
    out: dict = {}
    for i, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise TypeMismatch(f"expected a [key, value] pair, got {_kind(pair)}", f"{path}[{i}]")
        key = decode(key_t, pair[0], f"{path}[{i}][0]")
        if key in out:
            raise TypeMismatch(f"duplicate key {key!r}", f"{path}[{i}]")
        out[key] = decode(val_t, pair[1], f"{path}[{i}][1]")
    return out


def encode(t: FType, value: Any, path: str = "") -> Any:
    """Python value of type `t` -> canonical JSON (checks the type on the way)."""
    if t.kind == "float":
        f = _float(value, path)
        return f if math.isfinite(f) else ("nan" if math.isnan(f) else ("inf" if f > 0 else "-inf"))
    if t.kind in SCALARS:
        return _scalar(t, value, path)
    if t.kind == "optional":
        return None if value is None else encode(t.args[0], value, path)
    if t.kind == "dict":
        if not isinstance(value, dict):
            return _mismatch(t, value, path)
        key_t, val_t = t.args
        if key_t.kind == "str":
            return {
                encode(key_t, k, path): encode(val_t, v, f"{path}[{k!r}]") for k, v in value.items()
            }
        return [
            [encode(key_t, k, path), encode(val_t, v, f"{path}[{k!r}]")] for k, v in value.items()
        ]
    if not isinstance(value, list | tuple):
        return _mismatch(t, value, path)
    if t.is_fixed_tuple:
        if len(value) != len(t.args):
            raise TypeMismatch(f"expected {t} ({len(t.args)} items), got {len(value)}", path)
        return [
            encode(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(t.args, value, strict=True))
        ]
    return [encode(t.args[0], v, f"{path}[{i}]") for i, v in enumerate(value)]


def canonical(t: FType, value: Any) -> Any:
    """Normalise canonical JSON (e.g. `3` for a float becomes `3.0`) by a decode/encode trip."""
    return encode(t, decode(t, value))


def values_equal(t: FType, got: Any, want: Any, abs_tol: float | None = None) -> bool:
    """Typed equality of two decoded values: floats within `abs_tol` (strictly less, as
    HumanEval's `abs(a - b) < 1e-6`) or exactly (NaN equals NaN); maps by key, unordered."""
    k = t.kind
    if k == "float":
        if math.isnan(got) or math.isnan(want):
            return math.isnan(got) and math.isnan(want)
        if abs_tol is None or math.isinf(got) or math.isinf(want):
            return got == want
        return abs(got - want) < abs_tol
    if k in SCALARS:
        return type(got) is type(want) and got == want
    if k == "optional":
        if got is None or want is None:
            return got is None and want is None
        return values_equal(t.args[0], got, want, abs_tol)
    if k == "dict":
        if set(got) != set(want):
            return False
        return all(values_equal(t.args[1], got[key], want[key], abs_tol) for key in want)
    if len(got) != len(want):
        return False
    elems = t.args if t.is_fixed_tuple else (t.args[0],) * len(want)
    return all(values_equal(e, g, w, abs_tol) for e, g, w in zip(elems, got, want, strict=True))
