"""`rlvr eval`: pass@k on an environment's held-out split, with intervals, resumable.

Samples go to DIR/groups.jsonl, the append-only store every rollout uses: one fsynced line per
task, so a killed evaluation started again with the same settings and DIR grades only the
tasks it had not finished. DIR/eval.json pins the settings (and the resolved model folder); a
rerun that would mix two models or two sampling set-ups in one DIR is refused. The per-task
table, the summary and the report are derived from the store at the end and rewritten whole.

Masked verdicts (grader errors, timeouts, infrastructure failures) are left out of every
estimate and counted: a task's pass@k uses its n scored samples; a task with fewer than k
scored samples has no pass@k and is counted in `masked_tasks`.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.evaluation.passk import Estimate, estimate, pass_at_k
from rlvr.evaluation.report import write_report
from rlvr.evaluation.results import EvalSummary, TaskResult
from rlvr.policies.base import Policy, SamplingConfig
from rlvr.sandbox.local import UNSAFE_KEY
from rlvr.selection import restrict_to_file
from rlvr.splits import SplitName, filter_split, stable_subset
from rlvr.store import GroupStore
from rlvr.types import ScoredGroup, Task, Turn

BREAKDOWN_MAX_VALUES = 30
NOT_BREAKDOWN = (
    "split",
    "split_key",
    "source",
    "test_names",
    "signature",
    "task_dir",
    "docker_image",
    "workdir",
    "agent_user",
    "verifier_user",
)


class EvalConfig(BaseModel):
    """What to evaluate and how to sample; every field that changes the numbers is pinned."""

    model_config = ConfigDict(extra="forbid")

    env: str
    model: str = Field(description="The --model spec as given.")
    model_path: str | None = Field(
        default=None, description="The folder it resolved to (a run folder's newest checkpoint)."
    )
    split: SplitName = "test"
    n: int = Field(default=8, ge=1, description="Samples per task.")
    k: list[int] = Field(default_factory=list, description="pass@k values (default: 1 and n).")
    temperature: float = Field(default=1.0, ge=0.0)
    top_p: float = Field(default=1.0, gt=0.0, le=1.0)
    max_new_tokens: int | None = Field(default=None, ge=1)
    seed: int = 0
    n_tasks: int | None = Field(
        default=None, ge=1, description="A stable hash-chosen subset of this many tasks."
    )
    difficulty: str | None = None
    tasks: str | None = Field(
        default=None,
        description="A Task JSONL file: only its ids (within the split), e.g. a validation slice.",
    )
    batch_tasks: int = Field(default=8, ge=1)
    grade_workers: int = Field(default=4, ge=1)

    @model_validator(mode="after")
    def _consistent(self) -> EvalConfig:
        if not self.k:
            self.k = sorted({1, self.n})
        if self.temperature == 0 and self.n > 1:
            raise ValueError(
                f"temperature 0 (greedy) gives {self.n} identical samples per task; "
                "use -n 1 for greedy, or a temperature above 0 for sampled pass@k"
            )
        too_big = [k for k in self.k if k > self.n or k < 1]
        if too_big:
            raise ValueError(
                f"pass@{too_big[0]} needs 1 <= k <= n samples per task, got -n {self.n}; "
                f"raise -n or drop {too_big[0]} from -k"
            )
        return self

    def pinned(self) -> dict[str, Any]:
        """The settings a resumed evaluation must share (not throughput knobs)."""
        return self.model_dump(exclude={"k", "batch_tasks", "grade_workers", "model"})


def choose_tasks(env: Environment, config: EvalConfig) -> list[Task]:
    """The split's tasks (only a tasks file's ids, if given), then the difficulty, then a
    stable subset of n_tasks."""
    if config.tasks is not None:
        tasks = filter_split(restrict_to_file(env, config.tasks), env.split, env.name, config.split)
    else:
        tasks = env.tasks_in(config.split)
    if config.difficulty is not None:
        tasks = [t for t in tasks if t.meta.get("difficulty") == config.difficulty]
    tasks = stable_subset(tasks, config.n_tasks)
    if not tasks:
        wanted = [f"difficulty {config.difficulty!r}"] if config.difficulty else []
        wanted += [f"an id in {config.tasks}"] if config.tasks else []
        raise RlvrError(
            f"environment {env.name!r}: no {config.split} task has {' and '.join(wanted)}",
            "drop --difficulty or --tasks, or pick another split",
        )
    return tasks


def task_result(group: ScoredGroup, task: Task, ks: Sequence[int]) -> TaskResult:
    """Counts and pass@k of one task from its scored group."""
    scored = [v for v in group.verdicts if v.is_scored]
    correct = sum(v.passed for v in scored)
    rewards = [v.reward for v in scored if v.reward is not None]
    return TaskResult(
        task_id=task.id,
        n=len(group.verdicts),
        n_scored=len(scored),
        correct=correct,
        masked=len(group.verdicts) - len(scored),
        mean_reward=sum(rewards) / len(rewards) if rewards else None,
        pass_at={
            f"pass@{k}": pass_at_k(len(scored), correct, k) if len(scored) >= k else None
            for k in ks
        },
        meta={k: v for k, v in task.meta.items() if k not in NOT_BREAKDOWN and _labels(v)},
        **episode_counts(group),
    )


def episode_counts(group: ScoredGroup) -> dict[str, Any]:
    """A group's turn and tool-call figures (nothing for single-turn answers)."""
    pairs = [(s.episode, v) for s, v in zip(group.samples, group.verdicts, strict=True)]
    episodes = [(e, v) for e, v in pairs if e is not None]
    if not episodes:
        return {}
    budget = max(len(e.turns) for e, _ in episodes)
    within = [0] * max(budget, 1)
    for e, v in episodes:
        if v.is_scored and v.passed:
            for t in range(max(len(e.turns), 1) - 1, len(within)):
                within[t] += 1
    return {
        "turns_mean": sum(len(e.turns) for e, _ in episodes) / len(episodes),
        "tool_calls": sum(
            len(t.calls) + sum(o.tool is None for o in t.observations)
            for e, _ in episodes
            for t in e.turns
        ),
        "tool_errors": sum(e.tool_errors for e, _ in episodes),
        "passed_within": within,
        "episodes": len(episodes),
        "with_valid_call": sum(any(t.calls for t in e.turns) for e, _ in episodes),
        "with_answered_call": sum(any(_answered(t) for t in e.turns) for e, _ in episodes),
        "passed_after_retry": sum(
            v.is_scored and v.passed and any(o.retry for t in e.turns for o in t.observations)
            for e, v in episodes
        ),
        "ends": dict(Counter(e.end for e, _ in episodes)),
    }


