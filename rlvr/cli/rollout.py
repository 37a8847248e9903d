"""`rlvr rollout`, `rlvr frontier` and `rlvr sft`: sample, score and warm-start.

Each command builds a config, calls one library function and prints one JSON summary line on
stdout; the progress bar (groups done, reward mean, zero-variance rate, grading backlog) goes
to stderr.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)

from rlvr.cli.common import EnvOpt, EnvPathOpt, TrainSplitOpt, emit, stderr, use_env_paths
from rlvr.distributed.cli import RayAddressOpt, RayOpt, ray_session

if TYPE_CHECKING:
    from rlvr.policies.base import Policy
    from rlvr.rollout import Progress as RolloutProgress

ModelOpt = Annotated[
    str,
    typer.Option(
        "--model",
        "-m",
        help="Policy: tiny, tiny-sft, a model folder, a hub name, http(s)://HOST/v1 or "
        "replay:FILE.",
    ),
]
NTasksOpt = Annotated[int | None, typer.Option("--n-tasks", help="Use the first N tasks.", min=1)]
DifficultyOpt = Annotated[
    str | None, typer.Option("--difficulty", help="Only tasks whose meta.difficulty matches.")
]
TasksOpt = Annotated[
    Path | None,
    typer.Option("--tasks", help="Task JSONL (e.g. from `rlvr frontier`): only these task ids."),
]
TempOpt = Annotated[float, typer.Option("--temperature", min=0.0, help="Sampling temperature.")]
TopPOpt = Annotated[float, typer.Option("--top-p", min=0.0, max=1.0, help="Nucleus mass.")]
MaxTokOpt = Annotated[
    int | None,
    typer.Option(
        "--max-new-tokens", min=1, help="Completion cap (default: the model's own, tiny: 64)."
    ),
]
SeedOpt = Annotated[int | None, typer.Option("--seed", help="Sampling seed.")]
DeviceOpt = Annotated[
    str | None, typer.Option("--device", help="Local models: cpu, cuda (default: cuda if seen).")
]
ServedOpt = Annotated[
    str | None,
    typer.Option("--served-model", help="Server policies: model name (default: the first)."),
]
ThreadsOpt = Annotated[
    int | None,
    typer.Option("--threads", min=1, help="CPU threads for a local model (tiny: 1)."),
]
BatchOpt = Annotated[int, typer.Option("--batch-tasks", min=1, help="Tasks per policy call.")]
WorkersOpt = Annotated[int, typer.Option("--grade-workers", min=1, help="Groups graded at once.")]


def warm_start(model: str) -> None:
    """Build tiny-sft / tiny-code-sft (minutes, once) with a progress bar over its SFT steps;
    any other spec needs no building."""
    from rlvr import tiny, tiny_code

    builders = {
        "tiny-sft": (tiny.tiny_sft_dir, tiny.sft_recipe),
        "tiny-code-sft": (tiny_code.tiny_code_sft_dir, tiny_code.code_sft_recipe),
    }
    if model not in builders:
        return
    build, recipe = builders[model]
    columns = (TextColumn(f"SFT warm start ({model}, once)"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TextColumn("{task.fields[loss]}"), console=stderr) as bar:
        task = bar.add_task("sft", total=recipe()["steps"], loss="")

        def on_step(step: int, loss: float) -> None:
            bar.update(task, completed=step + 1, loss=f"loss {loss:.3f}")

        build(on_step=on_step)
        bar.update(task, completed=recipe()["steps"], loss="ready")


def open_policy(
    model: str, device: str | None, served_model: str | None, threads: int | None
) -> Policy:
    """A policy from a --model spec, passing each backend only the options it takes."""
    from rlvr.policies import default_threads, make_policy

    warm_start(model)

    if model.startswith(("http://", "https://")):
        return make_policy(model, model=served_model)
    if model.startswith("replay:"):
        return make_policy(model)
    return make_policy(model, device=device, threads=threads or default_threads(model))


@contextlib.contextmanager
def rollout_bar(label: str) -> Iterator[Callable[[RolloutProgress], None]]:
    """A rich progress bar on stderr fed by rollout Progress snapshots."""
    columns = (
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("reward {task.fields[reward]}"),
        TextColumn("zero-var {task.fields[zv]}"),
        TextColumn("backlog {task.fields[backlog]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=stderr, transient=False) as bar:
        task = bar.add_task(label, total=None, reward="-", zv="-", backlog=0)

        def update(p: RolloutProgress) -> None:
            reward = "-" if p.reward_mean is None else f"{p.reward_mean:.3f}"
            bar.update(
                task,
                completed=p.done,
                total=p.total,
                reward=reward,
                zv=f"{p.zero_variance_rate:.0%}",
                backlog=p.backlog,
            )

        yield update


def _config(
    g: int,
    temperature: float,
    top_p: float,
    max_new_tokens: int | None,
    seed: int | None,
    **kw: Any,
) -> Any:
    from rlvr.policies.base import SamplingConfig
    from rlvr.rollout import RolloutConfig

    sampling = SamplingConfig(
        temperature=temperature, top_p=top_p, max_new_tokens=max_new_tokens, seed=seed
    )
    return RolloutConfig(g=g, sampling=sampling, **kw)


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
    from rlvr.advantages import get_estimator
    from rlvr.registry import load_env
    from rlvr.rollout import collect, select_tasks
    from rlvr.store import GroupStore

    use_env_paths(env_path)
    get_estimator(estimator)
    environment = load_env(env)
    chosen = select_tasks(environment, n_tasks, difficulty, tasks, split)
    with ray_session(environment, ray, ray_address) as session, rollout_bar("rollout") as update:
        config = _config(
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
    from rlvr.frontier_report import run_frontier, summary_line
    from rlvr.registry import load_env
    from rlvr.rollout import select_tasks

    use_env_paths(env_path)
    environment = load_env(env)
    chosen = select_tasks(environment, n_tasks, difficulty, tasks, split)
    config = _config(
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
) -> None:
    """Warm-start a model on an environment's reference answers (loss on the answer only)."""
    from rlvr.policies import default_threads
    from rlvr.registry import load_env
    from rlvr.rollout import select_tasks
    from rlvr.sft import SFTConfig, evaluate_pass_rate, run_sft

    use_env_paths(env_path)
    environment = load_env(env)
    chosen = select_tasks(environment, n_tasks, difficulty, tasks, split)
    config = SFTConfig(steps=steps, lr=lr, batch_size=batch_size, seed=seed)
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
        result = run_sft(environment, model, config, out, chosen, device, on_step, threads)
    record: dict[str, Any] = {"out": str(out), **result.model_dump(exclude={"losses"})}
    if eval_g:
        rate = evaluate_pass_rate(
            environment, str(out), chosen, g=eval_g, seed=seed, threads=threads, device=device
        )
        record["eval"] = rate.model_dump()
    emit(record)
