"""The main job on its embedded default, offline on CPU: check the graders, then run the loop.

First each bundled environment's grader sees every task's own reference (which must pass) and
its neighbour's reference (which should fail), so one run shows that the graders accept what is
right, reject what is wrong, and how fast they do it. Then the whole loop runs on the tiny
model: frontier filter, GRPO, report, hack audit. Nothing here needs a GPU, a hub or an API key.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


@dataclass(frozen=True)
class PipelineResult:
    """What the end-to-end demo produced, with the pages to open."""

    frontier: dict[str, Any]
    run_dir: Path
    reward_first: float | None
    reward_last: float | None
    flag_counts: dict[str, int]
    index: Path


def _mean_reward(rows: list[dict[str, Any]], first: bool, window: int = 3) -> float | None:
    values = [r["reward_mean"] for r in rows if r.get("reward_mean") is not None]
    if not values:
        return None
    part = values[:window] if first else values[-window:]
    return sum(part) / len(part)


def run_pipeline(
    out: str | Path,
    steps: int = 8,
    n_tasks: int = 48,
    model: str = "tiny-sft",
    on_progress: Callable[[Any], None] | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> PipelineResult:
    """Frontier filter -> GRPO -> report -> hack audit on `math`'s easy tasks, offline on CPU.

    Re-running with the same `out` resumes: stored groups and checkpoints are reused.
    """
    from rlvr.audit.recheck import flag_counts, read_answers, recheck
    from rlvr.frontier_report import run_frontier, summary_line
    from rlvr.learners.config import load_config
    from rlvr.learners.run import train
    from rlvr.policies import default_threads, make_policy
    from rlvr.report import read_metrics, write_report
    from rlvr.rollout import RolloutConfig, select_tasks

    out = Path(out)
    env = load_env("math")
    tasks = select_tasks(env, n_tasks, "easy", None)
    policy = make_policy(model, threads=default_threads(model))
    report, paths = run_frontier(
        env, policy, tasks, RolloutConfig(g=8), out / "frontier.jsonl", progress=on_progress
    )
    overrides = {"env": "math", "model": model, "algo": "grpo", "steps": steps}
    config = load_config(None, {**overrides, "tasks": str(paths["tasks"])})
    run_dir = train(config, out / "grpo", env=env, on_row=on_row)
    page = write_report(run_dir)
    rows = recheck(env, read_answers(run_dir / "groups.jsonl"), False, 2)
    totals: dict[str, int] = {}
    for counts in flag_counts(rows).values():
        for kind, n in counts.items():
            totals[kind] = totals.get(kind, 0) + n
    metrics = read_metrics(run_dir)
    result = PipelineResult(
        frontier=summary_line(report),
        run_dir=run_dir,
        reward_first=_mean_reward(metrics, first=True),
        reward_last=_mean_reward(metrics, first=False),
        flag_counts=totals,
        index=out / "index.html",
    )
    _write_index(result, paths["html"], page)
    return result


def _write_index(result: PipelineResult, frontier_page: Path, run_page: Path) -> None:
    """One page linking the frontier report and the training report."""
    base = result.index.parent.resolve()
    f = result.frontier
    flags = ", ".join(f"{k}: {v}" for k, v in sorted(result.flag_counts.items())) or "none"
    result.index.write_text(
        "<!doctype html><meta charset='utf-8'><title>rlvr demo</title>"
        "<style>body{font-family:sans-serif;max-width:50em;margin:2em auto}</style>"
        "<h1>rlvr demo: math (easy) with the tiny model</h1>"
        f"<h2>Frontier</h2><p>{f['tasks']} tasks sampled {f['k']} times: "
        f"{f['always_pass']} always pass, {f['always_fail']} always fail, {f['kept']} kept "
        f"({f['saved_fraction']:.0%} of sampling saved). "
        f"<a href='{frontier_page.resolve().relative_to(base)}'>frontier report</a></p>"
        f"<h2>GRPO</h2><p>reward mean {_fmt(result.reward_first)} over the first steps, "
        f"{_fmt(result.reward_last)} over the last. "
        f"<a href='{run_page.resolve().relative_to(base)}'>training report</a></p>"
        f"<h2>Hack audit of the training answers</h2><p>{flags}</p>",
        encoding="utf-8",
    )


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"
