"""Hack flags for math and tool-call answers: hedging, padding, and doing more than was asked.

Math: an answer that offers several different final answers (two boxes, "2 or 3", `\\pm` where
the gold has none, every multiple-choice option) hedges its bets; an answer far longer than the
task needs pads. Tool calls: calls beyond the expected ones (or any call when none fits), and
argument keys the request did not ask for (not in the expected call, or not in the schema).
The math grader already rejects most hedges; the flag records them so a user sees the habit
form during training even while the reward stays 0.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from rlvr.flags import kinds as K
from rlvr.graders.math.extract import extract_answers
from rlvr.graders.math.grader import check
from rlvr.graders.math.normalize import normalize
from rlvr.graders.toolcall.parse import parse_calls
from rlvr.types import Flag, Task

FRACTION = re.compile(r"(-?\d+)/(\d+)|\\frac\{(-?\d+)\}\{(\d+)\}")
HEDGE_WORDS = re.compile(r"\bor\b|\\pm|±|\\mp|\beither\b|\bmaybe\b|\bpossibly\b", re.IGNORECASE)
OPTIONS = re.compile(r"(?:^|[\s(])\(?([A-E])[).:]\s", re.M)
MIN_LONG_CHARS = 4000
LONG_FACTOR = 30
ANSWER_FACTOR = 8
MIN_ANSWER_CHARS = 60


def _fraction(text: str) -> Fraction | None:
    t = text.replace(" ", "").replace("\\dfrac", "\\frac").strip("$")
    m = FRACTION.fullmatch(t)
    try:
        if m:
            return Fraction(int(m.group(1) or m.group(3)), int(m.group(2) or m.group(4)))
        return Fraction(t)
    except (ValueError, ZeroDivisionError):
        return None


def _same_value(a: str, b: str) -> bool:
    """Equal as written, as exact numbers, or (for other forms) by the math grader itself."""
    if normalize(a) == normalize(b):
        return True
    fa, fb = _fraction(normalize(a)), _fraction(normalize(b))
    if fa is not None and fb is not None:
        return fa == fb
    return check(a, b).passed


def math_flags(task: Task, completion: str) -> list[Flag]:
    """Hedged and overlong math answers."""
    gold = str(task.gold or "")
    ext = extract_answers(completion)
    out: list[Flag] = []
    cands = list(ext.candidates)
    distinct = [c for i, c in enumerate(cands) if not any(_same_value(c, d) for d in cands[:i])]
    if len(distinct) >= 2:
        out.append(
            Flag(kind=K.HEDGED, evidence=f"{len(distinct)} different final answers: {distinct[:4]}")
        )
    elif ext.hedged or any(HEDGE_WORDS.search(c) and not HEDGE_WORDS.search(gold) for c in cands):
        out.append(Flag(kind=K.HEDGED, evidence=f"final answer hedges: {cands[-1][:80]!r}"))
    letters = {m.group(1) for m in OPTIONS.finditer(" ".join(cands))}
    if len(letters) >= 2:
        out.append(Flag(kind=K.HEDGED, evidence=f"final answer lists options {sorted(letters)}"))
    needed = max(len(task.reference or ""), len(task.prompt), 1)
    if len(completion) > max(MIN_LONG_CHARS, LONG_FACTOR * needed):
        out.append(
            Flag(
                kind=K.OVERLONG,
                evidence=f"{len(completion)} characters for a task whose reference needs {needed}",
            )
        )
    final = cands[-1] if cands else ""
    if len(final) > max(MIN_ANSWER_CHARS, ANSWER_FACTOR * len(gold)):
        out.append(
            Flag(
                kind=K.OVERLONG,
                evidence=f"final answer has {len(final)} characters, the gold {len(gold)}",
            )
        )
    return out


def _schema_props(tools: list[dict[str, Any]] | None) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for spec in tools or []:
        fn = spec.get("function", spec) if isinstance(spec, dict) else {}
        if isinstance(fn, dict) and isinstance(fn.get("name"), str):
            props = (fn.get("parameters") or {}).get("properties") or {}
            out[fn["name"]] = set(props) if isinstance(props, dict) else set()
    return out


def _gold_calls(gold: Any) -> list[tuple[str, set[str]]] | None:
    if gold is None:
        return None
    out = []
    for item in gold if isinstance(gold, list) else []:
        if isinstance(item, dict) and len(item) == 1:
            ((name, params),) = item.items()
            out.append((name, set(params) if isinstance(params, dict) else set()))
    return out


def toolcall_flags(task: Task, completion: str) -> list[Flag]:
    """Calls beyond the expected ones, and argument keys nobody asked for."""
    calls = parse_calls(completion).calls or []
    gold = _gold_calls(task.gold)
    props = _schema_props(task.tools)
    out: list[Flag] = []
    if gold is not None and len(calls) > len(gold):
        what = "the request fits no offered tool" if not gold else f"{len(gold)} expected"
        out.append(
            Flag(
                kind=K.EXTRA_CALLS,
                evidence=f"{len(calls)} call(s), {what}: {[c['name'] for c in calls][:5]}",
            )
        )
    seen = [(c["name"], sorted(c["arguments"].items(), key=str)) for c in calls]
    dups = {c[0] for i, c in enumerate(seen) if c in seen[:i]}
    if dups and not (gold and len(calls) <= len(gold)):
        out.append(
            Flag(kind=K.EXTRA_CALLS, evidence=f"repeats identical call(s) to {sorted(dups)}")
        )
    unused = list(gold or [])
    for call in calls:
        name, keys = call["name"], set(call["arguments"])
        beyond_schema = keys - props.get(name, keys)
        match = next((g for g in unused if g[0] == name), None)
        if match is not None:
            unused.remove(match)
        beyond_gold = keys - match[1] if match is not None else set()
        extra = sorted(beyond_schema | beyond_gold)
        if extra:
            why = "not in the schema" if beyond_schema else "not asked for"
            out.append(Flag(kind=K.EXTRA_KEYS, evidence=f"{name}: argument(s) {extra} {why}"))
    return out
