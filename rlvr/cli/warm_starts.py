"""Building the tiny warm starts a command needs (minutes, once), with a bar per SFT run.

A named tiny model is a chain of SFT runs: `tiny-columns-agent-sft` first needs the 800-step
columns warm start it is taught on. Each run is cached (rlvr.tiny), so a chain built once
finishes at once. Chains share nothing, so `rlvr demo` builds its two (the math stage's warm
start, and the agent's base then the agent) side by side, a spawned process each, where the
machine has a second core: a tiny model trains on one thread, and in turn one core idles for
the whole set-up. A run computes the same weights in a child as here (one thread, the same
float order); its steps come back over a queue to the same bars.
"""

from __future__ import annotations

import os
import queue as queue_module
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, MofNCompleteColumn, TextColumn

from rlvr.cli.common import stderr
from rlvr.cli.progress import Progress
from rlvr.tiny import columns_sft_recipe, sft_recipe, tiny_columns_sft_dir, tiny_sft_dir
from rlvr.tiny_agent import agent_recipe, tiny_columns_agent_sft_dir
from rlvr.tiny_code import code_sft_recipe, tiny_code_sft_dir

OnStep = Callable[[int, float], None]


def _tiny_sft(on_step: OnStep, steps: int | None) -> Path:
    return tiny_sft_dir(on_step=on_step)


def _columns(on_step: OnStep, steps: int | None) -> Path:
    return tiny_columns_sft_dir(on_step=on_step, steps=steps)


def _columns_fixed(on_step: OnStep, steps: int | None) -> Path:
    return tiny_columns_sft_dir(on_step=on_step, steps=steps, to_strength=False)


def _agent(on_step: OnStep, steps: int | None) -> Path:
    return tiny_columns_agent_sft_dir(on_step=on_step, steps=steps, base_steps=steps)


def _code(on_step: OnStep, steps: int | None) -> Path:
    return tiny_code_sft_dir(on_step=on_step)


# one SFT run: its builder (on_step, a shorter step count or None) and its recipe
RUNS: dict[str, tuple[Callable[[OnStep, int | None], Path], Callable[[], dict[str, Any]]]] = {
    "tiny-sft": (_tiny_sft, sft_recipe),
    "tiny-columns-sft": (_columns, columns_sft_recipe),
    "tiny-columns-sft (800 steps)": (_columns_fixed, columns_sft_recipe),
    "tiny-columns-agent-sft": (_agent, agent_recipe),
    "tiny-code-sft": (_code, code_sft_recipe),
}
SHORTENED = {"tiny-columns-sft", "tiny-columns-sft (800 steps)", "tiny-columns-agent-sft"}
CHAINS: dict[str, tuple[str, ...]] = {
    "tiny-sft": ("tiny-sft",),
    "tiny-columns-sft": ("tiny-columns-sft",),
    "tiny-columns-agent-sft": ("tiny-columns-sft (800 steps)", "tiny-columns-agent-sft"),
    "tiny-code-sft": ("tiny-code-sft",),
}


def _run_chain(
    chain: Sequence[str],
    steps: int | None,
    events: Any = None,
    on_step: Any = None,
    quiet: bool = False,
) -> None:
    """Build each run of a chain in order; steps go to `events` (a queue) or `on_step`;
    `quiet` carries the parent's choice of no transformers bars into a child."""
    if quiet:
        from transformers.utils import logging as hf_logging  # heavy

        hf_logging.disable_progress_bar()
    report = on_step if events is None else (lambda *event: events.put(event))
    for name in chain:
        build, _ = RUNS[name]
        build(lambda i, loss, name=name: report(name, i, loss), steps)
        report(name, None, None)  # finished (a run built to a strength may stop early)


def build_warm_starts(
    models: Sequence[str], side_by_side: bool | None = None, steps: int | None = None
) -> None:
    """Build every tiny warm start `models` name (others need no building), a bar per SFT
    run; two or more chains run side by side in processes when `side_by_side` (default: the
    machine has a second core). `steps` shortens the columns runs (a check of the plumbing)."""
    chains = list(dict.fromkeys(CHAINS[m] for m in models if m in CHAINS))
    if not chains:
        return
    if side_by_side is None:
        side_by_side = (os.cpu_count() or 1) >= 2
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())

    def total(name: str) -> int:
        return int(steps if steps and name in SHORTENED else RUNS[name][1]()["steps"])

    with Progress(*columns, TextColumn("{task.fields[loss]}"), console=stderr) as bar:
        tasks = {
            name: bar.add_task(f"SFT warm start ({name}, once)", total=total(name), loss="")
            for chain in chains
            for name in chain
        }

        def show(name: str, step: int | None, loss: float | None) -> None:
            if step is None:  # finished (a run built to a strength may stop early)
                bar.update(tasks[name], completed=total(name), loss="ready")
            else:
                bar.update(tasks[name], completed=step + 1, loss=f"loss {loss:.3f}")

        if len(chains) == 1 or not side_by_side:
            for chain in chains:
                _run_chain(chain, steps, on_step=show)
            return
        _side_by_side(chains, steps, show)


def _side_by_side(
    chains: list[tuple[str, ...]], steps: int | None, show: Callable[..., None]
) -> None:
    """One spawned process per chain; the parent draws their steps until all are done."""
    from transformers.utils import logging as hf_logging  # heavy

    quiet = not hf_logging.is_progress_bar_enabled()
    context = get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(len(chains), context) as pool:
        events = manager.Queue()
        futures: list[Future[None]] = [
            pool.submit(_run_chain, c, steps, events, None, quiet) for c in chains
        ]
        while True:
            try:
                show(*events.get(timeout=0.5))
            except queue_module.Empty:
                if all(f.done() for f in futures):
                    break
        while not events.empty():
            show(*events.get())
        for future in futures:
            future.result()  # a chain's error is raised here, after the others finished
