"""`rlvr rollout`: sample G answers per task, grade them, store scored groups.

Builds a config, calls `rlvr.rollout.collect` and prints one JSON summary line on stdout; the
progress bar (groups done, reward mean, zero-variance rate, grading backlog) goes to stderr.
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
from rlvr.distributed.cli import RayAddressOpt, RayOpt, ray_session
from rlvr.registry import load_env
from rlvr.selection import select_tasks
from rlvr.store import GroupStore


def rollout(
    env: EnvOpt,
    model: ModelOpt,
    out: Annotated[Path, typer.Option("--out", "-o", help="Scored-group JSONL (resumable).")],
    g: Annotated[int, typer.Option("-G", "--group-size", min=1, help="Answers per task.")] = 8,
    n_tasks: NTasksOpt = None,
    difficulty: DifficultyOpt = None,
    tasks: TasksOpt = None,
    split: TrainSplitOpt = "train",
    estimator: Annotated[
        str, typer.Option(help="Advantages: grpo, dr_grpo, rloo, reinforce_pp.")
    ] = "grpo",
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
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
) -> None:
    """Sample G answers per task, grade them and append scored groups to --out.

    Rerunning with the same --out resumes: tasks already stored are skipped.
    """
    from rlvr.advantages import get_estimator  # heavy: imports torch
    from rlvr.rollout import collect  # heavy: imports torch

    use_env_paths(env_path)
    get_estimator(estimator)
    environment = load_env(env)
    chosen = select_tasks(environment, n_tasks, difficulty, tasks, split)
    with ray_session(environment, ray, ray_address) as session, rollout_bar("rollout") as update:
        config = rollout_config(
            g,
            temperature,
            top_p,
            max_new_tokens,
            seed,
            estimator=estimator,
            batch_tasks=batch_tasks,
            grade_workers=session.workers(grade_workers),
        )
        policy = session.server_policy(model, served_model) or open_policy(
            model, device, served_model, threads
        )
        summary = collect(session.env, policy, config, GroupStore(out), chosen, progress=update)
    emit({"out": str(out), "env": env, "model": model, **summary.model_dump()})
