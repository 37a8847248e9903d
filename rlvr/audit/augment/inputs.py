"""Type-aware mutation of a function task's arguments (EvalPlus-style input generation).

New argument lists come from the task's own cases, one argument changed at a time by the
declared type: ints moved by one, doubled, negated, set to 0/±1 and to values outside -128..127
and near the 32-bit limits (every stack's `int` holds them: Go `int`, Rust `i64`, JavaScript's
safe integers); floats halved, negated, shifted; strings emptied, doubled, reversed, cut, made
long, given non-ASCII letters; lists emptied, cut to one element, given duplicates, reversed,
sorted, made long, one element mutated by its own type; optionals set to none.

Each input carries the mutation that made it and a tier: `near` keeps the argument inside what
the task's cases already show (numbers between the least and greatest they show, no empty
string or container unless one is shown, no character they do not use), `wide` leaves it.
Values the task never shows may lie outside its contract, so the case selection takes `wide`
inputs only when asked (`--wide`), and then only for a mutant no `near` input kills; the
references of every stack must still agree on it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from rlvr.functions.task import FunctionTask
from rlvr.functions.typelang import FType

Tier = Literal["near", "wide"]
INT_WIDE = (0, 1, -1, 200, -200, 1000003, 2**31 - 1, -(2**31), 2**31, 2**40 + 7)
UNICODE = ("é", "ß", "Ω", "日本")
LONG = 60
MAX_JSON = 4000


@dataclass(frozen=True)
class NewInput:
    """One mutated argument list and how it was made."""

    args: list[Any]
    mutation: str
    tier: Tier


@dataclass
class Domain:
    """What the task's cases show of one argument position (for the near/wide tier)."""

    numbers: list[float]
    empty: bool
    chars: set[str]


def _key(args: list[Any]) -> str:
    return json.dumps(args, sort_keys=True)


def _within(v: float, d: Domain) -> bool:
    """Between the least and the greatest number the task's cases show here (a docstring's
    "1 <= n <= 1000" is a bound the type does not state)."""
    return bool(d.numbers) and min(d.numbers) <= v <= max(d.numbers)


def domain(t: FType, values: list[Any]) -> Domain:
    """Every number inside `values`, whether any container or string is empty, and the
    characters of every string."""
    d = Domain([], False, set())

    def visit(t: FType, v: Any) -> None:
        if v is None:
            return
        if t.kind in ("int", "float") and isinstance(v, int | float):
            d.numbers.append(v)
        elif t.kind == "str":
            d.empty |= v == ""
            d.chars.update(v)
        elif t.kind == "optional":
            visit(t.args[0], v)
        elif t.kind in ("list", "tuple"):
            d.empty |= len(v) == 0
            for i, x in enumerate(v):
                visit(t.args[0] if t.variadic or t.kind == "list" else t.args[i], x)
        elif t.kind == "dict":
            items = v.items() if isinstance(v, dict) else v
            d.empty |= len(items) == 0
            for k, x in items:
                visit(t.args[0], k)
                visit(t.args[1], x)

    for v in values:
        visit(t, v)
    return d


def _ints(v: int, d: Domain) -> Iterator[tuple[Any, str, Tier]]:
    for new, what in ((v + 1, "+1"), (v - 1, "-1"), (v * 2, "*2"), (v * 3 + 1, "*3+1")):
        yield new, f"int {what}", "near" if _within(new, d) else "wide"
    yield -v, "int negated", "near" if _within(-v, d) else "wide"
    for w in INT_WIDE:
        yield w, f"int {w}", "near" if _within(w, d) else "wide"


def _floats(v: float, d: Domain) -> Iterator[tuple[Any, str, Tier]]:
    for new, what in ((v / 2, "/2"), (v + 0.5, "+0.5"), (v * 10, "*10"), (-v, "negated"),
                      (0.0, "0.0"), (v - 1.25, "-1.25")):  # fmt: skip
        yield new, f"float {what}", "near" if _within(new, d) else "wide"


