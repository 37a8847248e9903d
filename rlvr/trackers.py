"""Training logs where users look: TensorBoard, Weights & Biases (offline) or trackio.

`rlvr train --report-to tensorboard` (repeatable; "none" is the default) sends every numeric key
of each metrics.jsonl row as a scalar at its step (nested keys joined with "/", so the eval
metrics of a row land under their own prefix), and every `samples_every` steps a table of the
step's prompts, answers, rewards and hack flags, read from the run's groups.jsonl. The run
folder stays the source of truth; a tracker is a view of it, written next to it
(RUN_DIR/tensorboard, RUN_DIR/wandb; trackio keeps its own local store).

Each backend is an optional package: a missing one is a clear error naming the extra to install
(`pip install 'rlvr[tensorboard]'`), raised before training starts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any, Literal, Protocol

from rlvr.errors import RlvrError

ReportTo = Literal["none", "tensorboard", "wandb", "trackio"]
BACKENDS: dict[str, tuple[str, str]] = {  # name -> (module to import, extra that installs it)
    "tensorboard": ("tensorboard", "tensorboard"),
    "wandb": ("wandb", "wandb"),
    "trackio": ("trackio", "trackio"),
}
SAMPLE_COLUMNS = ["step", "task_id", "prompt", "answer", "reward", "status", "flags"]
TEXT_CHARS = 500


def flatten(row: dict[str, Any], prefix: str = "") -> dict[str, float]:
    """Every numeric value of a metrics row, nested keys joined with '/'; 'step' left out."""
    out: dict[str, float] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flatten(value, name + "/"))
        elif isinstance(value, int | float) and not isinstance(value, bool) and name != "step":
            out[name] = float(value)
    return out


class Tracker(Protocol):
    def log_row(self, step: int, scalars: dict[str, float]) -> None: ...
    def log_samples(self, step: int, rows: list[list[Any]]) -> None: ...
    def close(self) -> None: ...


class TensorBoardTracker:
    """Scalars and a markdown sample table in RUN_DIR/tensorboard (torch's SummaryWriter)."""

    def __init__(self, run_dir: Path, config: dict[str, Any]) -> None:
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(log_dir=str(run_dir / "tensorboard"))
        self.writer.add_text("config", f"```json\n{json.dumps(config, indent=2)}\n```", 0)

    def log_row(self, step: int, scalars: dict[str, float]) -> None:
        for key, value in scalars.items():
            self.writer.add_scalar(key, value, step)
        self.writer.flush()

    def log_samples(self, step: int, rows: list[list[Any]]) -> None:
        def cell(v: Any) -> str:
            return str(v).replace("|", "\\|").replace("\n", "⏎")

        lines = ["| " + " | ".join(SAMPLE_COLUMNS) + " |", "|" + "---|" * len(SAMPLE_COLUMNS)]
        lines += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
        self.writer.add_text("samples", "\n".join(lines), step)
        self.writer.flush()

    def close(self) -> None:
        self.writer.close()


class WandbTracker:
    """A W&B run in RUN_DIR/wandb; offline unless WANDB_MODE says otherwise."""

    def __init__(self, run_dir: Path, config: dict[str, Any]) -> None:
        import wandb

        self.wandb = wandb
        self.run = wandb.init(
            project=os.environ.get("WANDB_PROJECT", "rlvr"), name=run_dir.name, config=config,
            dir=str(run_dir), mode=os.environ.get("WANDB_MODE", "offline"),
        )  # fmt: skip

    def log_row(self, step: int, scalars: dict[str, float]) -> None:
        self.run.log(scalars, step=step)

    def log_samples(self, step: int, rows: list[list[Any]]) -> None:
        self.run.log({"samples": self.wandb.Table(columns=SAMPLE_COLUMNS, data=rows)}, step=step)

    def close(self) -> None:
        self.run.finish()


class TrackioTracker:
    """A trackio run (its local store; `trackio show` opens the dashboard)."""

    def __init__(self, run_dir: Path, config: dict[str, Any]) -> None:
        import trackio

        self.trackio = trackio
        trackio.init(project=os.environ.get("TRACKIO_PROJECT", "rlvr"), name=run_dir.name,
                     config=config)  # fmt: skip

    def log_row(self, step: int, scalars: dict[str, float]) -> None:
        self.trackio.log(scalars, step=step)

    def log_samples(self, step: int, rows: list[list[Any]]) -> None:
        table = getattr(self.trackio, "Table", None)
        if table is not None:
            self.trackio.log({"samples": table(columns=SAMPLE_COLUMNS, data=rows)}, step=step)

    def close(self) -> None:
        self.trackio.finish()


MAKERS = {"tensorboard": TensorBoardTracker, "wandb": WandbTracker, "trackio": TrackioTracker}


def check_report_to(report_to: Sequence[str]) -> list[str]:
    """The chosen backends, each installed; RlvrError naming the extra otherwise."""
    chosen = [r for r in dict.fromkeys(report_to) if r != "none"]
    unknown = [r for r in chosen if r not in BACKENDS]
    if unknown:
        raise RlvrError(
            f"--report-to {unknown[0]!r} is not a tracker",
            f"use one of none, {', '.join(BACKENDS)} (repeat the option for several)",
        )
    for name in chosen:
        module, extra = BACKENDS[name]
        if find_spec(module) is None:
            raise RlvrError(
                f"--report-to {name} needs the {module!r} package, which is not installed",
                f"pip install 'rlvr[{extra}]' (or drop --report-to {name})",
            )
    return chosen


class RunLogger:
    """Sends metrics rows and periodic sample tables to the chosen trackers."""

    def __init__(
        self, report_to: Sequence[str], run_dir: Path, config: dict[str, Any],
        samples_every: int = 10, env: Any = None,
    ) -> None:  # fmt: skip
        names = check_report_to(report_to)
        run_dir.mkdir(parents=True, exist_ok=True)
        self.run_dir, self.env, self.samples_every = run_dir, env, samples_every
        self.trackers: list[Tracker] = [MAKERS[n](run_dir, config) for n in names]
        self._offset = 0

    def log(self, row: dict[str, Any]) -> None:
        """One metrics row; on every `samples_every`-th step also the step's sample table."""
        step = row.get("step")
        if not self.trackers or not isinstance(step, int):
            return
        scalars = flatten(row)
        for t in self.trackers:
            t.log_row(step, scalars)
        if self.samples_every > 0 and step % self.samples_every == 0:
            rows = self.sample_rows(step)
            if rows:
                for t in self.trackers:
                    t.log_samples(step, rows)

    def sample_rows(self, step: int, limit: int = 32) -> list[list[Any]]:
        """The step's answers from groups.jsonl (read from where the last call stopped)."""
        path = self.run_dir / "groups.jsonl"
        if not path.is_file():
            return []
        with path.open("rb") as fh:
            fh.seek(self._offset)
            data = fh.read()
        end = data.rfind(b"\n") + 1  # a line still being written is read next time
        self._offset += end
        out: list[list[Any]] = []
        for line in data[:end].decode("utf-8", "replace").splitlines():
            try:
                group = json.loads(line)
            except ValueError:
                continue
            if group.get("step") not in (step, None):
                continue
            out += self._group_rows(step, group)
        return out[:limit]

    def _prompt(self, task_id: str) -> str:
        try:
            return self.env.format_prompt(self.env.task(task_id))[:TEXT_CHARS] if self.env else ""
        except Exception:  # a sample table must never stop training
            return ""

    def _group_rows(self, step: int, group: dict[str, Any]) -> list[list[Any]]:
        prompt = self._prompt(str(group.get("task_id")))
        rows = []
        for sample, verdict in zip(group.get("samples", []), group.get("verdicts", []),
                                   strict=False):  # fmt: skip
            flags = ",".join(sorted({f.get("kind", "") for f in verdict.get("flags") or []}))
            answer = str(sample.get("text", ""))[:TEXT_CHARS]
            status = verdict.get("status")
            rows.append([step, group.get("task_id"), prompt, answer, verdict.get("reward"), status,
                         flags])  # fmt: skip
        return rows

    def close(self) -> None:
        for t in self.trackers:
            t.close()
