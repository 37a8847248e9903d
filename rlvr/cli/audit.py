"""`rlvr audit graders` and `rlvr audit hacks`: audit a grader's tests, or stored answers.

    rlvr audit graders --env humaneval --tasks 20 --out audit/humaneval
    rlvr audit hacks --env python --input run/groups.jsonl --dynamic > flags.jsonl

`graders` writes DIR/tasks.jsonl, DIR/summary.json, DIR/report.html and a PNG histogram, prints
the specification gaps as a table on stderr and one JSON summary line on stdout. `hacks` prints
one JSON line per answer (task_id, step, index, flags with evidence) and a table of flag counts
per kind and per training step on stderr.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from rlvr.audit.recheck.stored import flag_counts, read_answers, recheck
from rlvr.audit.specgap.audit import GapOptions, audit_env
from rlvr.audit.specgap.report import write_gap_report
from rlvr.cli.common import EnvOpt, EnvPathOpt, emit, require_file, stderr, use_env_paths
from rlvr.cli.progress import Progress
from rlvr.references import Pick, choose_tasks
from rlvr.registry import load_env

app = typer.Typer(
    help="Audit graders for specification gaps and answers for reward hacks.", no_args_is_help=True
)
WorkersOpt = Annotated[int, typer.Option("--workers", min=1, help="Tasks checked at once.")]
SHOWN_GAPS = 20


def _bar(label: str, total: int) -> Progress:
    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    progress = Progress(*columns, console=stderr, transient=True)
    progress.add_task(label, total=total)
    return progress


def _audit_bar(n_tasks: int) -> Progress:
    """Answers judged (reference, trivial answers, mutants), and tasks finished."""
    columns = (TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TextColumn("answers,"),
               TextColumn("{task.fields[done]}/{task.fields[tasks]} tasks"),
               TimeElapsedColumn())  # fmt: skip
    progress = Progress(*columns, console=stderr, transient=True)
    progress.add_task("auditing", total=None, done=0, tasks=n_tasks)
    return progress


def _count_task(progress: Progress, bar: TaskID) -> None:
    progress.update(bar, done=progress.tasks[0].fields["done"] + 1)


def _load(env_name: str, timeout: float | None):
    env = load_env(env_name)
    if timeout is not None and env.sandbox is not None:
        env = load_env(env_name, grader_options={"sandbox": {**env.sandbox, "timeout_s": timeout}})
    return env


def _gap_table(audits: list, summary: object) -> Table:  # type: ignore[type-arg]
    table = Table(
        "task",
        "reference",
        "trivials fail",
        "mutants",
        "killed",
        "score",
        "gap",
        title=f"specification gaps (first {SHOWN_GAPS})",
    )
    for a in [a for a in audits if a.gap][:SHOWN_GAPS]:
        table.add_row(
            a.task_id,
            str(a.reference_passed),
            str(a.trivial_failed),
            str(a.mutants),
            str(a.mutants_killed),
            f"{a.mutation_score}",
            "; ".join(a.reasons)[:60],
        )
    s = summary
    table.caption = (
        f"{s.tasks} tasks, mutation score {s.mutation_score} (before case augmentation "  # type: ignore[attr-defined]
        f"{s.mutation_score_original}; mean per task "  # type: ignore[attr-defined]
        f"{s.mean_task_score}), {s.tasks_with_survivors} with surviving mutants, "  # type: ignore[attr-defined]
        f"{s.reference_failed} failing references, {s.trivial_passed} with passing "  # type: ignore[attr-defined]
        f"trivial answers, {s.golds_unreadable} unreadable golds, "  # type: ignore[attr-defined]
        f"{s.tasks_without_reference} without a reference, {s.duration_s} s"  # type: ignore[attr-defined]
    )  # type: ignore[attr-defined]
    return table


@app.command("graders")
def graders(
    env: EnvOpt,
    out: Annotated[Path, typer.Option("--out", help="Folder for tasks.jsonl and report.html.")],
    tasks: Annotated[
        int | None, typer.Option("--tasks", min=1, help="Audit N tasks (see --pick).")
    ] = None,
    pick: Annotated[
        Pick,
        typer.Option(
            "--pick",
            help="Which N tasks --tasks audits: the first N, or N chosen by "
            "the hash of their ids (spread over the whole set, the same every run).",
        ),
    ] = "first",
    max_mutants: Annotated[
        int, typer.Option("--max-mutants", min=0, help="Mutants per task.")
    ] = 40,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the mutant sample.")] = 0,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout",
            min=0.5,
            help="Code tasks: per-answer deadline in seconds (default: the manifest's).",
        ),
    ] = None,
    workers: WorkersOpt = 2,
    env_path: EnvPathOpt = None,
) -> None:
    """Reference must pass, trivial answers and mutants must fail: find the tests' gaps."""
    use_env_paths(env_path)
    environment = _load(env, timeout)
    chosen = choose_tasks(environment.tasks(), tasks, pick)
    opts = GapOptions(max_mutants=max_mutants, seed=seed, workers=workers)
    with _audit_bar(len(chosen)) as progress:
        bar = progress.task_ids[0]
        audits, summary = audit_env(
            environment,
            chosen,
            opts,
            on_done=lambda _a: _count_task(progress, bar),
            on_graded=lambda n: progress.advance(bar, n),
            on_planned=lambda n: progress.update(bar, total=n),
        )
    page = write_gap_report(out, audits, summary)
    stderr.print(_gap_table(audits, summary))
    stderr.print(f"checks that ran ({summary.language}): " + "; ".join(summary.checks),
                 highlight=False, markup=False)  # fmt: skip
    if summary.note:
        stderr.print(f"note: {summary.note}", highlight=False, markup=False)
    stderr.print(f"report: {page}", highlight=False)
    emit({**summary.model_dump(), "report": str(page), "tasks_jsonl": str(out / "tasks.jsonl")})


