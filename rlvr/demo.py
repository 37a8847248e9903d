"""The main job on its embedded default, offline on CPU: check the graders, then run the loop.

First each bundled environment's grader sees every task's own reference (which must pass) and
its neighbour's reference (which should fail), so one run shows that the graders accept what is
right, reject what is wrong, and how fast they do it. Then the whole loop runs once per demo
`Stage` (an environment, a warm-started tiny model and a GRPO recipe): frontier filter, GRPO,
report, hack audit, and a held-out evaluation of the model before and after training with
intervals and a paired test. Last, the code stage (rlvr.demo_code) grades a real model's
answers to held-out synth-python tasks in the Docker sandbox, evaluation only. Nothing here
needs a GPU, a hub or an API key.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.audit.recheck.stored import flag_counts, read_answers, recheck
from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.evaluation.compare import compare_evals
from rlvr.evaluation.run import EvalConfig, run_eval
from rlvr.grading import GradeItem, grade_items
from rlvr.learners.config import load_config
from rlvr.models import default_threads, make_policy, resolve_model
from rlvr.policies.base import SamplingConfig
from rlvr.registry import load_env
from rlvr.report import read_metrics, write_report
from rlvr.selection import select_tasks
from rlvr.splits import stable_subset

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


GRPO_RECIPE: dict[str, Any] = {
    # chosen on a validation slice of math-columns' train split (128 pairs left out of 8 warm
    # starts, one per seed; never the test split) by bench/demo_seeds.py: at lr 1e-4 for 60
    # steps every seed rose (5 of 8 at p < 0.05); at 2e-4 for 40 steps, 4 of 8 did and 3 fell;
    # at 3e-4 it collapsed. bench/README.md has both tables
    "lr": 1e-4,
    "warmup_steps": 5,
    "group_size": 4,
    "prompts_per_step": 64,
    "max_new_tokens": 64,
    "micro_batch_size": 64,
    "loss_agg": "token_mean",
    "clip_high": 0.28,
    "threads": 1,
    "save_every": 10,
}


@dataclass(frozen=True)
class Stage:
    """One before/after block of the demo: GRPO from a warm-started model on the train split
    of `env` (its frontier), held-out pass@1 before and after on the test split."""

    name: str  # its folder under the demo's output and its section of index.html
    env: str
    model: str  # a --model spec; a tiny-*-sft spec is built once (the warm start)
    title: str
    why: str  # one sentence on the page: what the block shows
    steps: int = 60
    difficulty: str | None = None  # meta.difficulty of the train and held-out tasks, or all
    frontier_tasks: int | None = 512  # a stable subset of the train split (None: all of it)
    frontier_samples: int = 8  # answers (or episodes) per frontier task
    eval_tasks: int | None = 128  # a stable subset of the held-out tasks (None: all)
    eval_samples: int = 8  # per held-out task, at temperature 1
    curve_samples: int | None = None  # per held-out task in the evals during GRPO (None: half
    # of eval_samples)
    train: dict[str, Any] = field(default_factory=lambda: dict(GRPO_RECIPE))
    seed: int = 0  # the frontier's sampling and GRPO's; evaluations always sample with seed 0
    max_new_tokens: int | None = None  # per answer or turn: frontier, GRPO, evals (None: the
    # model's own, tiny: 64)
    eval_every: int | None = None  # GRPO steps between held-out evaluations (None: steps // 4)


MATH = Stage(
    name="math",
    env="math-columns",
    model="tiny-columns-sft",
    eval_tasks=None,  # all 383 held-out pairs: 128 left a +0.05-0.10 rise inside its interval
    eval_samples=32,  # at 8 a pair, a +0.02 rise was noise as often as not (bench/README.md)
    curve_samples=4,
    # chosen on validation at 32 samples a pair over 8 seeds (bench/demo_seeds.py): a linear
    # decay from 2e-4 raised 7 of 8 at p < 0.05, a constant 1e-4 6 of 8 (one fell)
    train={**GRPO_RECIPE, "lr": 2e-4, "lr_scheduler_type": "linear"},
    title="math: two-digit column arithmetic",
    why=(
        "A held-out task is a number pair never trained on whose digit facts the train split "
        "holds, so pass@1 rises only if the model applies the column rule better. The warm "
        "start is built to a strength: it leaves 128 train pairs out and stops SFT at the first "
        "check (every 50 steps from step 500) that answers 0.8 of them, else after 800 steps. "
        "Over 8 warm starts built this way on one CPU (each seed its own SFT data order, "
        "frontier and GRPO samples; seed 0 is this demo's), this recipe raised held-out pass@1 "
        "on every seed, all 8 at p < 0.05 (+0.017 to +0.128 from warm starts at 0.34-0.89); the "
        "rise shrinks with the headroom the warm start leaves, and the two strongest warm "
        "starts, this demo's among them, rose the least (bench/README.md)."
    ),
)
AGENT = Stage(
    name="agent",
    env="math-columns-retry",
    model="tiny-columns-agent-sft",
    title='agent: submit through a tool, hear "wrong", try again',
    why=(
        "Episodes on the same held-out pairs: an answer submitted with the submit_answer tool "
        "is graded at once and a wrong one may be retried once (a pass after a retry earns "
        "0.5); an answer without the call is final. The reply says only correct or wrong. The "
        "figures below say what changed: how often the model submits through the tool, pass@1 "
        "without a retry and after one. Over 4 seeds on one machine every held-out difference "
        "was positive (+0.014 to +0.024), 2 of 4 at p < 0.05, and tool use rose from 0.52 to "
        "about 0.9; the stage's settings were compared on the held-out pairs, so read these "
        "figures as optimistic. On a validation slice of the train split, where nothing was "
        "chosen, 8 of 8 seeds rose (+0.010 to +0.129), 6 at p < 0.05 (bench/README.md)."
    ),
    steps=40,
    eval_every=20,
    frontier_tasks=917,  # every train pair: 256 kept 73-87, and 40 steps revisited each 15-17
    # times; the held-out rise was +0.005 and +0.012 (2 seeds), with 260-283 kept +0.018, +0.023
    eval_tasks=None,
    eval_samples=4,
    max_new_tokens=80,
    train={**GRPO_RECIPE, "prompts_per_step": 32, "micro_batch_size": 32},
)
STAGES: tuple[Stage, ...] = (MATH, AGENT)  # the sandbox is shown by rlvr.demo_code's code stage


@dataclass(frozen=True)
class StageResult:
    """What one stage produced, with the pages to link."""

    stage: Stage
    frontier: dict[str, Any]
    run_dir: Path
    reward_first: float | None
    reward_last: float | None
    flag_counts: dict[str, int]
    pages: dict[str, Path]  # frontier, histogram, run (the training report)
    before: Any = None  # rlvr.evaluation.run.EvalSummary of the starting model
    after: Any = None  # ... of the trained model
    paired: Any = None  # rlvr.evaluation.passk.Paired: after - before, per held-out task
    curve: list[dict[str, Any]] = field(default_factory=list)  # eval rows of the run


def _mean_reward(rows: list[dict[str, Any]], first: bool, window: int = 3) -> float | None:
    values = [r["reward_mean"] for r in rows if r.get("reward_mean") is not None]
    if not values:
        return None
    part = values[:window] if first else values[-window:]
    return sum(part) / len(part)


def held_out(
    env: Environment,
    stage: Stage,
    model: str,
    out: Path,
    on_progress: Callable[[Any], None] | None = None,
) -> Any:
    """`rlvr eval` of `model` on the stage's held-out tasks (resumable, like the command)."""
    config = EvalConfig(
        env=env.name,
        model=model,
        model_path=resolve_model(model),
        split="test",
        difficulty=stage.difficulty,
        n_tasks=stage.eval_tasks,
        n=stage.eval_samples,
        k=[1, stage.eval_samples],
        max_new_tokens=stage.max_new_tokens,
    )
    policy = make_policy(model, threads=default_threads(model) or 1)
    return run_eval(env, policy, config, out, progress=on_progress)


