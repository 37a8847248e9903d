"""`rlvr grade`: grade a file of completions against an environment.

Input lines `{"task_id", "completion"}`; output one line per input, in order:
`{"task_id", "status", "reward", "passed", "reason", "flags", "details"}`. Lines that cannot be
graded (unknown task id, bad JSON) become `status: "input_error"` lines, never a crash.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

from rlvr.cli.common import (
    EnvOpt,
    EnvPathOpt,
    emit,
    read_jsonl,
    require_file,
    stderr,
    use_env_paths,
)
from rlvr.cli.progress import Progress
from rlvr.distributed.cli import RayAddressOpt, RayOpt, ray_session
from rlvr.grading import GradeItem, grade_items
from rlvr.registry import load_env


def _items(path: Path) -> list[GradeItem]:
    items = []
    for lineno, obj in read_jsonl(path):
        if isinstance(obj, str):
            items.append(GradeItem("", "", error=obj))
        elif not isinstance(obj.get("task_id"), str) or not isinstance(obj.get("completion"), str):
            items.append(
                GradeItem(
                    str(obj.get("task_id") or ""),
                    "",
                    error=f"line {lineno}: needs string fields 'task_id' and 'completion'",
                )
            )
        else:
            items.append(GradeItem(obj["task_id"], obj["completion"]))
    return items


def grade(
    env: EnvOpt,
    answers: Annotated[Path, typer.Option("--answers", help="JSONL of {task_id, completion}.")],
    out: Annotated[Path | None, typer.Option("--out", help="Write lines here, not stdout.")] = None,
    workers: Annotated[int, typer.Option(help="Tasks graded at once.", min=1)] = os.cpu_count()
    or 2,
    env_path: EnvPathOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
) -> None:
    """Grade completions with an environment's grader; one JSON line per input line."""
    use_env_paths(env_path)
    require_file(answers, "answers file")
    environment = load_env(env)
    if environment.episode is not None:  # else a stored retry pass reads 1.0, trained at 0.5
        stderr.print(
            f"note: {env} runs episodes; each completion is graded here as a single-turn "
            "answer, so an episode's own reward (a retry's discount, its tool calls) is not "
            "applied: the episode's verdict is in its rollout's groups.jsonl",
            highlight=False,
        )
    items = _items(answers)
    columns = (TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with (
        ray_session(environment, ray, ray_address) as session,
        Progress(*columns, console=stderr, transient=True) as progress,
    ):
        bar = progress.add_task("grade", total=len(items))
        rows = grade_items(
            session.env, items, session.workers(workers), lambda n: progress.advance(bar, n)
        )
    fh = out.open("w", encoding="utf-8") if out else sys.stdout
    try:
        for row in rows:
            emit(row, fh)
    finally:
        if out:
            fh.close()
    passed = sum(1 for r in rows if r["passed"])
    errors = sum(1 for r in rows if r["status"] == "input_error")
    stderr.print(f"{len(rows)} graded, {passed} passed, {errors} input errors", highlight=False)
