"""Near-miss variants of a synth reference, and the cases that tell them apart from it.

A hidden case set is only as strong as the wrong answers it fails. A policy drifts into the
plausible slips first: an off-by-one bound, a forgotten `abs`, `<` for `<=`, `min` for `max`, a
constant answer. `variants` writes those slips into the family's own Python reference (trusted
generator code, so running it on the host is fine); `separate` adds, from a pool of candidate
argument rows, the fewest rows (greedily) that make the hidden cases fail every variant that
differs from the reference somewhere in the pool, and a second distinct hidden value so no
constant passes. A variant that agrees with the reference on the whole pool is taken as
equivalent and needs no case.

Variants run under a line budget counted by a trace function, so a slip that loops forever
(`while n >= 0`) stops deterministically and counts as failing, the same on every machine.
"""

from __future__ import annotations

import ast
import copy
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rlvr.pyast import parse

LINE_BUDGET = 20_000
MAX_VARIANTS = 80

_COMPARE: dict[type, tuple[type, ...]] = {
    ast.Lt: (ast.LtE, ast.Gt),
    ast.LtE: (ast.Lt, ast.GtE),
    ast.Gt: (ast.GtE, ast.Lt),
    ast.GtE: (ast.Gt, ast.LtE),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
}
_SWAP_CALL = {"min": "max", "max": "min"}


class _OverBudget(Exception):
    """A variant ran more lines than LINE_BUDGET."""


@dataclass(frozen=True)
class Variant:
    """One slip: what changed, and the callable it compiles to."""

    description: str
    fn: Callable[..., Any]


def variants(source: str, name: str) -> list[Variant]:
    """Single-slip variants of the function `name` in `source` (imports and helpers kept)."""
    tree = parse(source)
    seen = {ast.dump(tree)}
    found: list[Variant] = []
    for description, mutated in _mutations(tree):
        dumped = ast.dump(mutated)
        if dumped in seen:
            continue
        seen.add(dumped)
        namespace: dict[str, Any] = {}
        try:
            exec(compile(ast.fix_missing_locations(mutated), "<near-miss>", "exec"), namespace)
        except Exception:  # a slip that does not even define the function fails every case
            continue
        found.append(Variant(description, namespace[name]))
        if len(found) >= MAX_VARIANTS:
            break
    return found


def int_constants(source: str, limit: int = 8) -> list[int]:
    """The distinct int constants of a reference (`-3` read as -3), in order of appearance."""
    found: list[int] = []
    for node in ast.walk(parse(source)):
        value = None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            node = node.operand
            if isinstance(node, ast.Constant) and type(node.value) is int:
                value = -node.value
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            value = node.value
        if value is not None and value not in found:
            found.append(value)
    return found[:limit]


def _mutations(tree: ast.Module) -> Iterator[tuple[str, ast.Module]]:
    """(description, mutated copy) for every site, in walk order (deterministic)."""
    for idx, node in enumerate(ast.walk(tree)):
        line = getattr(node, "lineno", 0)
        for what, mutated in _at(tree, idx, node):
            yield f"line {line}: {what}", mutated


def _at(tree: ast.Module, idx: int, node: ast.AST) -> Iterator[tuple[str, ast.Module]]:
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            for new in _COMPARE.get(type(op), ()):
                yield (
                    f"comparison {i} -> {new.__name__}",
                    _edit(tree, idx, lambda n, i=i, new=new: n.ops.__setitem__(i, new())),
                )
    elif isinstance(node, ast.Constant) and type(node.value) is int:
        for delta in (1, -1):
            yield (
                f"{node.value} -> {node.value + delta}",
                _edit(tree, idx, lambda n, d=delta: setattr(n, "value", n.value + d)),
            )
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        yield from _call_at(tree, idx, node, node.func.id)


def _call_at(
    tree: ast.Module, idx: int, node: ast.Call, fname: str
) -> Iterator[tuple[str, ast.Module]]:
    if fname == "abs" and len(node.args) == 1:
        yield "abs dropped", _replace(tree, idx, lambda n: n.args[0])
    if fname in _SWAP_CALL:
        yield (
            f"{fname} -> {_SWAP_CALL[fname]}",
            _edit(tree, idx, lambda n: setattr(n.func, "id", _SWAP_CALL[n.func.id])),
        )
    if fname == "range":
        for i, arg in enumerate(node.args[:2]):
            if isinstance(arg, ast.Constant):
                continue  # constants already move by one
            for op in (ast.Add, ast.Sub):
                yield (
                    f"range bound {i} {'+' if op is ast.Add else '-'} 1",
                    _edit(tree, idx, lambda n, i=i, op=op: _shift_arg(n, i, op)),
                )


