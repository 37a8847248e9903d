"""Grade every task's reference solution: the check a new task set must pass before training.

A reference that fails (hidden tests that do not compile, wrong expected test names, a report
adapter that reads nothing) would score every answer of that task 0: a silent zero in training.
`check_references` grades each reference through the environment's own grader and returns one
result per task; `rlvr envs validate --references` fails on any that did not pass.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from rlvr.env import Environment
from rlvr.grading import GradeItem, grade_items
from rlvr.types import Task

REASON_CHARS = 300


class ReferenceResult(BaseModel):
    """How the grader judged one task's reference."""

    task_id: str
    status: str
    passed: bool
    reason: str
    details: dict[str, Any] = {}


def _grader_options(env: Environment) -> Any:
    grader = env.grader
    return getattr(grader, "options", None) if getattr(grader, "name", "") == "code" else None


def reference_completion(env: Environment, task: Task) -> str:
    """The reference as a model would write it: fenced with the stack's first language tag
    when the code grader extracts fenced blocks, else as it is."""
    ref = task.reference or ""
    options = _grader_options(env)
    if options is None or getattr(options, "extract", "fenced") != "fenced" or not ref:
        return ref
    tag = (getattr(options, "language", None) or [""])[0]
    return f"```{tag}\n{ref.rstrip()}\n```\n"


def check_references(
    env: Environment,
    workers: int = 4,
    on_progress: Callable[[int], None] | None = None,
    n_tasks: int | None = None,
) -> list[ReferenceResult]:
    """Grade each task's reference (a task without one fails: nothing shows its tests pass)."""
    tasks = env.tasks()[:n_tasks]
    with_ref = [t for t in tasks if t.reference]
    rows = grade_items(
        env, [GradeItem(t.id, reference_completion(env, t)) for t in with_ref], workers, on_progress
    )
    by_id = {t.id: row for t, row in zip(with_ref, rows, strict=True)}
    out = []
    for t in tasks:
        row = by_id.get(t.id)
        if row is None:
            out.append(ReferenceResult(task_id=t.id, status="missing", passed=False,
                                       reason="the task has no reference solution"))  # fmt: skip
            continue
        out.append(
            ReferenceResult(
                task_id=t.id,
                status=row["status"],
                passed=row["status"] == "scored" and bool(row["passed"]),
                reason=str(row["reason"])[:REASON_CHARS],
                details=row.get("details") or {},
            )
        )
    return out


def failure_hint(result: ReferenceResult) -> str:
    """The last useful lines of what the test command printed, for a failing reference."""
    d = result.details
    tests = [t for t in d.get("tests") or [] if t.get("outcome") != "passed"]
    text = str(tests[0].get("message", "")) if tests else ""
    text = text or str(d.get("stderr", "")) or str(d.get("stdout", ""))
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return " | ".join(lines[-3:])[:REASON_CHARS]
