"""The main job on its embedded default: grade every bundled environment's references.

Each task is graded with its own reference answer (which must pass) and with its neighbour's
reference (which should fail), so one run shows that the graders accept what is right, reject
what is wrong, and how fast they do it. Nothing here needs a GPU, a hub or an API key.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from rlvr.env import Environment
from rlvr.grading import GradeItem, grade_items
from rlvr.registry import load_env

DEFAULT_ENVS = ("math", "bfcl-simple", "bfcl-multiple", "bfcl-parallel", "bfcl-parallel-multiple")


@dataclass(frozen=True)
class GraderCheck:
    """How one environment's grader did on its own references."""

    env: str
    tasks: int
    references_passed: int
    neighbours_rejected: int
    masked: int
    seconds: float

    @property
    def answers_per_s(self) -> float:
        return 2 * self.tasks / self.seconds if self.seconds > 0 else float("inf")


def check_references(
    env: Environment,
    n_tasks: int | None = None,
    workers: int = 4,
    on_progress: Callable[[int], None] | None = None,
) -> GraderCheck:
    """Grade each task's reference and its neighbour's; count passes, rejections, masks."""
    tasks = [t for t in env.tasks() if t.reference is not None][:n_tasks]
    items = [GradeItem(t.id, t.reference or "") for t in tasks]
    items += [
        GradeItem(t.id, tasks[(i + 1) % len(tasks)].reference or "") for i, t in enumerate(tasks)
    ]
    start = time.perf_counter()
    rows = grade_items(env, items, workers, on_progress)
    seconds = time.perf_counter() - start
    own, neighbour = rows[: len(tasks)], rows[len(tasks) :]
    return GraderCheck(
        env=env.name,
        tasks=len(tasks),
        references_passed=sum(r["passed"] for r in own),
        neighbours_rejected=sum(r["status"] == "scored" and not r["passed"] for r in neighbour),
        masked=sum(r["status"] != "scored" for r in rows),
        seconds=seconds,
    )


def run_demo(
    env_names: tuple[str, ...] = DEFAULT_ENVS,
    n_tasks: int | None = None,
    workers: int = 4,
    on_env: Callable[[str, int], Callable[[int], None]] | None = None,
) -> list[GraderCheck]:
    """Check every named environment; `on_env(name, total)` returns a progress callback."""
    results = []
    for name in env_names:
        env = load_env(name)
        total = 2 * len([t for t in env.tasks() if t.reference is not None][:n_tasks])
        results.append(
            check_references(env, n_tasks, workers, on_env(name, total) if on_env else None)
        )
    return results
