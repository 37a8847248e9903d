"""rich's progress bars, and a plain line per bar at least once a minute in a log.

When stderr is not a terminal (CI, `rlvr demo 2> demo.log`, a job scheduler) rich draws no
live bar and prints each bar once, at its end: a stage of twenty minutes shows nothing for
twenty minutes and looks hung. Every command's bars come from this `Progress`, which then
also writes each unfinished bar as one line (`[3:05] grpo 12/40 reward 0.61`) every
`log_every` seconds (60; `RLVR_LOG_EVERY` overrides it, 0 turns the lines off).
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

from rich import progress as rich_progress

LOG_EVERY_S = 60.0


def log_every_default() -> float:
    """Seconds between log lines: RLVR_LOG_EVERY, else a minute."""
    raw = os.environ.get("RLVR_LOG_EVERY", "")
    try:
        return float(raw) if raw else LOG_EVERY_S
    except ValueError:
        return LOG_EVERY_S


class Progress(rich_progress.Progress):
    """`rich.progress.Progress` that also logs its bars as lines when not on a terminal."""

    def __init__(self, *columns: Any, log_every: float | None = None, **kwargs: Any) -> None:
        super().__init__(*columns, **kwargs)
        self.log_every = log_every_default() if log_every is None else log_every
        self._log_stop = threading.Event()
        self._logger: threading.Thread | None = None
        self._log_start = time.monotonic()

    def start(self) -> None:
        super().start()
        if not self.console.is_terminal and self.log_every > 0 and self._logger is None:
            self._log_start = time.monotonic()
            self._logger = threading.Thread(target=self._log_loop, daemon=True)
            self._logger.start()

    def stop(self) -> None:
        self._log_stop.set()
        if self._logger is not None:
            self._logger.join(timeout=5)
        super().stop()

    def _log_loop(self) -> None:
        while not self._log_stop.wait(self.log_every):
            for task in list(self.tasks):
                if task.visible and not task.finished:
                    self.console.print(self.line(task), highlight=False, soft_wrap=True)

    def line(self, task: rich_progress.Task) -> str:
        """One bar as plain text: elapsed time, description, count, its other fields."""
        elapsed = int(time.monotonic() - self._log_start)
        total = f"/{task.total:g}" if task.total is not None else ""
        fields = " ".join(str(v) for v in task.fields.values() if v not in ("", None))
        count = f"{task.completed:g}{total}"
        return f"[{elapsed // 60}:{elapsed % 60:02d}] {task.description} {count} {fields}".rstrip()
