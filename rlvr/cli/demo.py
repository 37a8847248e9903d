"""`rlvr demo`: the main job on the embedded default, offline on CPU."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from rlvr.cli.common import JsonOpt, emit, fmt, stderr
from rlvr.cli.sampling import rollout_bar, warm_start
from rlvr.cli.train import print_eval
from rlvr.demo import DEFAULT_ENVS, STAGES, Stage, StageResult, run_demo, run_stage
from rlvr.demo_page import write_index


def demo(
    env: Annotated[
        list[str] | None, typer.Option("--env", "-e", help="Environments to check (repeatable).")
    ] = None,
    n_tasks: Annotated[int | None, typer.Option(help="At most this many tasks per env.")] = None,
    workers: Annotated[int, typer.Option(min=1, help="Tasks graded at once.")] = os.cpu_count()
    or 2,
    out: Annotated[Path, typer.Option("--out", help="Folder for the loop's outputs.")] = Path(
        "runs/demo"
    ),
    steps: Annotated[
        int | None, typer.Option(min=1, help="GRPO steps of every stage (default: its own).")
    ] = None,
    train: Annotated[
        bool, typer.Option("--train/--graders-only", help="Run the training loop after the check.")
    ] = True,
    json_out: JsonOpt = False,
) -> None:
    """Check every bundled grader on its references, then run frontier -> GRPO -> report ->
    hack audit -> held-out before/after on the tiny model, once per stage (math-columns).
    Re-running resumes."""
    names = tuple(env) if env else DEFAULT_ENVS
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, console=stderr, transient=True) as progress:

        def on_env(name: str, total: int):
            bar = progress.add_task(name, total=total)
            return lambda n: progress.advance(bar, n)

        results = run_demo(names, n_tasks, workers, on_env)
    if json_out:
        for r in results:
            emit({**r.__dict__, "answers_per_s": round(r.answers_per_s, 1)})
    else:
        _grader_table(results)
    if train:
        _loop(out, steps, json_out)


def _grader_table(results: list[Any]) -> None:
    table = Table(title="graders on their own references")
    for col in ("env", "tasks", "references passed", "neighbours rejected", "masked", "answers/s"):
        table.add_column(col, justify="left" if col == "env" else "right")
    for r in results:
        table.add_row(
            r.env,
            str(r.tasks),
            f"{r.references_passed}/{r.tasks}",
            f"{r.neighbours_rejected}/{r.tasks}",
            str(r.masked),
            f"{r.answers_per_s:.0f}",
        )
    Console().print(table)


def _loop(out: Path, steps: int | None, json_out: bool) -> None:
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    results = [
        _stage(stage if steps is None else replace(stage, steps=steps), out) for stage in STAGES
    ]
    index = write_index(results, out / "index.html")
    if json_out:
        for result in results:
            emit(_summary(result, index))
        return
    for result in results:
        _print_summary(result)
    Console().print(f"open {index}", highlight=False)


def _stage(stage: Stage, out: Path) -> StageResult:
    """One stage with its bars: the warm start (once), the GRPO steps, the rollouts."""
    warm_start(stage.model)
    with Progress(
        TextColumn(f"GRPO step ({stage.name})"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[r]}"), console=stderr,
    ) as bar:  # fmt: skip
        step_bar = bar.add_task("grpo", total=stage.steps, r="")

        def on_row(row: dict[str, Any]) -> None:
            bar.update(step_bar, completed=row["step"], r=f"reward {fmt(row['reward_mean'])}")

        with rollout_bar(f"{stage.name}: frontier / held-out eval") as update:
            return run_stage(stage, out, on_progress=update, on_row=on_row, on_eval=print_eval)


def _summary(result: StageResult, index: Path) -> dict[str, Any]:
    paired = result.paired
    return {
        "stage": result.stage.name,
        "env": result.stage.env,
        "model": result.stage.model,
        "frontier": {
            k: result.frontier[k] for k in ("tasks", "always_pass", "always_fail", "kept")
        },
        "reward_first": result.reward_first,
        "reward_last": result.reward_last,
        "held_out_before": result.before.pass_at["pass@1"].model_dump(),
        "held_out_after": result.after.pass_at["pass@1"].model_dump(),
        "held_out_diff": {"mean": paired.diff, "ci95": paired.ci95, "p_value": paired.p_value},
        "hack_flags": result.flag_counts,
        "run_dir": str(result.run_dir),
        "report": str(index),
    }


def _print_summary(result: StageResult) -> None:
    console = Console()
    f, name = result.frontier, result.stage.name
    console.print(
        f"{name}: frontier: {f['kept']} of {f['tasks']} {result.stage.env} train tasks kept "
        f"({f['always_pass']} always pass, {f['always_fail']} always fail)",
        highlight=False,
    )
    console.print(
        f"{name}: GRPO: training reward {fmt(result.reward_first)} (first steps) -> "
        f"{fmt(result.reward_last)} (last steps) in {result.run_dir}",
        highlight=False,
    )
    b, a, p = result.before.pass_at["pass@1"], result.after.pass_at["pass@1"], result.paired
    console.print(
        f"{name}: held-out pass@1 ({result.before.n_tasks} test tasks x "
        f"{result.before.n_samples} samples): before {_ci(b)} -> after {_ci(a)}; "
        f"paired difference {p.diff:+.3f} [{p.ci95[0]:+.3f}, {p.ci95[1]:+.3f}], "
        f"p = {p.p_value:.3g}",
        highlight=False,
    )
    console.print(f"{name}: hack flags on training answers: {result.flag_counts or 'none'}")


def _ci(est: Any) -> str:
    return f"{fmt(est.mean)} [{fmt(est.ci95[0])}, {fmt(est.ci95[1])}]"
