"""Hidden cases strong enough that near-miss answers fail (the contract "Tests are strong enough").

After a task's cases are drawn, `strengthen` appends hidden rows, never touching the drawn ones
(so a task keeps its id, its prompt and its public cases):

- one *wide* row where the task takes integers and no drawn argument leaves -128..127: the
  drawn arguments under `widen` (or, when results then grow too large, `nudge`), strictly
  increasing maps that keep the sign and zero (sorted lists stay sorted, `n >= 0` stays true)
  and move every nonzero value outside the byte range, so a Java answer comparing boxed `Long`s
  with `==` no longer passes by the small-value cache;
- the fewest rows from a seeded pool (fresh draws from the family's domains and their widened
  forms) that fail every near-miss variant of the reference the drawn hidden rows let through,
  and that give the hidden rows two distinct expected values (`nearmiss.separate`).

Every appended row is checked like a drawn one: the reference finishes within the line budget
and every value stays small enough for every stack: ints within 32 bits in the arguments, the
result and every local variable of the reference while it runs (so no intermediate nears a
JavaScript number's 2^53 or overflows a Rust i64), strings and lists short.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from rlvr.tasksets.synth.nearmiss import (
    Variant,
    killed_by,
    run_bounded,
    separate,
    survivors,
    tag,
)
from rlvr.tasksets.synth.values import Domain

Row = tuple[tuple[Any, ...], Any]
N_POOL = 48
INT_LIMIT = 2**31 - 1
MAX_LEN = 60
BYTE = range(-128, 128)


def widen(value: Any) -> Any:
    """`v -> 200 v + (v mod 7)` on every int inside `value`: strictly increasing, 0 -> 0, signs
    kept, and every nonzero int lands outside -128..127 (-1 -> -194, 1 -> 201)."""
    return _map_ints(value, lambda v: 200 * v + v % 7)


def nudge(value: Any) -> Any:
    """`v -> v + 128 sign(v)` on every int: the gentlest strictly increasing, sign-keeping map
    that leaves the byte range, for tasks whose results grow too fast under `widen`."""
    return _map_ints(value, lambda v: v + 128 * ((v > 0) - (v < 0)))


def _map_ints(value: Any, f: Callable[[int], int]) -> Any:
    if type(value) is int:
        return f(value)
    if isinstance(value, list):
        return [_map_ints(v, f) for v in value]
    if isinstance(value, dict):
        return {k: _map_ints(v, f) for k, v in value.items()}
    return value


def ints_in(value: Any) -> list[int]:
    """Every int inside a value (bools are not ints here)."""
    if type(value) is int:
        return [value]
    if isinstance(value, (list, tuple)):
        return [i for v in value for i in ints_in(v)]
    if isinstance(value, dict):
        return [i for v in value.values() for i in ints_in(v)]
    return []


def _small(value: Any) -> bool:
    if type(value) is int:
        return abs(value) <= INT_LIMIT
    if isinstance(value, str):
        return len(value) <= MAX_LEN
    if isinstance(value, (list, tuple)):
        return len(value) <= MAX_LEN and all(_small(v) for v in value)
    if isinstance(value, dict):
        return len(value) <= MAX_LEN and all(_small(v) for v in value.values())
    return True


def _row(fn: Callable[..., Any], args: tuple[Any, ...]) -> Row | None:
    done, expected = run_bounded(fn, args, INT_LIMIT)
    if not done or not (_small(list(args)) and _small(expected)):
        return None
    return args, expected


def pool(
    r: random.Random,
    fn: Callable[..., Any],
    domains: Sequence[Domain],
    taken: set[str],
    constants: Sequence[int] = (),
) -> list[Row]:
    """Candidate rows not among `taken` (argument tags): fresh draws, each followed by its
    widened form, then `boundary_rows` around the reference's constants, in that order."""
    rows: list[Row] = []
    drawn_rows = [tuple(d.draw(r) for d in domains) for _ in range(N_POOL)]
    wide = [tuple(widen(a) for a in drawn) for drawn in drawn_rows]
    paired = [args for pair in zip(drawn_rows, wide, strict=True) for args in pair]
    for args in [*paired, *boundary_rows(drawn_rows, domains, constants)]:
        key = json.dumps(args, sort_keys=True)
        if key in taken:
            continue
        taken.add(key)
        row = _row(fn, args)
        if row is not None:
            rows.append(row)
    return rows


