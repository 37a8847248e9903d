"""`rlvr eval`: pass@k on the held-out split with intervals, and `--compare A B`.

Writes DIR/summary.json, DIR/per_task.jsonl and DIR/report.html (+ report.png); prints one
JSON summary line on stdout and a table on stderr. Rerunning with the same DIR resumes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from rlvr.cli.common import EnvPathOpt, EvalSplitOpt, JsonOpt, emit, stderr, use_env_paths
from rlvr.cli.sampling import (
    BatchOpt,
    DeviceOpt,
    DifficultyOpt,
    MaxTokOpt,
    ServedOpt,
    TasksOpt,
    ThreadsOpt,
    TopPOpt,
    WorkersOpt,
    open_policy,
    rollout_bar,
    warm_start,
)
from rlvr.errors import RlvrError, format_validation_error
from rlvr.evaluation.compare import compare_evals
from rlvr.evaluation.run import EvalConfig, run_eval
from rlvr.models import resolve_model
from rlvr.registry import load_env


def _ks(text: str | None) -> list[int]:
    if text is None:
        return []
    try:
        return sorted({int(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise RlvrError(
            f"-k {text!r}: expected numbers separated by commas", "e.g. -k 1,8"
        ) from None


def _model_path(model: str) -> str | None:
    if model.startswith(("http://", "https://", "replay:")):
        return None

    return resolve_model(model)


def _fmt(est: dict[str, Any]) -> str:
    if est.get("mean") is None:
        return "-"
    lo, hi = est["ci95"]
    return f"{est['mean']:.3f} [{lo:.3f}, {hi:.3f}]"


def _compare(dirs: tuple[Path, Path], metric: str, json_out: bool) -> None:
    paired, facts = compare_evals(dirs[0], dirs[1], metric)
    record = {**facts, **paired.model_dump()}
    emit(record)
    if json_out:
        return
    table = Table("", "value", title=f"{facts['env']}: {metric}, B - A per task")
    table.add_row("A", f"{facts['model_a']} ({facts['split_a']})  mean {paired.mean_a:.3f}")
    table.add_row("B", f"{facts['model_b']} ({facts['split_b']})  mean {paired.mean_b:.3f}")
    table.add_row("shared tasks", str(paired.n_tasks))
    lo, hi = paired.ci95
    table.add_row("difference", f"{paired.diff:+.3f}  95% interval [{lo:+.3f}, {hi:+.3f}]")
    table.add_row("p-value", f"{paired.p_value:.4g}  ({paired.test})")
    table.add_row("B better / worse / tied", f"{paired.better} / {paired.worse} / {paired.ties}")
    stderr.print(table)


def evaluate(
    env: Annotated[str | None, typer.Option("--env", "-e", help="Environment name.")] = None,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            "-m",
            help="tiny, tiny-sft, tiny-code, a model or run folder (its newest checkpoint), a "
            "hub name, http(s)://HOST/v1 or replay:FILE.",
        ),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Evaluation folder.")] = None,
    split: EvalSplitOpt = "test",
    n: Annotated[int, typer.Option("-n", min=1, help="Samples per task.")] = 8,
    k: Annotated[str | None, typer.Option("-k", help="pass@k values, e.g. 1,8 (default 1,n).")] = (
        None
    ),
    temperature: Annotated[
        float, typer.Option("--temperature", min=0.0, help="0: greedy (with -n 1).")
    ] = 1.0,
    top_p: TopPOpt = 1.0,
    max_new_tokens: MaxTokOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Sampling and bootstrap seed.")] = 0,
    n_tasks: Annotated[
        int | None, typer.Option("--n-tasks", min=1, help="A stable subset of N tasks.")
    ] = None,
    difficulty: DifficultyOpt = None,
    tasks: TasksOpt = None,
    batch_tasks: BatchOpt = 8,
    grade_workers: WorkersOpt = 4,
    device: DeviceOpt = None,
    threads: ThreadsOpt = None,
    served_model: ServedOpt = None,
    compare: Annotated[
        tuple[Path, Path] | None,
        typer.Option("--compare", help="Two evaluation folders A B: paired difference B - A."),
    ] = None,
    metric: Annotated[str, typer.Option(help="--compare: which pass@k.")] = "pass@1",
    json_out: JsonOpt = False,
    env_path: EnvPathOpt = None,
) -> None:
    """Evaluate a model on an environment's held-out split: pass@k with 95% intervals.

    Greedy: -n 1 --temperature 0. Sampled: -n 8 -k 1,8. Rerunning with the same --out resumes.
    """
    if compare is not None:
        _compare(compare, metric, json_out)
        return
    if env is None or model is None or out is None:
        raise RlvrError("rlvr eval needs --env, --model and --out", "or --compare DIR_A DIR_B")
    from pydantic import ValidationError

    use_env_paths(env_path)
    environment = load_env(env)
    warm_start(model)
    try:
        config = EvalConfig(
            env=env, model=model, model_path=_model_path(model), split=split, n=n, k=_ks(k),
            temperature=temperature, top_p=top_p, max_new_tokens=max_new_tokens, seed=seed,
            n_tasks=n_tasks, difficulty=difficulty, tasks=None if tasks is None else str(tasks),
            batch_tasks=batch_tasks,
            grade_workers=grade_workers,
        )  # fmt: skip
    except ValidationError as e:
        raise RlvrError(format_validation_error("rlvr eval", e)) from None
    policy = open_policy(model, device, served_model, threads)
    with rollout_bar("eval") as update:
        summary = run_eval(environment, policy, config, out, progress=update)
    data = summary.as_json()
    emit({"out": str(out), **{key: data[key] for key in data if key != "breakdown"}})
    if json_out:
        return
    table = Table("metric", "mean [95% interval]", "tasks", title=f"{env} ({split}): {model}")
    for key, est in summary.pass_at.items():
        table.add_row(key, _fmt(est.model_dump()), str(est.n_tasks))
    for key, labels in summary.breakdown.items():
        for label, est in labels.items():
            table.add_row(f"pass@1 {key}={label}", _fmt(est.model_dump()), str(est.n_tasks))
    if summary.episodes is not None:
        ep = summary.episodes
        for turns, est in ep["pass@1_by_turns"].items():
            table.add_row(f"pass@1 within {turns} turn(s)", _fmt(est), str(est["n_tasks"]))
        table.add_row("mean turns", f"{ep['turns_mean']:.2f}", str(summary.n_tasks))
        table.add_row("tool-call error rate", f"{ep['tool_error_rate']:.3f}", str(summary.n_tasks))
        if "valid_call_frac" in ep:
            table.add_row("episodes with a valid call", f"{ep['valid_call_frac']:.3f}",
                          str(summary.n_tasks))  # fmt: skip
            ends = ", ".join(f"{k} {v}" for k, v in ep.get("ends", {}).items())
            table.add_row("episode ends", ends, str(summary.n_tasks))
    stderr.print(table)
    stderr.print(f"masked samples: {summary.masked}; report: {Path(out) / 'report.html'}")
    for warning in summary.warnings:
        stderr.print(f"[bold red]warning: {warning}[/]")
