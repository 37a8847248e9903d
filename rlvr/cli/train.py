"""`rlvr train`: a thin shell over rlvr.learners.run.train.

Settings layer as: the run folder's saved config.json (so re-running with the same --out
resumes), then --config FILE (TOML or JSON), then the flags and `--set key=value`. The config is
printed at start; progress goes to stderr; `--json` prints each metrics row on stdout.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from rlvr.cli.common import (
    EnvPathOpt,
    JsonOpt,
    LoraAlphaOpt,
    LoraRankOpt,
    LoraTargetsOpt,
    emit,
    fmt,
    lora_flags,
    split_option,
    stderr,
    use_env_paths,
)
from rlvr.cli.progress import Progress
from rlvr.cli.sampling import warm_start
from rlvr.distributed.cli import RayAddressOpt, RayOpt, ray_session
from rlvr.errors import RlvrError
from rlvr.learners.config import CONFIG_CLASSES, load_config, parse_set
from rlvr.registry import load_env
from rlvr.trackers import RunLogger


def _status(row: dict[str, Any]) -> str:
    if "loss" in row:  # DPO
        return (
            f"loss {fmt(row.get('loss'))}  acc {fmt(row.get('reward_accuracy'), '.2f')}  "
            f"margin {fmt(row.get('margin'))}"
        )
    skipped = row.get("skipped_updates")
    return (
        f"reward {fmt(row.get('reward_mean'))}  kl {fmt(row.get('kl'), '.4f')}  "
        f"len {fmt(row.get('completion_len_mean'), '.1f')}  "
        f"zero-var {fmt(row.get('zero_variance_frac'), '.2f')}"
        + (f"  skipped {skipped} update(s): non-finite gradient" if skipped else "")
    )


def print_eval(row: dict[str, Any], prefix: str = "") -> None:
    """One line per held-out evaluation (rows carry "eval/pass@1" and its interval)."""
    lo, hi = row.get("eval/pass@1_ci95") or (None, None)
    stderr.print(
        f"{prefix}eval step {row['step']}: held-out pass@1 {fmt(row.get('eval/pass@1'))} "
        f"[{fmt(lo)}, {fmt(hi)}] on {row.get('eval/n_tasks')} test tasks",
        highlight=False,
    )


def _print_config(cfg: Any) -> None:
    table = Table("setting", "value", title=f"rlvr train ({cfg.algo})", title_justify="left")
    for key, value in cfg.model_dump().items():
        table.add_row(key, json.dumps(value))
    stderr.print(table)


@contextlib.contextmanager
def _display(steps: int) -> Iterator[Callable[[dict[str, Any]], None]]:
    """A live progress line on stderr: step, reward, KL, length, zero-variance rate."""
    columns = (
        TextColumn("step"),
        MofNCompleteColumn(),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=stderr) as progress:
        bar = progress.add_task("train", total=steps, status="starting")
        yield lambda row: progress.update(bar, completed=row["step"], status=_status(row))


@contextlib.contextmanager
def _trackers(
    report_to: list[str] | None, out: Path, cfg: Any, every: int, env: Any
) -> Iterator[Callable[[dict[str, Any]], None]]:
    """--report-to: log each metrics row (and a sample table every N steps) to the trackers."""
    logger = RunLogger(report_to or [], out, cfg.model_dump(mode="json"), every, env)
    try:
        yield logger.log
    finally:
        logger.close()


def _saved(out: Path, algo: str | None) -> dict[str, Any]:
    path = out / "config.json"
    if not path.is_file():
        return {}
    saved = json.loads(path.read_text(encoding="utf-8"))
    if algo is not None and saved.get("algo") != algo:
        raise RlvrError(
            f"{out} holds a {saved.get('algo')} run but --algo {algo} was given",
            "use a new --out folder, or drop --algo to resume the saved run",
        )
    return saved


def _print_fields(algo: str | None) -> None:
    cls = CONFIG_CLASSES.get(algo or "grpo")
    if cls is None:
        raise RlvrError(
            f"--algo {algo!r} is not a learner", f"use one of {', '.join(CONFIG_CLASSES)}"
        )
    table = Table("field", "default", "description", title=f"{cls.__name__} (--set field=value)")
    for name, info in cls.model_fields.items():
        default = (
            "" if info.is_required() else json.dumps(info.get_default(call_default_factory=True))
        )
        table.add_row(name, default, info.description or "")
    stderr.print(table)


def train(
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Run folder (re-use it to resume).")
    ] = None,
    env: Annotated[str | None, typer.Option("--env", "-e", help="Environment name.")] = None,
    model: Annotated[
        str | None, typer.Option(help="tiny, tiny-sft, a model folder or a hub name.")
    ] = None,
    algo: Annotated[str | None, typer.Option(help="grpo, rloo, ppo or dpo.")] = None,
    steps: Annotated[int | None, typer.Option(help="Training steps.")] = None,
    config: Annotated[
        Path | None, typer.Option("--config", "-c", help="TOML or JSON settings file.")
    ] = None,
    tasks: Annotated[Path | None, typer.Option(help="JSONL of task ids to train on.")] = None,
    split: Annotated[
        str | None,
        typer.Option(
            "--split", callback=split_option, help="Split to train on: train (default), test, all."
        ),
    ] = None,
    set_: Annotated[
        list[str] | None,
        typer.Option("--set", help="Any config field as key=value (JSON values), repeatable."),
    ] = None,
    json_out: JsonOpt = False,
    fields: Annotated[
        bool, typer.Option("--fields", help="List the config fields of --algo and exit.")
    ] = False,
    env_path: EnvPathOpt = None,
    ray: RayOpt = False,
    ray_address: RayAddressOpt = None,
    report_to: Annotated[
        list[str] | None,
        typer.Option(
            "--report-to",
            help="Also log to tensorboard, wandb (offline unless WANDB_MODE is set) or trackio "
            "(repeatable; default none). Each needs its extra: pip install 'rlvr[tensorboard]'.",
        ),
    ] = None,
    samples_every: Annotated[
        int,
        typer.Option(
            "--samples-every", min=0, help="With --report-to: a sample table every N steps."
        ),
    ] = 10,
    lora_rank: LoraRankOpt = None,
    lora_alpha: LoraAlphaOpt = None,
    lora_targets: LoraTargetsOpt = None,
) -> None:
    """Train a policy on an environment with GRPO, RLOO, PPO or DPO; resumes a run folder.

    Every config field can be set with --set or in --config; --fields lists them.
    """
    from transformers.utils import logging as hf_logging

    from rlvr.learners.run import train as run_train  # heavy: imports torch and transformers

    if fields:
        _print_fields(algo)
        return
    if out is None:
        raise RlvrError("rlvr train needs --out", "give a run folder, e.g. --out runs/grpo-math")
    use_env_paths(env_path)
    flags = {
        "env": env,
        "model": model,
        "algo": algo,
        "steps": steps,
        "tasks": str(tasks) if tasks else None,
        "split": split,
        **lora_flags(lora_rank, lora_alpha, lora_targets),
        **parse_set(set_ or []),
    }
    cfg = load_config(config, flags, saved=_saved(out, algo))
    _print_config(cfg)

    warm_start(cfg.model)
    hf_logging.disable_progress_bar()
    last: dict[str, Any] = {}
    with (
        ray_session(load_env(cfg.env), ray, ray_address) as session,
        _trackers(report_to, out, cfg, samples_every, session.env) as track,
        _display(cfg.steps) as show,
    ):

        def on_row(row: dict[str, Any]) -> None:
            last.update(row)
            show(row)
            track(row)
            if json_out:
                emit(row)

        def on_eval(row: dict[str, Any]) -> None:
            print_eval(row)
            track(row)
            if json_out:
                emit(row)

        run_dir = run_train(cfg, out, env=session.env, on_row=on_row, on_eval=on_eval)
    stderr.print(f"run folder: {run_dir}  (metrics.jsonl, groups.jsonl, checkpoints/)")
    if last:
        stderr.print(f"step {last['step']}: {_status(last)}", highlight=False)
