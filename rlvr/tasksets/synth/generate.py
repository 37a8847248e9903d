"""Seeded generation: draw drafts per family and level, give them stable ids, compute the cases.

Every (family, level) pair has its own random stream seeded from the seed and the pair's names,
so adding a family or a level never changes what the others draw. A task's id hashes only its
family and the constants it drew (`synth/<family>-<10 hex>`), so ids survive reordering and
changes to the case generator. Expected values come from running the Python reference.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from rlvr.functions.task import Case as FCase
from rlvr.functions.task import FunctionTask, Param, Signature
from rlvr.tasksets.synth.catalog import FAMILIES
from rlvr.tasksets.synth.draft import STACKS, Draft, python_source
from rlvr.tasksets.synth.family import Family
from rlvr.tasksets.synth.nearmiss import Variant, int_constants, tag, variants
from rlvr.tasksets.synth.refs import reference_file
from rlvr.tasksets.synth.strength import pool, strengthen, weak_points
from rlvr.tasksets.synth.values import draw_inputs

SEED = 20261201
PER_LEVEL = 60
N_PUBLIC = 3
MAX_DOC = 240
JS_SAFE = 2**53 - 1


@dataclass(frozen=True)
class Case:
    """Arguments (one per parameter) and the value the reference returns for them."""

    args: tuple[Any, ...]
    expected: Any


@dataclass(frozen=True)
class SynthTask:
    """A drawn function with its id and its public and hidden cases."""

    id: str
    draft: Draft
    public: tuple[Case, ...]
    hidden: tuple[Case, ...]


def task_id(draft: Draft) -> str:
    """`synth/<family>-<hash of family and drawn constants>`."""
    digest = hashlib.sha256(f"{draft.family}|{draft.key}".encode()).hexdigest()[:10]
    return f"synth/{draft.family}-{digest}"


def generate(
    seed: int = SEED, per_level: int = PER_LEVEL, families: Iterable[Family] | None = None
) -> list[SynthTask]:
    """Up to `per_level` distinct tasks per family and level, ordered by family then level."""
    chosen = sorted(families if families is not None else FAMILIES, key=lambda f: f.name)
    tasks: list[SynthTask] = []
    seen: set[str] = set()
    for fam in chosen:
        for level in fam.levels:
            r = random.Random(f"{seed}/{fam.name}/{level}")
            made, quota = 0, fam.quota(level, per_level)
            for _ in range(quota * 30):
                if made >= quota:
                    break
                draft = fam.draw(r, level)
                draft = replace(draft, tags=fam.tags)
                tid = task_id(draft)
                if tid in seen:
                    continue
                seen.add(tid)
                drawn = draw_cases(tid, draft, seed)
                if not discriminating(tuple(drawn)):
                    continue  # judged on the drawn cases, so strengthening never adds a task
                task = strengthened(tid, draft, seed, drawn)
                if two_hidden_values(task):
                    tasks.append(task)
                    made += 1
    return tasks


def build_task(tid: str, draft: Draft, seed: int) -> SynthTask:
    """Draw the task's cases and append the hidden rows that make near-miss answers fail."""
    return strengthened(tid, draft, seed, draw_cases(tid, draft, seed))


def draw_cases(tid: str, draft: Draft, seed: int) -> list[Case]:
    """Draw the task's inputs from its own stream and run the Python reference on them."""
    fn = reference_function(draft)
    r = random.Random(f"{seed}/{tid}/cases")
    cases = []
    for args in draw_inputs(r, draft.domains):
        expected = fn(*copy.deepcopy(args))
        if isinstance(expected, tuple):
            expected = list(expected)
        cases.append(Case(tuple(args), expected))
    check_cases(tid, draft, cases)
    return cases


def strengthened(tid: str, draft: Draft, seed: int, drawn: list[Case]) -> SynthTask:
    """The drawn cases (the first N_PUBLIC public) plus `strength.strengthen`'s hidden rows,
    from a stream of their own so the drawn cases never change."""
    extra = strengthen(
        random.Random(f"{seed}/{tid}/strength"),
        reference_function(draft),
        draft.domains,
        [(c.args, c.expected) for c in drawn],
        N_PUBLIC,
        near_misses(draft),
        int_constants(python_source(draft)),
    )
    cases = [*drawn, *(Case(tuple(args), expected) for args, expected in extra)]
    check_cases(tid, draft, cases)
    return SynthTask(tid, draft, tuple(cases[:N_PUBLIC]), tuple(cases[N_PUBLIC:]))


