"""`rlvr frontier`: estimate each task's pass rate and keep the tasks inside a band.

Calls `rlvr.frontier_report.run_frontier` and prints one JSON summary line on stdout; the
progress bar goes to stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rlvr.cli.common import EnvOpt, EnvPathOpt, TrainSplitOpt, emit, use_env_paths
from rlvr.cli.sampling import (
    BatchOpt,
    DeviceOpt,
    DifficultyOpt,
    MaxTokOpt,
    ModelOpt,
    NTasksOpt,
    SeedOpt,
    ServedOpt,
    TasksOpt,
    TempOpt,
    ThreadsOpt,
    TopPOpt,
    WorkersOpt,
    open_policy,
    rollout_bar,
    rollout_config,
)
from rlvr.registry import load_env
from rlvr.selection import select_tasks


def frontier(
    env: EnvOpt,
    model: ModelOpt,
    out: Annotated[Path, typer.Option("--out", "-o", help="Kept tasks (Task JSONL).")],
    k: Annotated[int, typer.Option("-k", min=1, help="Samples per task for the estimate.")] = 8,
    low: Annotated[float, typer.Option(min=0.0, max=1.0, help="Band's lower end.")] = 0.0,
    high: Annotated[float, typer.Option(min=0.0, max=1.0, help="Band's upper end.")] = 1.0,
    inclusive: Annotated[bool, typer.Option(help="Keep the band's ends too.")] = False,
    group_size: Annotated[
        int | None, typer.Option("-G", "--group-size", help="G for the compute figures (k).")
    ] = None,
    n_tasks: NTasksOpt = None,
    difficulty: DifficultyOpt = None,
    tasks: TasksOpt = None,
    split: TrainSplitOpt = "train",
    temperature: TempOpt = 1.0,
    top_p: TopPOpt = 1.0,
    max_new_tokens: MaxTokOpt = None,
    seed: SeedOpt = None,
    batch_tasks: BatchOpt = 8,
    grade_workers: WorkersOpt = 4,
    device: DeviceOpt = None,
    threads: ThreadsOpt = None,
    served_model: ServedOpt = None,
    env_path: EnvPathOpt = None,
) -> None:
    """Estimate each task's pass rate from k samples and keep the tasks inside the band.

    Writes --out (kept tasks, usable as `--tasks`), and beside it a JSON report, a PNG
    histogram and an HTML page with the counts and the compute saved per epoch.
    """
    from rlvr.frontier_report import run_frontier, summary_line  # heavy: imports torch

    use_env_paths(env_path)
    environment = load_env(env)
    chosen = select_tasks(environment, n_tasks, difficulty, tasks, split)
    config = rollout_config(
        k,
        temperature,
        top_p,
        max_new_tokens,
        seed,
        batch_tasks=batch_tasks,
        grade_workers=grade_workers,
    )
    policy = open_policy(model, device, served_model, threads)
    with rollout_bar("frontier") as update:
        report, paths = run_frontier(
            environment,
            policy,
            chosen,
            config,
            out,
            low,
            high,
            not inclusive,
            group_size,
            progress=update,
        )
    emit({**summary_line(report), "files": {name: str(p) for name, p in paths.items()}})
