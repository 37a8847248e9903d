"""`rlvr rollout`: sample G answers per task, grade them, store scored groups.

Builds a config, calls `rlvr.rollout.collect` and prints one JSON summary line on stdout; the
progress bar (groups done, reward mean, zero-variance rate, grading backlog) goes to stderr.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

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
from rlvr.env import Environment
from rlvr.episodes.reference_teacher import REFERENCE_SPEC, write_reference_script
from rlvr.errors import RlvrError
from rlvr.registry import load_env
from rlvr.selection import select_tasks
from rlvr.store import GroupStore
from rlvr.types import Task


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

    Rerunning with the same --out resumes: tasks already stored are skipped. `--model
    reference` plays each task's reference as a teacher episode (a fix checked on the public
    examples, or the reference script in one `bash` call, then `submit`), judged like any other.
    """
    from rlvr.advantages import get_estimator  # heavy: imports torch
    from rlvr.rollout import collect  # heavy: imports torch

    use_env_paths(env_path)
    get_estimator(estimator)
    paths = sorted(str(p.resolve()) for p in env_path or []) or None  # where env was found
    same_run(out, {"env": env, "model": model, "group_size": g, "temperature": temperature,
                   "top_p": top_p, "max_new_tokens": max_new_tokens, "seed": seed,
                   "estimator": estimator, "served_model": served_model,
                   "env_path": paths})  # fmt: skip
    environment = load_env(env)
    chosen = select_tasks(environment, n_tasks, difficulty, tasks, split)
    if model == REFERENCE_SPEC:
        model, chosen = reference_teacher(environment, chosen, out, g)
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


def reference_teacher(environment: Environment, chosen: list[Task], out: Path, g: int
                      ) -> tuple[str, list[Task]]:  # fmt: skip
    """The replay spec of the chosen tasks' reference episodes (written beside --out), and the
    tasks it covers; the rest are named on stderr."""
    script = out.with_name(out.stem + ".reference-script.jsonl")
    covered = write_reference_script(environment, chosen, script, copies=g)
    if not covered:
        raise RlvrError(
            f"--model reference: none of the {len(chosen)} chosen task(s) of {environment.name} "
            "has a reference episode (a reference, and run_public_tests or bash among the tools)",
            "choose an episode environment whose tasks have references (repair-*, terminal)",
        )
    if len(covered) < len(chosen):
        typer.echo(f"--model reference: {len(chosen) - len(covered)} task(s) without a reference "
                   "are left out", err=True)  # fmt: skip
    return f"replay:{script}", covered


def same_run(out: Path, settings: dict[str, Any]) -> None:
    """Refuses to resume `out` under other settings (another model, G, environment...): the new
    groups would join the old ones in one file with nothing to tell them apart. The settings
    of the run that began the file are kept beside it (OUT.run.json); a file without them is
    checked by what its groups carry (environment and group size)."""
    record = out.with_name(out.name + ".run.json")
    begun = out.is_file() and out.stat().st_size > 0
    if not begun:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(settings, indent=1), encoding="utf-8")
        return
    if record.is_file():
        try:
            before = json.loads(record.read_text(encoding="utf-8"))
        except ValueError:
            before = None
        if not isinstance(before, dict):
            raise RlvrError(f"{record} (the settings --out {out} was begun with) is not JSON",
                            f"delete {record} if {out} holds only this run's groups")  # fmt: skip
        changed = {k: (before.get(k), v) for k, v in settings.items() if before.get(k) != v}
    else:
        stored = {(g.env, len(g.samples)) for g in GroupStore(out)}
        changed = {}
        if stored - {(settings["env"], settings["group_size"])}:
            env, size = sorted(stored)[0]
            changed = {"env, group_size": ((env, size), (settings["env"], settings["group_size"]))}
    if changed:
        what = "; ".join(f"{k} {a!r} -> {b!r}" for k, (a, b) in changed.items())
        raise RlvrError(
            f"--out {out} holds groups of another run ({what}); resuming would mix them",
            f"give a new --out, or rerun with the settings in {record}"
            if record.is_file() else "give a new --out, or rerun with its environment and -G",
        )  # fmt: skip