def _hack_flags(env: Environment, run_dir: Path) -> dict[str, int]:
    """Flag counts of the hack audit over every training answer of the run."""
    totals: dict[str, int] = {}
    rows = recheck(env, read_answers(run_dir / "groups.jsonl"), False, 2)
    for counts in flag_counts(rows).values():
        for kind, n in counts.items():
            totals[kind] = totals.get(kind, 0) + n
    return totals


def run_stage(
    stage: Stage,
    out: str | Path,
    on_progress: Callable[[Any], None] | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    on_eval: Callable[[dict[str, Any]], None] | None = None,
) -> StageResult:
    """Frontier filter -> GRPO (held-out pass@1 along the way) -> held-out evaluation before
    and after -> report -> hack audit, under `out/<stage.name>`, offline on CPU.

    Training sees only the train split; every pass@1 is measured on held-out tasks. Re-running
    with the same `out` resumes: stored groups, checkpoints and evaluations are reused.
    `on_progress` gets rollout progress of the frontier and of both evaluations.
    """
    from rlvr.frontier_report import run_frontier, summary_line  # heavy: imports torch
    from rlvr.learners.run import train  # heavy: imports torch and transformers
    from rlvr.rollout import RolloutConfig  # heavy: imports torch

    out = Path(out) / stage.name
    env = load_env(stage.env)
    pool = select_tasks(env, None, stage.difficulty, None, split="train")
    tasks = stable_subset(pool, stage.frontier_tasks)
    policy = make_policy(stage.model, threads=default_threads(stage.model))
    report, paths = run_frontier(
        env,
        policy,
        tasks,
        # the same every run
        RolloutConfig(
            g=stage.frontier_samples,
            sampling=SamplingConfig(seed=stage.seed, max_new_tokens=stage.max_new_tokens),
        ),
        out / "frontier.jsonl",
        progress=on_progress,
    )
    if not report.kept:
        raise RlvrError(
            f"demo stage {stage.name!r}: {stage.model} passes none of the {len(tasks)} sampled "
            f"{stage.env} tasks only sometimes, so GRPO would get no signal",
            "sample more tasks (frontier_tasks) or start from a model on their frontier",
        )
    overrides = {
        **stage.train,
        "env": stage.env,
        "model": stage.model,
        "algo": "grpo",
        "seed": stage.seed,
        "steps": stage.steps,
        "eval_every": stage.eval_every or max(1, stage.steps // 4),
        "eval_tasks": stage.eval_tasks if stage.eval_tasks is not None else 10**6,
        "eval_samples": stage.curve_samples or max(1, stage.eval_samples // 2),
        "task_filter": {"difficulty": stage.difficulty} if stage.difficulty else {},
        "tasks": str(paths["tasks"]),
    } | ({"max_new_tokens": stage.max_new_tokens} if stage.max_new_tokens else {})
    run_dir = train(
        load_config(None, overrides), out / "grpo", env=env, on_row=on_row, on_eval=on_eval
    )
    page = write_report(run_dir)
    before = held_out(env, stage, stage.model, out / "eval-before", on_progress)
    after = held_out(env, stage, str(run_dir), out / "eval-after", on_progress)
    paired, _ = compare_evals(out / "eval-before", out / "eval-after")
    metrics = read_metrics(run_dir)
    return StageResult(
        stage=stage,
        frontier=summary_line(report),
        run_dir=run_dir,
        reward_first=_mean_reward(metrics, first=True),
        reward_last=_mean_reward(metrics, first=False),
        flag_counts=_hack_flags(env, run_dir),
        pages={"frontier": paths["html"], "histogram": paths["histogram"], "run": page},
        before=before,
        after=after,
        paired=paired,
        curve=[r for r in metrics if "eval/pass@1" in r],
    )
