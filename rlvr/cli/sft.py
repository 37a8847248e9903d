"""`rlvr sft`: warm-start a model on an environment's reference answers.

Calls `rlvr.sft.run_sft` (and, with --eval-g, `evaluate_pass_rate`) and prints one JSON line on
stdout; the progress bar over the SFT steps goes to stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

from rlvr.cli.common import (
    EnvOpt,
    EnvPathOpt,
    LoraAlphaOpt,
    LoraRankOpt,
    LoraTargetsOpt,
    TrainSplitOpt,
    emit,
    lora_flags,
    stderr,
    use_env_paths,
)
from rlvr.cli.progress import Progress
from rlvr.cli.sampling import (
    DeviceOpt,
    DifficultyOpt,
    ModelOpt,
    NTasksOpt,
    TasksOpt,
    ThreadsOpt,
    warm_start,
)
from rlvr.distil_dataset import export_sft
from rlvr.errors import RlvrError
from rlvr.models import default_threads, make_policy, resolve_model
from rlvr.registry import load_env
from rlvr.selection import select_tasks


def sft(
    env: EnvOpt,
    out: Annotated[Path, typer.Option("--out", "-o", help="Checkpoint folder to write.")],
    model: ModelOpt = "tiny",
    steps: Annotated[int, typer.Option(min=1, help="Optimizer steps.")] = 300,
    lr: Annotated[float, typer.Option(min=0.0, help="Peak learning rate.")] = 3e-3,
    batch_size: Annotated[int, typer.Option(min=1, help="Examples per step.")] = 32,
    seed: Annotated[int, typer.Option(help="Batch-order seed.")] = 0,
    n_tasks: NTasksOpt = None,
    difficulty: DifficultyOpt = None,
    tasks: TasksOpt = None,
    split: TrainSplitOpt = "train",
    eval_g: Annotated[
        int, typer.Option(min=0, help="Afterwards, sample G answers per task; 0 skips.")
    ] = 0,
    device: DeviceOpt = None,
    threads: ThreadsOpt = None,
    env_path: EnvPathOpt = None,
    lora_rank: LoraRankOpt = None,
    lora_alpha: LoraAlphaOpt = None,
    lora_targets: LoraTargetsOpt = None,
    episodes: Annotated[
        Path | None,
        typer.Option(
            "--episodes",
            help="Distil: train on the verified teacher episodes of this groups file (from "
            "`rlvr rollout --model TEACHER`) instead of the references; loss on the model's "
            "tokens only.",
        ),
    ] = None,
    min_reward: Annotated[
        float, typer.Option(help="--episodes: keep episodes the judge scored at least this.")
    ] = 1.0,
    best_of: Annotated[
        int, typer.Option(min=1, help="--episodes: keep at most this many episodes per task.")
    ] = 1,
    export: Annotated[
        bool,
        typer.Option(
            "--export",
            help="--episodes: write the verified episodes to --out (a JSONL file) as a chat "
            "dataset for TRL's SFTTrainer (messages), and train nothing.",
        ),
    ] = False,
) -> None:
    """Warm-start a model on an environment's reference answers (loss on the answer only), or
    with --episodes distil it from verified teacher episodes."""
    from rlvr.sft import SFTConfig, evaluate_pass_rate, run_sft  # heavy: imports torch

    if model.startswith("replay:"):
        raise RlvrError(
            f"--model {model} is a teacher (recorded answers), not a model to fine-tune",
            f"collect its episodes with `rlvr rollout --env {env} --model {model} --out "
            "groups.jsonl`, then `rlvr sft --env ENV --episodes groups.jsonl --model STUDENT`",
        )
    use_env_paths(env_path)
    environment = load_env(env)
    chosen = select_tasks(environment, n_tasks, difficulty, tasks, split)
    chosen_ids = {t.id for t in chosen}  # --episodes: held-out episodes never reach the student
    if export:
        if episodes is None:
            raise RlvrError("--export writes verified teacher episodes", "give --episodes FILE")
        emit({"export": str(out), **export_sft(environment, episodes, out, min_reward,
                                               best_of, chosen_ids)})  # fmt: skip
        return
    lora = lora_flags(lora_rank, lora_alpha, lora_targets)
    config = SFTConfig(steps=steps, lr=lr, batch_size=batch_size, seed=seed, **lora)
    warm_start(model)
    columns = (
        TextColumn("sft"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[loss]}"),
    )
    with Progress(*columns, console=stderr) as bar:
        task = bar.add_task("sft", total=steps, loss="")

        def on_step(step: int, loss: float) -> None:
            bar.update(task, completed=step + 1, loss=f"loss {loss:.3f}")

        threads = threads or default_threads(model)
        path = resolve_model(model)
        counts: dict[str, int] = {}
        if episodes is not None:
            from rlvr.distil import run_distil  # heavy: imports torch

            result, counts = run_distil(environment, path, episodes, config, out, min_reward,
                                        best_of, threads, on_step, device, model,
                                        chosen_ids)  # fmt: skip
        else:
            result = run_sft(environment, path, config, out, chosen, device, on_step, threads,
                             model)  # fmt: skip
    record: dict[str, Any] = {"out": str(out), **counts,
                              **result.model_dump(exclude={"losses"})}  # fmt: skip
    if eval_g:
        policy = make_policy(str(out), device=device, threads=threads)
        rate = evaluate_pass_rate(environment, policy, chosen, g=eval_g, seed=seed)
        record["eval"] = rate.model_dump()
    emit(record)
