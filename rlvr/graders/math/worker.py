"""What a grading worker process runs: parse, measure and compare one group's answers.

The parent ships a whole group in one batch: `common` holds the normalised gold and the limits,
each item is one answer's normalised candidates (or None to check the gold alone). The gold is
parsed once per worker and group (an LRU cache keyed by the gold), not once per answer. Results
are plain dicts so they pickle cheaply.
"""

from __future__ import annotations

import gc
import os
import resource
from functools import lru_cache
from typing import Any

from rlvr.graders.math.chains import chain_conflict
from rlvr.graders.math.compare import Outcome, equal
from rlvr.graders.math.guard import Limits, TooBig, check_size
from rlvr.graders.math.parse import parse
from rlvr.graders.math.rules import Rules
from rlvr.graders.math.tree import Node, ParseError, render
from rlvr.graders.math.values import NotComparable, to_value

Common = tuple[str, Limits, Rules]
Forms = tuple[str, ...]


class GoldError(ValueError):
    """The gold answer cannot be read; the task, not the model, is at fault."""


@lru_cache(maxsize=256)
def _gold(gold: str, limits: Limits) -> tuple[Node, str] | GoldError:
    try:
        tree = parse(gold)
        check_size(tree, limits)
        return to_value(tree), render(tree)
    except (ParseError, TooBig, NotComparable, RecursionError) as exc:
        return GoldError(f"the gold answer {_clip(gold)} cannot be read: {exc}")


def _answer(candidate: str, limits: Limits, rules: Rules) -> tuple[Node | None, str, str]:
    """(value, parsed form, reason it could not be read or is false on its face)."""
    try:
        tree = parse(candidate)
    except ParseError as exc:
        return None, "", f"could not read the answer {_clip(candidate)}: {exc}"
    except RecursionError:
        return None, "", "the answer is nested too deeply to read"
    shown = ""
    try:
        shown = render(tree)
        check_size(tree, limits)
        value = to_value(tree)
        conflict = chain_conflict(tree, rules)
    except RecursionError:
        return None, shown, "the answer is nested too deeply to check"
    except TooBig as exc:
        return None, shown, f"the answer is too large to check: {exc}"
    except NotComparable as exc:
        return None, shown, f"the answer cannot be compared: {exc}"
    except Exception as exc:  # `pmatrix + 1`: sympy refuses the value; a reject, never a mask
        return None, shown, f"the answer has no value ({type(exc).__name__}: {exc})"[:300]
    return (None, shown, conflict) if conflict else (value, shown, "")


def _clip(text: str) -> str:
    return "'" + (text if len(text) <= 60 else text[:57] + "...") + "'"


def _compare(gold: Node, forms: Forms, limits: Limits, rules: Rules) -> tuple[Outcome, str, str]:
    """(outcome, parsed form, checker exception) of one candidate: any of its forms may match."""
    first: tuple[Outcome, str, str] | None = None
    for form in forms:
        value, shown, problem = _answer(form, limits, rules)
        if value is None:
            result = (Outcome(False, problem), shown, "")
        else:
            result = _equal(gold, value, rules, shown)
        if result[0].equal:
            return result
        first = first or result
    assert first is not None
    return first


def _equal(gold: Node, value: Node, rules: Rules, shown: str) -> tuple[Outcome, str, str]:
    try:
        return equal(gold, value, rules), shown, ""
    except (RecursionError, MemoryError, TooBig, NotComparable) as exc:
        return Outcome(False, f"the answer is too complex to compare: {exc}"), shown, ""
    except Exception as exc:  # sympy failing on an odd answer: reject, and flag it
        problem = f"{type(exc).__name__}: {exc}"[:300]
        return (
            Outcome(False, f"the checker could not compare this answer ({problem})"),
            shown,
            problem,
        )


def check_candidates(
    common: Common, item: tuple[tuple[Forms, ...], Forms | None] | None
) -> dict[str, Any]:
    """Grade one answer's candidates against the group's gold (item None: check the gold only).

    Boxes read together (`joined`) replace the separate candidates only when the gold itself
    has several members, so a hedge against a one-value gold stays several answers.
    """
    gold_text, limits, rules = common
    gold = _gold(gold_text, limits)
    if isinstance(gold, GoldError):
        return {"status": "grader_error", "reason": str(gold)}
    gold_value, gold_shown = gold
    if item is None:
        return {"status": "ok", "gold_parsed": gold_shown}
    candidates, joined = item
    if joined is not None and gold_value.kind == "set" and len(gold_value.kids) > 1:
        candidates = (joined,)
    parsed: list[str] = []
    outcomes: list[Outcome] = []
    flags: list[str] = []
    for forms in candidates:
        outcome, shown, problem = _compare(gold_value, forms, limits, rules)
        parsed.append(shown)
        outcomes.append(outcome)
        if problem:
            flags.append(problem)
    passed = all(o.equal for o in outcomes)
    _trim_caches()
    return {
        "status": "scored",
        "passed": passed,
        "reason": _reason(tuple(f[0] for f in candidates), outcomes),
        "gold_parsed": gold_shown,
        "answer_parsed": parsed,
        "checker_exceptions": flags,
    }


def _reason(item: tuple[str, ...], outcomes: list[Outcome]) -> str:
    if len(outcomes) == 1:
        return outcomes[0].reason
    if all(o.equal for o in outcomes):
        return f"all {len(outcomes)} final answers are equivalent to the gold"
    wrong = next(o for o in outcomes if not o.equal)
    shown = ", ".join(_clip(c) for c in item[:5])
    return (
        f"several different final answers ({len(item)}: {shown}); give exactly one. "
        f"First mismatch: {wrong.reason}"
    )


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_trimmed_at = 0  # the address-space size, in bytes, at the last trim


def _trim_caches() -> None:
    """Clear sympy's caches when the worker nears its address-space cap: they keep every large
    value computed, so answers that each pass the size guard could fill one worker until a
    later group's batch cannot even load there."""
    global _trimmed_at
    cap = resource.getrlimit(resource.RLIMIT_AS)[0]
    if cap == resource.RLIM_INFINITY:
        return
    try:
        with open("/proc/self/statm") as fh:
            size = int(fh.read().split()[0]) * _PAGE
    except (OSError, ValueError, IndexError):
        return
    if size > 0.6 * cap and size > _trimmed_at + (128 << 20):
        from sympy.core.cache import clear_cache

        clear_cache()
        _gold.cache_clear()
        gc.collect()
        _trimmed_at = size


def _warm_up() -> None:
    """Pay sympy's first-call costs (inequality solving, simplify) when the worker starts,
    not inside the deadline of the first answer that needs them."""
    check_candidates(("x < 1", Limits(), Rules()), (((r"-x > -1",),), None))
    check_candidates(("\\sqrt{2}", Limits(), Rules()), ((("\\frac{2}{\\sqrt{2}}",),), None))


_warm_up()
