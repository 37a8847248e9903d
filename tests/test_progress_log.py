"""Bars in a log: when stderr is not a terminal, every unfinished bar is also written as a plain
line every `log_every` seconds, so a long stage never looks hung in CI or `2> run.log`."""

from __future__ import annotations

import io
import time

from rich.console import Console
from rich.progress import TextColumn

from rlvr.cli.progress import Progress, log_every_default


def _wait_for(buffer: io.StringIO, text: str) -> str:
    """The buffer once `text` shows up in it (polled; the logger is a thread)."""
    for _ in range(500):
        if text in buffer.getvalue():
            break
        time.sleep(0.02)
    return buffer.getvalue()


def test_a_bar_in_a_log_is_written_as_lines_while_it_runs() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=False, width=200)
    with Progress(TextColumn("{task.description}"), console=console, log_every=0.05) as bar:
        steps = bar.add_task("grpo", total=40, r="reward 0.61")
        bar.update(steps, completed=12)
        said = _wait_for(buffer, "grpo 12/40 reward 0.61")
        assert "grpo 12/40 reward 0.61" in said
        assert said.lstrip().startswith("[0:0")  # elapsed minutes:seconds first
        bar.update(steps, completed=40)  # a finished bar is not logged again
        time.sleep(0.1)  # a line being written as it finished
        done_at = len(buffer.getvalue())
        time.sleep(0.3)  # six intervals
        assert buffer.getvalue()[done_at:] == ""


def test_a_terminal_gets_the_live_bar_only_and_zero_turns_lines_off(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    terminal = io.StringIO()
    console = Console(file=terminal, force_terminal=True, width=200)
    with Progress(TextColumn("{task.description}"), console=console, log_every=0.05) as bar:
        bar.add_task("frontier", total=3)
        time.sleep(0.2)
    assert "[0:0" not in terminal.getvalue()
    monkeypatch.setenv("RLVR_LOG_EVERY", "0")
    assert log_every_default() == 0.0
    monkeypatch.setenv("RLVR_LOG_EVERY", "soon")
    assert log_every_default() == 60.0
    monkeypatch.delenv("RLVR_LOG_EVERY")
    assert Progress().log_every == 60.0