def boundary_rows(
    drawn: Sequence[tuple[Any, ...]], domains: Sequence[Domain], constants: Sequence[int]
) -> list[tuple[Any, ...]]:
    """Rows that probe the edges a slip moves: each int parameter (or a list or dict of ints)
    set to k-1, k, k+1 and ascending pairs of them for every constant k of the reference, and
    rows where two int parameters are equal. Values stay inside the range the family's own
    domain covers (its edges and draws), so no row leaves the task's stated domain."""
    if not drawn:
        return []
    base = drawn[0]
    rows: list[tuple[Any, ...]] = []
    for i, value in enumerate(base):
        seen = [i_ for row in drawn for i_ in ints_in(row[i])]
        seen += ints_in(list(domains[i].edges))
        if not seen:
            continue
        lo, hi = min(seen), max(seen)
        near = sorted({k + d for k in constants for d in (-1, 0, 1) if lo <= k + d <= hi})
        for v in near:
            for new in _shapes(value, v, [w for w in near if w > v and w - v <= 2]):
                rows.append((*base[:i], new, *base[i + 1 :]))
    ints_at = [i for i, value in enumerate(base) if type(value) is int]
    for a, b in itertools.combinations(ints_at, 2):
        rows.append(tuple(base[a] if j == b else x for j, x in enumerate(base)))
    return rows


def _shapes(value: Any, v: int, above: Sequence[int]) -> list[Any]:
    """`v` in the shape of `value`: the int, or a one- and two-element list or dict."""
    if type(value) is int:
        return [v]
    if isinstance(value, list) and all(type(x) is int for x in value):
        return [[v], *([v, w] for w in above)]
    if isinstance(value, dict) and all(type(x) is int for x in value.values()):
        return [{"a": v}, *({"a": v, "b": w} for w in above)]
    return []


def strengthen(
    r: random.Random,
    fn: Callable[..., Any],
    domains: Sequence[Domain],
    drawn: Sequence[Row],
    n_public: int,
    variants: Sequence[Variant],
    constants: Sequence[int] = (),
) -> list[Row]:
    """The rows to append to the drawn hidden rows (see the module docstring)."""
    taken = {json.dumps(a, sort_keys=True) for a, _ in drawn}
    hidden = list(drawn[n_public:])
    added: list[Row] = []
    has_ints = any(ints_in(list(a)) for a, _ in drawn)
    if has_ints and all(i in BYTE for a, _ in drawn for i in ints_in(list(a))):
        wide = _wide_row(fn, hidden, taken)
        if wide is not None:
            added.append(wide)
    candidates = pool(r, fn, domains, taken, constants)
    chosen = separate([*hidden, *added], candidates, variants)
    return [*added, *(candidates[i] for i in chosen)]


def _wide_row(fn: Callable[..., Any], hidden: Sequence[Row], taken: set[str]) -> Row | None:
    """The first hidden row that `widen` (else `nudge`) moves outside the byte range and on
    which the reference still gives a small result."""
    for transform in (widen, nudge):
        for args, _ in hidden:
            wide = tuple(transform(a) for a in args)
            key = json.dumps(wide, sort_keys=True)
            if key in taken or all(i in BYTE for i in ints_in(list(wide))):
                continue
            row = _row(fn, wide)
            if row is not None:
                taken.add(key)
                return row
    return None


def weak_points(
    hidden: Sequence[Row], candidates: Sequence[Row], variants: Sequence[Variant]
) -> list[str]:
    """What the hidden rows still let through: variants some candidate row fails, and a single
    distinct expected value. Empty for a strong task."""
    problems = [v.description for v in survivors(variants, hidden) if killed_by(v, candidates)]
    if len({tag(e) for _, e in hidden}) < 2:
        problems.append("every hidden case expects the same value")
    return problems