def _answered(turn: Turn) -> bool:
    """A turn with a call the tool carried out: a reply that is not an error."""
    return any(not o.error for o in turn.observations[: len(turn.calls)])


def episode_summary(results: Sequence[TaskResult], seed: int) -> dict[str, Any] | None:
    """turns_mean, tool_error_rate and pass@1 at each turn budget, over tasks."""
    rows = [r for r in results if r.passed_within is not None and r.n_scored]
    if not rows:
        return None
    calls = sum(r.tool_calls for r in rows)
    longest = max(len(r.passed_within or []) for r in rows)
    by_turns = {}
    for t in range(longest):
        values = []
        for r in rows:
            w = r.passed_within or [0]
            values.append(w[min(t, len(w) - 1)] / r.n_scored)
        by_turns[str(t + 1)] = estimate(values, seed).model_dump()
    after_retry = estimate([r.passed_after_retry / r.n_scored for r in rows], seed)
    n = sum(r.episodes for r in rows)
    ends: Counter[str] = Counter()
    for r in rows:
        ends.update(r.ends)
    return {
        "turns_mean": sum(r.turns_mean or 0.0 for r in rows) / len(rows),
        "tool_error_rate": sum(r.tool_errors for r in rows) / calls if calls else 0.0,
        "valid_call_frac": sum(r.with_valid_call for r in rows) / n if n else 0.0,
        "answered_call_frac": sum(r.with_answered_call for r in rows) / n if n else 0.0,
        "ends": dict(sorted(ends.items())),
        "pass@1_by_turns": by_turns,
        "pass@1_after_retry": after_retry.model_dump(),
    }