def near_misses(draft: Draft) -> list[Variant]:
    """The slips of the draft's Python reference that its hidden cases must fail."""
    return variants(python_source(draft), draft.name)


def weaknesses(task: SynthTask, seed: int = SEED, stream: str = "audit") -> list[str]:
    """What the task's hidden cases let through, judged on a pool drawn from `stream` (a
    different stream from the generator's own, so the check is not circular)."""
    fn = reference_function(task.draft)
    taken = {json.dumps(c.args, sort_keys=True) for c in (*task.public, *task.hidden)}
    r = random.Random(f"{seed}/{task.id}/{stream}")
    candidates = pool(r, fn, task.draft.domains, taken, int_constants(python_source(task.draft)))
    hidden = [(c.args, c.expected) for c in task.hidden]
    return weak_points(hidden, candidates, near_misses(task.draft))


def reference_function(draft: Draft) -> Any:
    """Execute the family's own Python reference (trusted generator code) and return it."""
    namespace: dict[str, Any] = {}
    exec(compile(python_source(draft), f"<synth {draft.family}>", "exec"), namespace)
    return namespace[draft.name]


def check_cases(tid: str, draft: Draft, cases: list[Case]) -> None:
    """Short docstring, enough distinct cases, numbers every stack holds exactly."""
    if len(draft.doc) > MAX_DOC:
        raise ValueError(f"{tid}: docstring has {len(draft.doc)} characters (max {MAX_DOC})")
    if len(cases) < N_PUBLIC + 2:
        raise ValueError(f"{tid}: only {len(cases)} distinct cases; widen the input domains")
    for case in cases:
        if not _in_range(case.args) or not _in_range(case.expected):
            raise ValueError(f"{tid}: a value of {case} exceeds what a JavaScript number holds")


def discriminating(cases: tuple[Case, ...]) -> bool:
    """At least three different expected values (both values for a bool), so no constant passes."""
    values = {json.dumps(c.expected, sort_keys=True) for c in cases}
    return len(values) >= (2 if all(isinstance(c.expected, bool) for c in cases) else 3)


def two_hidden_values(task: SynthTask) -> bool:
    """The generator refuses a task whose hidden cases all expect one value (a constant or the
    public examples hard-coded would pass them)."""
    return len({tag(c.expected) for c in task.hidden}) >= 2


def to_function_task(task: SynthTask) -> FunctionTask:
    """The task in the language-neutral format, with a whole reference file per stack."""
    d = task.draft
    return FunctionTask(
        id=task.id,
        entry_point=d.name,
        signature=Signature(params=[Param(name=n, type=t) for n, t in d.params], returns=d.returns),
        docstring=d.doc,
        references={stack: reference_file(d, stack) for stack in STACKS},
        public_cases=[FCase(args=list(c.args), expected=c.expected) for c in task.public],
        hidden_cases=[FCase(args=list(c.args), expected=c.expected) for c in task.hidden],
        difficulty=d.difficulty,
        tags=[d.family, *d.tags],
        source="synth",
        meta={"family": d.family, "key": d.key},
    )


def _in_range(value: Any) -> bool:
    if type(value) is int:
        return abs(value) <= JS_SAFE
    if isinstance(value, (list, tuple)):
        return all(_in_range(v) for v in value)
    if isinstance(value, dict):
        return all(_in_range(v) for v in value.values())
    return True


def fingerprint(tasks: Iterable[SynthTask]) -> str:
    """A hash of ids, docs and cases: equal for equal generations."""
    h = hashlib.sha256()
    for t in tasks:
        row = [t.id, t.draft.doc, [[c.args, c.expected] for c in (*t.public, *t.hidden)]]
        h.update(json.dumps(row, sort_keys=True).encode())
    return h.hexdigest()
