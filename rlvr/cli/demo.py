"""`rlvr demo`: the main job on the embedded default, offline on CPU."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
from rich.table import Table

from rlvr.cli.common import JsonOpt, emit, fmt, stderr
from rlvr.cli.progress import Progress
from rlvr.cli.sampling import rollout_bar, warm_start
from rlvr.cli.train import print_eval
from rlvr.cli.warm_starts import build_warm_starts
from rlvr.demo import DEFAULT_ENVS, STAGES, Stage, StageResult, run_demo
from rlvr.demo_code import CODE, CodeResult, CodeStage, run_code_stage, stage_problem
from rlvr.demo_jobs import StageCallbacks, run_pipeline
from rlvr.demo_page import warm_start_sentence
from rlvr.demo_transcripts import episode_figures


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
    code: Annotated[
        bool,
        typer.Option(
            "--code/--no-code",
            help="After the loop, grade SmolLM2's answers to held-out synth-python tasks in the "
            "Docker sandbox (evaluation only).",
        ),
    ] = True,
    json_out: JsonOpt = False,
) -> None:
    """Check every bundled grader on its references, then run frontier -> GRPO -> report ->
    hack audit -> held-out before/after on the tiny model, once per stage (math-columns, and
    math-columns-retry episodes with a submit tool, side by side on a machine with 2 cores),
    then the code stage: SmolLM2 on held-out synth-python, graded in the sandbox, no training.
    Re-running resumes. Exit code 1 when the code stage could not run (no Docker daemon, or
    SmolLM2's wheel missing): the page and the output say why, with the fix."""
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
        _loop(out, steps, json_out, code)


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


def _loop(out: Path, steps: int | None, json_out: bool, code: bool) -> None:
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    problem = stage_problem(CODE) if code else None
    if problem is not None:  # said first, so nobody waits through the math stage to learn it
        stderr.print(f"the code stage will not run: {problem}", highlight=False)
    stages = tuple(stage if steps is None else replace(stage, steps=steps) for stage in STAGES)
    build_warm_starts([stage.model for stage in stages])  # side by side on 2 cores
    with ExitStack() as bars:
        callbacks = {s.name: bars.enter_context(_stage_bars(s)) for s in stages}
        results, graded, index = run_pipeline(
            out, stages, CODE if code else None, callbacks, run_code=_code_stage
        )
    if json_out:
        for result in results:
            emit(_summary(result, index))
        if graded is not None:
            emit(_code_summary(graded, index))
    else:
        for result in results:
            _print_summary(result)
        if graded is not None:
            _print_code(graded)
        Console().print(f"open {index}", highlight=False)
    if graded is not None and graded.skipped is not None:
        raise typer.Exit(1)


def _code_stage(stage: CodeStage, out: Path) -> CodeResult:
    """The code stage with its bars: the model's conversion (once), the held-out rollout."""
    if stage_problem(stage) is None:
        warm_start(stage.model)
    with rollout_bar(f"{stage.name}: held-out answers graded in the sandbox") as update:
        return run_code_stage(stage, out, on_progress=update)


def _code_summary(result: CodeResult, index: Path) -> dict[str, Any]:
    s = result.summary
    return {
        "stage": result.stage.name,
        "env": result.stage.env,
        "model": result.stage.model,
        "skipped": result.skipped,
        "held_out": s.pass_at["pass@1"].model_dump() if s else None,
        "n_tasks": s.n_tasks if s else None,
        "masked": s.masked if s else None,
        "answers_per_s": result.answers_per_s,
        "stage_s": result.seconds,
        "eval_dir": str(result.eval_dir),
        "report": str(index),
    }


def _print_code(result: CodeResult) -> None:
    name, s = result.stage.name, result.summary
    if result.skipped is not None or s is None:
        stderr.print(f"{name}: not run: {result.skipped}", highlight=False)
        return
    Console().print(
        f"{name}: {result.stage.model} on {s.n_tasks} held-out {result.stage.env} tasks "
        f"(greedy, graded in the sandbox, no training): pass@1 {_ci(s.pass_at['pass@1'])}, "
        f"{s.masked} masked, {fmt(result.answers_per_s, '.2f')} answers/s, "
        f"{fmt(result.seconds, '.0f')} s",
        highlight=False,
    )


@contextmanager
def _stage_bars(stage: Stage) -> Iterator[StageCallbacks]:
    """A stage's bars (its GRPO steps, its rollouts) and eval lines, named by the stage: the
    stages run side by side, so every line says whose it is."""
    with Progress(
        TextColumn(f"GRPO step ({stage.name})"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[r]}"), console=stderr,
    ) as bar:  # fmt: skip
        step_bar = bar.add_task(f"{stage.name}: grpo", total=stage.steps, r="")

        def on_row(row: dict[str, Any]) -> None:
            bar.update(step_bar, completed=row["step"], r=f"reward {fmt(row['reward_mean'])}")

        with rollout_bar(f"{stage.name}: frontier / held-out eval") as update:
            yield StageCallbacks(update, on_row, lambda row: print_eval(row, f"{stage.name}: "))


def _summary(result: StageResult, index: Path) -> dict[str, Any]:
    paired = result.paired
    return {
        "stage": result.stage.name,
        "env": result.stage.env,
        "model": result.stage.model,
        "warm_start": warm_start_sentence(result.stage.model),
        "frontier": {
            k: result.frontier[k] for k in ("tasks", "always_pass", "always_fail", "kept")
        },
        "reward_first": result.reward_first,
        "reward_last": result.reward_last,
        "held_out_before": result.before.pass_at["pass@1"].model_dump(),
        "held_out_after": result.after.pass_at["pass@1"].model_dump(),
        "held_out_diff": {"mean": paired.diff, "ci95": paired.ci95, "p_value": paired.p_value},
        "episodes_before": episode_figures(result.before),
        "episodes_after": episode_figures(result.after),
        "hack_flags": result.flag_counts,
        "run_dir": str(result.run_dir),
        "report": str(index),
    }


def _print_summary(result: StageResult) -> None:
    console = Console()
    f, name = result.frontier, result.stage.name
    if sentence := warm_start_sentence(result.stage.model):
        console.print(f"{name}: {sentence}", highlight=False)
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
    fb, fa = episode_figures(result.before), episode_figures(result.after)
    if fb is not None and fa is not None:
        console.print(
            f"{name}: episodes with a call the tool carried out {fb['called']:.3f} -> "
            f"{fa['called']:.3f}; pass@1 without a retry {fb['without_retry']:.3f} -> "
            f"{fa['without_retry']:.3f}, after a retry {fb['after_retry']:.3f} -> "
            f"{fa['after_retry']:.3f}",
            highlight=False,
        )
    console.print(f"{name}: hack flags on training answers: {result.flag_counts or 'none'}")


def _ci(est: Any) -> str:
    return f"{fmt(est.mean)} [{fmt(est.ci95[0])}, {fmt(est.ci95[1])}]"
