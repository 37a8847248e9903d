"""`rlvr models`: the named model specs, what each is for, and whether it is ready here."""

from __future__ import annotations

from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from rlvr.cli.common import JsonOpt, emit, stderr
from rlvr.cli.progress import Progress
from rlvr.errors import PolicyError
from rlvr.models import SPEC_PURPOSES, TINY_SPECS
from rlvr.pretrained import (
    WHEEL_MODELS,
    convert_gguf,
    converted_dir,
    wheel_gguf,
)


def convert_with_bar(gguf: Path, name: str | None) -> Path:
    """Convert a GGUF file with a progress bar on stderr; nothing shown when it is cached."""
    target = converted_dir(gguf.expanduser().resolve(), name=name)
    if (target / "config.json").is_file():
        return target
    columns = (
        TextColumn("convert (once)"),
        TextColumn("{task.fields[stage]}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    stderr.print(f"{gguf} -> an HF folder under the cache, once")
    with Progress(*columns, console=stderr) as bar:
        task = bar.add_task("convert", total=None, stage="")

        def on_progress(stage: str, done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, stage=stage)

        out = convert_gguf(gguf, name=name, on_progress=on_progress)
    stderr.print(f"converted: {out}")
    return out


def _status(spec: str) -> str:
    if spec in TINY_SPECS:
        return "built on first use (offline)"
    try:
        gguf = wheel_gguf(spec)
    except PolicyError:
        return f"missing: {WHEEL_MODELS[spec].install}"
    done = (converted_dir(gguf, name=spec) / "config.json").is_file()
    return "converted" if done else "installed; converted on first use"


def models(json_out: JsonOpt = False) -> None:
    """List the named model specs (tiny ones built here, real pretrained ones from wheels).

    Any --model also takes a model folder, a .gguf file, a run folder, a hub name,
    http(s)://HOST/v1 or replay:FILE.
    """
    rows = [
        {
            "spec": spec,
            "kind": "tiny" if spec in TINY_SPECS else "pretrained",
            "for": purpose,
            "status": _status(spec),
        }
        for spec, purpose in SPEC_PURPOSES.items()
    ]
    if json_out:
        for row in rows:
            emit(row)
        return
    table = Table("spec", "kind", "for", "status", title="model specs (--model)")
    for row in rows:
        table.add_row(row["spec"], row["kind"], row["for"], row["status"])
    stderr.print(table)
    stderr.print(
        "Also: a model folder, a .gguf file (converted once), a run folder, a hub name, "
        "http(s)://HOST/v1, replay:FILE."
    )
