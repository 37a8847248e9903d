"""Options and helpers shared by the commands that sample a policy: rollout, frontier, sft,
eval, train and demo (the --model spec, sampling settings, the SFT warm start of the tiny
models, the rollout progress bar).
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
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from rlvr.cli.common import stderr
from rlvr.cli.models import convert_with_bar
from rlvr.cli.progress import Progress
from rlvr.cli.warm_starts import build_warm_starts
from rlvr.episodes.admission import queued
from rlvr.models import default_threads, gguf_source, make_policy
from rlvr.policies.base import Policy, SamplingConfig

if TYPE_CHECKING:
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
    """Build tiny-sft / tiny-columns-sft / tiny-columns-agent-sft / tiny-code-sft (minutes,
    once) with a progress bar over each SFT run (rlvr.cli.warm_starts), or convert a GGUF
    model (smollm2-135m, a .gguf file) once with a bar; any other spec needs no building."""
    if not model.startswith(("http://", "https://", "replay:")):
        source = gguf_source(model)
        if source is not None:
            convert_with_bar(*source)
            return
    build_warm_starts([model])


def open_policy(
    model: str, device: str | None, served_model: str | None, threads: int | None
) -> Policy:
    """A policy from a --model spec, passing each backend only the options it takes."""
    warm_start(model)

    if model.startswith(("http://", "https://")):
        return make_policy(model, model=served_model)
    if model.startswith("replay:"):
        return make_policy(model)
    return make_policy(model, device=device, threads=threads or default_threads(model))


class QueueColumn(ProgressColumn):
    """Episodes waiting for admission (host memory), read live at each refresh."""

    def render(self, task: Any) -> Text:
        n = queued()
        return Text(f"queued {n}" if n else "")


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
        QueueColumn(),
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


def rollout_config(
    g: int,
    temperature: float,
    top_p: float,
    max_new_tokens: int | None,
    seed: int | None,
    **kw: Any,
) -> Any:
    from rlvr.rollout import RolloutConfig  # heavy: imports torch

    sampling = SamplingConfig(
        temperature=temperature, top_p=top_p, max_new_tokens=max_new_tokens, seed=seed
    )
    return RolloutConfig(g=g, sampling=sampling, **kw)
