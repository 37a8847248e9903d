"""`rlvr demo`: the main job on the embedded default, offline on CPU."""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from rlvr.cli.common import JsonOpt, emit, stderr


def demo(
    env: Annotated[
        list[str] | None, typer.Option("--env", "-e", help="Environments to check (repeatable).")
    ] = None,
    n_tasks: Annotated[int | None, typer.Option(help="At most this many tasks per env.")] = None,
    workers: Annotated[int, typer.Option(min=1, help="Tasks graded at once.")] = os.cpu_count()
    or 2,
    json_out: JsonOpt = False,
) -> None:
    """Grade every bundled environment's reference answers and summarise the graders."""
    from rlvr.demo import DEFAULT_ENVS, run_demo

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
        return
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
