"""Grade loose completions (task id + text) against an environment, one group per task.

Completions of the same task are graded together so per-task work happens once; tasks are
graded concurrently on threads (the graders' own worker processes and sandboxes do the heavy
lifting, so threads only wait), or, for a grader that batches (the function judge), all in one
`grade_groups` call that packs answers of several tasks into each sandbox exec. Identical
completions of one task are graded once (Environment.grade). Results come back in input order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.types import Verdict


@dataclass(frozen=True)
class GradeItem:
    """One completion to grade; `error` is set when the input line itself was unusable."""

    task_id: str
    completion: str
    error: str | None = None


def verdict_row(task_id: str, verdict: Verdict) -> dict[str, Any]:
    """The `rlvr grade` output line for one verdict: per-test outcomes under `details.tests`,
    where these lines have always had them, and the failure cause."""
    details = verdict.details
    if verdict.tests:
        details = {**details, "tests": [t.model_dump() for t in verdict.tests]}
    return {
        "task_id": task_id,
        "status": verdict.status,
        "reward": verdict.reward,
        "passed": verdict.passed,
        "reason": verdict.reason,
        "cause": verdict.cause,
        "flags": [f.model_dump() for f in verdict.flags],
        "details": details,
    }


def error_row(task_id: str | None, reason: str) -> dict[str, Any]:
    """An output line for input that could not be graded at all (not a verdict)."""
    return {
        "task_id": task_id,
        "status": "input_error",
        "reward": None,
        "passed": False,
        "reason": reason,
        "cause": None,
        "flags": [],
        "details": {},
    }


def grade_items(
    env: Environment,
    items: Sequence[GradeItem],
    workers: int = 4,
    on_group_done: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Grade every item; returns one output row per item, in input order."""
    rows: list[dict[str, Any] | None] = [None] * len(items)
    by_task: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        if item.error is not None:
            rows[i] = error_row(item.task_id or None, item.error)
        else:
            by_task[item.task_id].append(i)

    if batches(env.grader):
        _grade_batched(env, items, by_task, rows, on_group_done)
        return [r for r in rows if r is not None]

    def grade_task(task_id: str, idxs: list[int]) -> list[dict[str, Any]]:
        try:
            task = env.task(task_id)
        except RlvrError as e:
            return [error_row(task_id, e.message) for _ in idxs]
        verdicts = env.grade(task, [items[i].completion for i in idxs])
        return [verdict_row(task_id, v) for v in verdicts]

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = {pool.submit(grade_task, tid, idxs): idxs for tid, idxs in by_task.items()}
        for fut in as_completed(futures):
            idxs = futures[fut]
            for i, row in zip(idxs, fut.result(), strict=True):
                rows[i] = row
            if on_group_done:
                on_group_done(len(idxs))
    return [r for r in rows if r is not None]


def batches(grader: Any) -> bool:
    """Whether `grader` grades many groups in one call, as the function judge does (several
    answers per sandbox exec)."""
    return callable(getattr(grader, "grade_groups", None))


def _grade_batched(
    env: Environment,
    items: Sequence[GradeItem],
    by_task: dict[str, list[int]],
    rows: list[dict[str, Any] | None],
    on_group_done: Callable[[int], None] | None,
) -> None:
    """Every task's group in one `grade_groups` call; the grader's pool sets the parallelism."""
    groups, where = [], []
    for task_id, idxs in by_task.items():
        try:
            task = env.task(task_id)
        except RlvrError as e:
            for i in idxs:
                rows[i] = error_row(task_id, e.message)
            if on_group_done:
                on_group_done(len(idxs))
            continue
        groups.append((task, [items[i].completion for i in idxs]))
        where.append((task_id, idxs))
    verdicts = env.grade_groups(groups, on_group_done) if groups else []
    for (task_id, idxs), row in zip(where, verdicts, strict=True):
        for i, v in zip(idxs, row, strict=True):
            rows[i] = verdict_row(task_id, v)
