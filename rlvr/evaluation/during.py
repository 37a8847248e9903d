"""Evaluation during training: held-out pass@1 at step 0, every `eval_every` steps, and at
the end, as rows of the run's metrics.jsonl.

An evaluation row is `{"step", "eval/pass@1", "eval/pass@1_ci95": [lo, hi], "eval/pass@1_lo",
"eval/pass@1_hi", "eval/n_tasks", "eval/samples", "eval/masked", "eval/time"}`; training rows
are untouched. The evaluated tasks
are a fixed, hash-chosen subset of the test split after the run's `task_filter` (not its
`tasks` file, which selects training tasks), sampled with the same seed every time so that two
evaluations of one run differ by the weights, not by the dice. Sampling runs inside a forked
random state: evaluating never changes the training run's random stream, so a run with
evaluation and a resumed run take the same steps.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.evaluation.passk import estimate
from rlvr.policies.base import SamplingConfig
from rlvr.policies.hf import HFPolicy
from rlvr.rollout import RolloutConfig, score_tasks
from rlvr.splits import filter_split, stable_subset
from rlvr.types import Task

EvalCallback = Callable[[dict[str, Any]], None]


def held_out_tasks(env: Environment, cfg: Any) -> list[Task]:
    """The test split after the meta filter, cut to cfg.eval_tasks by a stable hash."""
    tasks = filter_split(env.tasks(), env.split, env.name, "test")
    for key, want in cfg.task_filter.items():
        tasks = [t for t in tasks if str(t.meta.get(key)) == want]
    return stable_subset(tasks, cfg.eval_tasks)


def _done_steps(metrics_path: Path) -> set[int]:
    if not metrics_path.is_file():
        return set()
    steps = set()
    for line in metrics_path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "eval/pass@1" in row:
            steps.add(int(row["step"]))
    return steps


class TrainingEval:
    """Decides when to evaluate and appends the rows; one per learner run."""

    def __init__(
        self,
        cfg: Any,
        env: Environment,
        tokenizer: Any,
        metrics_path: Path,
        enabled: bool = True,
        on_eval: EvalCallback | None = None,
    ) -> None:
        self.cfg, self.env, self.tokenizer = cfg, env, tokenizer
        self.metrics_path = metrics_path
        self.on_eval = on_eval
        self.enabled = enabled and cfg.eval_tasks != 0
        self.tasks: list[Task] = held_out_tasks(env, cfg) if self.enabled else []
        if self.enabled and not self.tasks:
            raise RlvrError(
                f"environment {env.name!r} has no held-out (test) task after task_filter="
                f"{cfg.task_filter} to evaluate during training",
                "set eval_tasks = 0 to train without evaluation, or give the environment a "
                "test split ([split] test_fraction in its env.toml)",
            )

    def due(self, step: int) -> bool:
        every = self.cfg.eval_every
        return step == 0 or step == self.cfg.steps or bool(every and step % every == 0)

    def maybe(self, step: int, model: Any, autocast: Callable[[], Any]) -> dict[str, Any] | None:
        """Evaluate at `step` when due and not already in metrics.jsonl; returns the row."""
        if not self.enabled or not self.due(step) or step in _done_steps(self.metrics_path):
            return None
        row = self.evaluate(step, model, autocast)
        with self.metrics_path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
        if self.on_eval is not None:
            self.on_eval(row)
        return row

    def evaluate(self, step: int, model: Any, autocast: Callable[[], Any]) -> dict[str, Any]:
        """pass@1 of the model as it is now, over the held-out tasks."""
        cfg = self.cfg
        sampling = SamplingConfig(
            temperature=cfg.eval_temperature,
            max_new_tokens=getattr(cfg, "max_new_tokens", None),
            seed=cfg.seed,
        )
        rollout = RolloutConfig(
            g=cfg.eval_samples,
            sampling=sampling,
            batch_tasks=16,
            grade_workers=getattr(cfg, "grade_workers", 4),
        )
        policy = HFPolicy(model, self.tokenizer, name=cfg.model, batch_size=256)
        start = time.perf_counter()
        devices = [torch.cuda.current_device()] if torch.cuda.is_available() else []
        was_training = model.training
        model.eval()
        with torch.random.fork_rng(devices=devices), autocast(), torch.no_grad():
            groups = score_tasks(self.env, policy, self.tasks, rollout)
        model.train(was_training)
        per_task, masked = [], 0
        for g in groups:
            scored = [v for v in g.verdicts if v.is_scored]
            masked += len(g.verdicts) - len(scored)
            if scored:
                per_task.append(sum(v.passed for v in scored) / len(scored))
        est = estimate(per_task, seed=cfg.seed)
        return {
            "step": step,
            "eval/pass@1": est.mean,
            "eval/pass@1_ci95": est.ci95,
            "eval/pass@1_lo": est.ci95[0] if est.ci95 else None,  # scalars for trackers
            "eval/pass@1_hi": est.ci95[1] if est.ci95 else None,
            "eval/n_tasks": est.n_tasks,
            "eval/samples": cfg.eval_samples,
            "eval/masked": masked,
            "eval/time": time.perf_counter() - start,
        }
