"""The demo's training stages side by side, a process each, so a 2-core machine uses both.

A tiny model is fastest on one torch thread (rlvr.models.default_threads), so stages run in
turn leave the other core idle for most of the demo. A stage seeds its own frontier, GRPO and
evaluations and shares nothing with another, so in its own process it computes what it
computes in turn (tests/test_demo.py compares the two). The first stage and then `then`
(the code stage) run here; every other stage runs in a spawned process whose progress comes
back over a queue to the same callbacks it would get here. An error here stops the other
stages; an error there is raised once the work here is done (what every stage stored resumes).
"""

from __future__ import annotations

import os
import pickle
import queue as queue_module
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TypeVar

from rlvr.demo import STAGES, Stage, StageResult, run_stage
from rlvr.demo_code import CODE, CodeResult, CodeStage, run_code_stage
from rlvr.demo_page import write_index

T = TypeVar("T")
CALLBACKS = ("on_progress", "on_row", "on_eval")


@dataclass(frozen=True)
class StageCallbacks:
    """What a stage reports while it runs: rollout progress, GRPO rows, held-out eval rows."""

    on_progress: Callable[[Any], None] | None = None
    on_row: Callable[[dict[str, Any]], None] | None = None
    on_eval: Callable[[dict[str, Any]], None] | None = None

    def as_args(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in CALLBACKS)


def side_by_side_default() -> bool:
    """Side by side where the machine has a second core; in turn gives the same figures."""
    return (os.cpu_count() or 1) >= 2


def _in_child(stage: Stage, out: str, events: Any, quiet: bool) -> None:
    """A spawned process: run the stage, send its events, then its result or its error;
    `quiet` carries the parent's choice of no transformers bars (they would garble its bars)."""
    from transformers.utils import logging as hf_logging  # heavy

    if quiet:
        hf_logging.disable_progress_bar()
    send = [lambda p, kind=kind: events.put((stage.name, kind, p)) for kind in CALLBACKS]
    try:
        events.put((stage.name, "result", run_stage(stage, out, *send)))
    except BaseException as e:  # the parent re-raises it
        try:
            pickle.dumps(e)
            error: BaseException = e
        except Exception:  # an exception that cannot cross processes: keep its text
            error = RuntimeError(f"demo stage {stage.name!r} failed:\n{traceback.format_exc()}")
        events.put((stage.name, "error", error))


@dataclass
class _Relay:
    """Reads the children's queue on a thread: calls their callbacks, keeps their results."""

    events: Any
    processes: dict[str, Any]
    callbacks: dict[str, StageCallbacks]
    results: dict[str, StageResult] = field(default_factory=dict)
    errors: dict[str, BaseException] = field(default_factory=dict)
    silent: set[str] = field(default_factory=set)  # ended, no word yet: one more wait
    stop: threading.Event = field(default_factory=threading.Event)

    def pending(self) -> list[str]:
        return [n for n in self.processes if n not in self.results and n not in self.errors]

    def run(self) -> None:
        while self.pending() and not self.stop.is_set():
            try:
                name, kind, payload = self.events.get(timeout=0.5)
            except queue_module.Empty:
                for n in self.pending():  # killed (out of memory, a signal) without a word
                    code = self.processes[n].exitcode
                    if code is not None and n in self.silent:  # a result sent as it ended
                        self.errors[n] = RuntimeError(  # would have been read in between
                            f"demo stage {n!r}: its process ended (exit code {code}) without a "
                            "result; rerun `rlvr demo` to resume it from what it stored"
                        )
                    elif code is not None:
                        self.silent.add(n)
                continue
            if kind == "result":
                self.results[name] = payload
            elif kind == "error":
                self.errors[name] = payload
            else:
                callback = getattr(self.callbacks.get(name, StageCallbacks()), kind)
                if callback is not None:
                    callback(payload)


def run_stages(
    stages: tuple[Stage, ...] | list[Stage],
    out: str | Path,
    callbacks: dict[str, StageCallbacks] | None = None,
    then: Callable[[], T] | None = None,
    side_by_side: bool | None = None,
) -> tuple[list[StageResult], T | None]:
    """Every stage (side by side unless told otherwise), `then()` here after the first one;
    returns the stages' results in order and what `then` returned."""
    callbacks = callbacks or {}
    args = {s.name: callbacks.get(s.name, StageCallbacks()).as_args() for s in stages}
    if side_by_side is None:
        side_by_side = side_by_side_default()
    if not side_by_side or len(stages) < 2:
        results = [run_stage(s, out, *args[s.name]) for s in stages]
        return results, then() if then is not None else None
    from transformers.utils import logging as hf_logging  # heavy

    quiet = not hf_logging.is_progress_bar_enabled()
    context = get_context("spawn")  # a fork would copy this process's torch threads and locks
    events = context.Queue()
    processes = {
        s.name: context.Process(target=_in_child, args=(s, str(out), events, quiet), name=s.name)
        for s in stages[1:]
    }
    relay = _Relay(events, processes, callbacks)
    thread = threading.Thread(target=relay.run, name="demo-relay", daemon=True)
    for process in processes.values():
        process.start()
    thread.start()
    try:
        first = run_stage(stages[0], out, *args[stages[0].name])
        done = then() if then is not None else None
        thread.join()
        if relay.errors:
            raise next(iter(relay.errors.values()))
    finally:
        relay.stop.set()
        for process in processes.values():
            if process.is_alive():
                process.terminate()
            process.join()
    return [first, *(relay.results[s.name] for s in stages[1:])], done


def run_pipeline(
    out: str | Path,
    stages: tuple[Stage, ...] = STAGES,
    code: CodeStage | None = CODE,
    callbacks: dict[str, StageCallbacks] | None = None,
    side_by_side: bool | None = None,
    run_code: Callable[[CodeStage, Path], CodeResult] = run_code_stage,
) -> tuple[list[StageResult], CodeResult | None, Path]:
    """The demo's loop: every stage, the code stage (evaluation only, in the sandbox; None
    leaves it out; `run_code` runs it, `rlvr demo` with its bars) once the first stage is done,
    then out/index.html with each stage's before/after and curves and the code stage's verdicts;
    returns the training stages' results, the code stage's and the page."""
    results, graded = run_stages(
        stages,
        out,
        callbacks,
        then=(lambda: run_code(code, Path(out))) if code is not None else None,
        side_by_side=side_by_side,
    )
    return results, graded, write_index(results, Path(out) / "index.html", graded)