def _labels(value: Any) -> list[str]:
    """A meta value as breakdown labels: a string, or a list of strings (tags); counts and
    other numbers are not categories."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        return list(value)
    return []


def breakdown(results: Sequence[TaskResult], seed: int = 0) -> dict[str, dict[str, Estimate]]:
    """pass@1 by every meta key with a few distinct labels (difficulty, family, tags...)."""
    keys = sorted({k for r in results for k in r.meta})
    out: dict[str, dict[str, Estimate]] = {}
    for key in keys:
        by_label: dict[str, list[float]] = {}
        for r in results:
            p1 = r.pass_at.get("pass@1")
            for label in _labels(r.meta.get(key)) if p1 is not None else []:
                by_label.setdefault(label, []).append(p1)
        if 2 <= len(by_label) <= BREAKDOWN_MAX_VALUES:
            out[key] = {label: estimate(v, seed) for label, v in sorted(by_label.items())}
    return out


def summarize(
    config: EvalConfig, results: Sequence[TaskResult], wall_s: float = 0.0
) -> EvalSummary:
    """Means over tasks with bootstrap intervals, masked counts and the breakdown."""
    pass_at = {}
    for k in config.k:
        values = [r.pass_at[f"pass@{k}"] for r in results]
        pass_at[f"pass@{k}"] = estimate([v for v in values if v is not None], config.seed)
    return EvalSummary(
        env=config.env,
        model=config.model,
        model_path=config.model_path,
        split=config.split,
        n_tasks=len(results),
        n_samples=config.n,
        temperature=config.temperature,
        seed=config.seed,
        pass_at=pass_at,
        masked=sum(r.masked for r in results),
        masked_tasks=sum(r.n_scored < max(config.k) for r in results),
        breakdown=breakdown(results, config.seed),
        wall_s=wall_s,
        episodes=episode_summary(results, config.seed),
    )


def pin_settings(out: Path, config: EvalConfig) -> None:
    """Write DIR/eval.json, or check that a resumed DIR was made with the same settings."""
    path = out / "eval.json"
    pinned = config.pinned()
    if path.is_file():
        saved = json.loads(path.read_text(encoding="utf-8"))
        diff = sorted(k for k in set(saved) | set(pinned) if saved.get(k) != pinned.get(k))
        if diff:
            key = diff[0]
            raise RlvrError(
                f"{out} holds an evaluation with other settings: {key} was "
                f"{saved.get(key)!r}, now {pinned.get(key)!r}",
                "use a new --out folder, or the settings of the stored evaluation",
            )
        return
    out.mkdir(parents=True, exist_ok=True)
    _write_atomic(path, json.dumps(pinned, indent=2) + "\n")


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def sampling(config: EvalConfig) -> SamplingConfig:
    return SamplingConfig(
        temperature=config.temperature,
        top_p=config.top_p,
        max_new_tokens=config.max_new_tokens,
        seed=config.seed,
    )


def run_eval(
    env: Environment,
    policy: Policy,
    config: EvalConfig,
    out: str | Path,
    progress: Callable[[Any], None] | None = None,
) -> EvalSummary:
    """Sample n answers per task of the split, grade them into DIR/groups.jsonl (resuming),
    then write per_task.jsonl, summary.json and report.html (+ report.png)."""
    from rlvr.rollout import RolloutConfig, collect  # heavy: imports torch

    out = Path(out)
    tasks = choose_tasks(env, config)
    pin_settings(out, config)
    store = GroupStore(out / "groups.jsonl")
    rollout = RolloutConfig(
        g=config.n,
        sampling=sampling(config),
        batch_tasks=config.batch_tasks,
        grade_workers=config.grade_workers,
    )
    start = time.perf_counter()
    collect(env, policy, rollout, store, tasks, progress=progress)
    results = results_from_store(store, env.name, tasks, config.k)
    summary = summarize(config, results, wall_s=time.perf_counter() - start)
    chosen = {t.id for t in tasks}
    groups = [g for g in store if g.env == env.name and g.step is None and g.task_id in chosen]
    summary.warnings = sorted(
        {str(v.details[UNSAFE_KEY]) for g in groups for v in g.verdicts if UNSAFE_KEY in v.details}
    )
    write_outputs(out, summary, results)
    write_report(out, summary, results, groups)
    return summary


def results_from_store(
    store: Any, env_name: str, tasks: Sequence[Task], ks: Sequence[int]
) -> list[TaskResult]:
    """Per-task results, in task order, from the stored groups of this evaluation."""
    by_id = {g.task_id: g for g in store if g.env == env_name and g.step is None}
    missing = [t.id for t in tasks if t.id not in by_id]
    if missing:
        raise RlvrError(
            f"the evaluation store has no group for {len(missing)} task(s), e.g. {missing[0]!r}",
            "run the same command again to finish them",
        )
    return [task_result(by_id[t.id], t, ks) for t in tasks]


def write_outputs(out: Path, summary: EvalSummary, results: Sequence[TaskResult]) -> None:
    """summary.json and per_task.jsonl, each replaced whole."""
    _write_atomic(out / "summary.json", json.dumps(summary.as_json(), indent=2) + "\n")
    lines = []
    for r in results:
        row = r.model_dump(exclude={"pass_at"})
        lines.append(json.dumps({**row, **r.pass_at}) + "\n")
    _write_atomic(out / "per_task.jsonl", "".join(lines))


def read_per_task(folder: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(summary, per-task rows) of an evaluation folder, with a clear error when absent."""
    folder = Path(folder)
    summary_path, rows_path = folder / "summary.json", folder / "per_task.jsonl"
    if not summary_path.is_file() or not rows_path.is_file():
        raise RlvrError(
            f"{folder} is not a finished evaluation (no summary.json / per_task.jsonl)",
            "point --compare at folders written by `rlvr eval --out`",
        )
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    rows = [json.loads(x) for x in rows_path.read_text(encoding="utf-8").splitlines() if x]
    return summary, rows