def _count_table(counts: dict) -> Table:  # type: ignore[type-arg]
    kinds = sorted({k for c in counts.values() for k in c} - {"answers", "flagged"})
    table = Table("step", "answers", "flagged", *kinds, title="hack flags per training step")
    for step, c in counts.items():
        table.add_row(
            "-" if step is None else str(step),
            str(c["answers"]),
            str(c["flagged"]),
            *(str(c.get(k, 0)) for k in kinds),
        )
    return table


@app.command("hacks")
def hacks(
    env: EnvOpt,
    input_file: Annotated[
        Path, typer.Option("--input", help="Completions JSONL or a GroupStore file; - for stdin.")
    ],
    dynamic: Annotated[
        bool,
        typer.Option(
            "--dynamic/--static",
            help="Also run answers in the sandbox (grade loose completions, compare Python "
            "answers with the reference on perturbed inputs).",
        ),
    ] = False,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the JSON lines here, not stdout.")
    ] = None,
    workers: WorkersOpt = 2,
    env_path: EnvPathOpt = None,
) -> None:
    """Flag reward hacks in stored answers; counts per kind and step go to stderr."""
    use_env_paths(env_path)
    require_file(input_file, "input file")
    environment = load_env(env)
    answers = read_answers(input_file)
    with _bar("checking", len(answers)) as progress:
        rows = recheck(
            environment,
            answers,
            dynamic,
            workers,
            lambda n: progress.advance(progress.task_ids[0], n),
        )
    fh = out.open("w", encoding="utf-8") if out else sys.stdout
    try:
        for row in rows:
            emit(row, fh)
    finally:
        if out:
            fh.close()
    counts = flag_counts(rows)
    kinds = {k for c in counts.values() for k in c}
    wide = Console(stderr=True, width=max(stderr.width, 24 + 19 * len(kinds)))
    wide.print(_count_table(counts))