def _strs(v: str, d: Domain) -> Iterator[tuple[Any, str, Tier]]:
    def tier(new: str) -> Tier:  # near: only characters the task's cases already use
        return "near" if set(new) <= d.chars and (new or d.empty) else "wide"

    yield "", "str empty", tier("")
    if v:
        yield v + v, "str doubled", "near"
        yield v[::-1], "str reversed", "near"
        yield v[:-1], "str last char dropped", tier(v[:-1])
        yield v[1:] + v[:1], "str rotated", "near"
        yield v.swapcase(), "str case swapped", tier(v.swapcase())
        yield (v * (LONG // len(v) + 1))[: max(LONG, len(v))], "str long", "near"
        yield v + v[-1], "str last char duplicated", "near"
    for u in UNICODE[:2]:
        yield v + u, f"str + {u!r}", tier(v + u)


def _seq(t: FType, v: list[Any], d: Domain, rng: random.Random) -> Iterator[tuple[Any, str, Tier]]:
    elem = t.args[0]
    yield [], f"{t.kind} empty", "near" if d.empty else "wide"
    if not v:
        return
    yield [v[0]], f"{t.kind} first element only", "near"
    yield [*v, v[-1]], f"{t.kind} last element duplicated", "near"
    yield [v[0], *v], f"{t.kind} first element duplicated", "near"
    yield v[::-1], f"{t.kind} reversed", "near"
    yield v[:-1], f"{t.kind} last element dropped", "near" if len(v) > 1 or d.empty else "wide"
    with_dups = v + v
    rng.shuffle(with_dups)
    yield with_dups, f"{t.kind} doubled and shuffled", "near"
    long = (v * (LONG // len(v) + 1))[:LONG]
    rng.shuffle(long)
    yield long, f"{t.kind} long ({LONG})", "near"
    try:
        ordered: list[Any] | None = sorted(v)
    except TypeError:  # None among optionals, or lists of lists of mixed length
        ordered = None
    if ordered is not None:
        yield ordered, f"{t.kind} sorted", "near"
    i = rng.randrange(len(v))
    for new, what, tier in values_of(elem, v[i], d, rng):
        yield [*v[:i], new, *v[i + 1 :]], f"{t.kind}[{i}] {what}", tier


def _dicts(t: FType, v: Any, d: Domain, rng: random.Random) -> Iterator[tuple[Any, str, Tier]]:
    items = list(v.items()) if isinstance(v, dict) else [list(p) for p in v]
    back: Callable[[list], Any] = dict if isinstance(v, dict) else (lambda x: x)
    yield back([]), "dict empty", "near" if d.empty else "wide"
    if items:
        yield back(items[:-1]), "dict last entry dropped", "near"
        j = rng.randrange(len(items))
        for new, what, tier in values_of(t.args[1], items[j][1], d, rng):
            changed = [*items[:j], [items[j][0], new], *items[j + 1 :]]
            yield back(changed), f"dict value {what}", tier


def values_of(t: FType, v: Any, d: Domain, rng: random.Random) -> Iterator[tuple[Any, str, Tier]]:
    """Mutations of one value of type `t`: (new value, what changed, tier)."""
    k = t.kind
    if k == "int" and isinstance(v, int):
        yield from _ints(v, d)
    elif k == "float" and isinstance(v, int | float):
        yield from _floats(float(v), d)
    elif k == "bool":
        yield (not v), "bool flipped", "near"
    elif k == "str":
        yield from _strs(v, d)
    elif k == "optional":
        if v is not None:
            yield None, "optional none", "wide"
            yield from values_of(t.args[0], v, d, rng)
    elif k == "list" or (k == "tuple" and t.variadic):
        yield from _seq(t, list(v), d, rng)
    elif k == "tuple" and v:
        i = rng.randrange(len(v))
        for new, what, tier in values_of(t.args[i], v[i], d, rng):
            yield [*v[:i], new, *v[i + 1 :]], f"tuple[{i}] {what}", tier
    elif k == "dict":
        yield from _dicts(t, v, d, rng)


def new_inputs(task: FunctionTask, seed: int, limit: int) -> list[NewInput]:
    """Up to `limit` distinct argument lists not among the task's cases (a seeded sample, near
    inputs first), each from one case with one argument mutated."""
    types = task.signature.param_types
    rng = random.Random(f"{seed}:{task.id}")
    domains = [domain(t, [c.args[i] for c in task.cases]) for i, t in enumerate(types)]
    seen = {_key(c.args) for c in task.cases}
    found: list[NewInput] = []
    for c in task.cases:
        for i, t in enumerate(types):
            for new, what, tier in values_of(t, c.args[i], domains[i], rng):
                args = [*c.args[:i], new, *c.args[i + 1 :]]
                key = _key(args)
                if key in seen or len(key) > MAX_JSON:
                    continue
                seen.add(key)
                found.append(NewInput(args, f"args[{i}]: {what}", tier))
    near = [x for x in found if x.tier == "near"]
    wide = [x for x in found if x.tier == "wide"]
    rng.shuffle(near)
    rng.shuffle(wide)
    half = limit // 2
    take_wide = wide[: max(half, limit - len(near))]
    return (near[: limit - len(take_wide)] + take_wide)[:limit]