def _shift_arg(call: ast.Call, i: int, op: type) -> None:
    call.args[i] = ast.BinOp(left=call.args[i], op=op(), right=ast.Constant(1))


def _edit(tree: ast.Module, idx: int, change: Callable[[Any], None]) -> ast.Module:
    new = copy.deepcopy(tree)
    change(next(n for i, n in enumerate(ast.walk(new)) if i == idx))
    return new


def _replace(tree: ast.Module, idx: int, by: Callable[[Any], ast.AST]) -> ast.Module:
    """Replace the node at walk index `idx` with `by(node)` in its parent."""
    new = copy.deepcopy(tree)
    target = next(n for i, n in enumerate(ast.walk(new)) if i == idx)
    for parent in ast.walk(new):
        for field, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, field, by(target))
                return new
            if isinstance(value, list) and any(v is target for v in value):
                value[next(i for i, v in enumerate(value) if v is target)] = by(target)
                return new
    return new


def run_bounded(
    fn: Callable[..., Any], args: Sequence[Any], int_limit: int | None = None
) -> tuple[bool, Any]:
    """(finished, result) of `fn(*args)` on a copy of the arguments; an exception or more than
    LINE_BUDGET traced lines is (False, None). Tuples come back as lists, as the cases hold them.

    `int_limit`: also (False, None) when a local int ever exceeds it, so a case whose result is
    small but whose intermediates overflow an int64 or a JavaScript number (a(5004) of a
    recurrence that returns to 0) is never kept."""
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
            if count > LINE_BUDGET:
                raise _OverBudget
            if (
                int_limit is not None
                and frame.f_code.co_filename == source_file
                and any(type(v) is int and abs(v) > int_limit for v in frame.f_locals.values())
            ):
                raise _OverBudget
        return local

    source_file = getattr(getattr(fn, "__code__", None), "co_filename", None)
    copied = copy.deepcopy(list(args))
    previous = sys.gettrace()
    sys.settrace(lambda frame, event, arg: local)
    try:
        result = fn(*copied)
    except Exception:  # a crash or the budget: the answer fails this case
        return False, None
    finally:
        sys.settrace(previous)
    return True, list(result) if isinstance(result, tuple) else result


def tag(value: Any) -> str:
    """A value's identity as the judge sees it (type-exact JSON: True is not 1)."""
    return json.dumps(_typed(value), sort_keys=True)


def _typed(value: Any) -> Any:
    if isinstance(value, bool):
        return ["bool", value]
    if isinstance(value, (list, tuple)):
        return [_typed(v) for v in value]
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    return value


def killed_by(variant: Variant, rows: Sequence[tuple[Sequence[Any], Any]]) -> bool:
    """Whether some (args, expected) row fails the variant."""
    for args, expected in rows:
        done, got = run_bounded(variant.fn, args)
        if not done or tag(got) != tag(expected):
            return True
    return False


def survivors(
    variants_: Sequence[Variant], hidden: Sequence[tuple[Sequence[Any], Any]]
) -> list[Variant]:
    """The variants every hidden row lets through."""
    return [v for v in variants_ if not killed_by(v, hidden)]


def separate(
    hidden: Sequence[tuple[Sequence[Any], Any]],
    pool: Sequence[tuple[Sequence[Any], Any]],
    variants_: Sequence[Variant],
) -> list[int]:
    """Indices into `pool` of the rows to add to `hidden` so that every variant that differs
    from the reference on hidden + pool fails, and hidden holds two distinct expected values.

    Greedy set cover, first row on ties, so the choice is deterministic and small.
    """
    alive = survivors(variants_, hidden)
    kills = [{i for i, v in enumerate(alive) if killed_by(v, [row])} for row in pool]
    chosen: list[int] = []
    left = set().union(*kills) if kills else set()
    while left:
        best = max(range(len(pool)), key=lambda i: (len(kills[i] & left), -i))
        chosen.append(best)
        left -= kills[best]
    values = {tag(e) for _, e in [*hidden, *(pool[i] for i in chosen)]}
    if len(values) < 2:
        other = next((i for i, (_, e) in enumerate(pool) if tag(e) not in values), None)
        if other is not None:
            chosen.append(other)
    return sorted(chosen)
