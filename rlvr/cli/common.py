"""What every command shares: option aliases, JSON-lines output, the error boundary."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Annotated, Any

import typer
from rich.console import Console

from rlvr.discovery import add_env_path
from rlvr.errors import RlvrError
from rlvr.splits import check_split_name

stderr = Console(stderr=True)

EnvOpt = Annotated[
    str, typer.Option("--env", "-e", help="Environment name (see `rlvr envs list`).")
]
EnvPathOpt = Annotated[
    list[Path] | None,
    typer.Option("--env-path", help="Extra folder to search for env.toml manifests (repeatable)."),
]


def split_option(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return check_split_name(value)
    except RlvrError as e:
        raise typer.BadParameter(f"{e.message}; {e.fix}") from None


TrainSplitOpt = Annotated[
    str,
    typer.Option(
        "--split",
        callback=split_option,
        help="Tasks of this split: train (default for training), test (held out) or all.",
    ),
]
EvalSplitOpt = Annotated[
    str,
    typer.Option(
        "--split",
        callback=split_option,
        help="Tasks of this split: test (held out, the default), train or all.",
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON lines instead of a table.")]
LoraRankOpt = Annotated[
    int | None,
    typer.Option(
        "--lora-rank",
        min=0,
        help="Train LoRA adapters of this rank instead of every weight (needs peft; 0: full). "
        "Saved models hold the merged weights.",
    ),
]
LoraAlphaOpt = Annotated[
    float | None, typer.Option("--lora-alpha", min=0.0, help="LoRA alpha (default 16).")
]
LoraTargetsOpt = Annotated[
    str | None,
    typer.Option(
        "--lora-targets", help="Comma-separated Linear module names (default q,k,v,o_proj)."
    ),
]


def lora_flags(rank: int | None, alpha: float | None, targets: str | None) -> dict[str, Any]:
    """The --lora-* options as config fields; options not given are left out."""
    flags: dict[str, Any] = {"lora_rank": rank, "lora_alpha": alpha}
    if targets:
        flags["lora_targets"] = [t.strip() for t in targets.split(",") if t.strip()]
    return {k: v for k, v in flags.items() if v is not None}


def use_env_paths(paths: list[Path] | None) -> None:
    """Make `--env-path` folders visible to the registry."""
    for p in paths or []:
        add_env_path(p)


def fmt(value: float | None, spec: str = ".3f") -> str:
    """A number for a table or a status line; "-" when there is none."""
    return "-" if value is None else format(value, spec)


def emit(record: dict[str, Any], out: IO[str] | None = None) -> None:
    """Write one JSON line (the contract output) and flush, so pipes see it at once."""
    fh = out or sys.stdout
    fh.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
    fh.flush()


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """(line number, parsed object) per input line; a string in place of the object describes a
    line that cannot be read (not UTF-8, not a JSON object, nested too deep, blank). Every line
    before the last non-blank one yields, so outputs stay aligned with inputs; blank lines at
    the end of the file are ignored. `-` reads standard input."""
    fh = sys.stdin.buffer if str(path) == "-" else path.open("rb")
    blanks: list[int] = []
    try:
        for lineno, raw in enumerate(fh, 1):
            if not raw.strip():
                blanks.append(lineno)
                continue
            for blank in blanks:
                yield blank, f"line {blank}: empty line"
            blanks = []
            yield lineno, _parse_line(lineno, raw[3:] if lineno == 1 and raw[:3] == _BOM else raw)
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


_BOM = b"\xef\xbb\xbf"


def _parse_line(lineno: int, raw: bytes) -> dict[str, Any] | str:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"line {lineno}: not UTF-8 (byte {e.start + 1}); write the file as UTF-8"
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        return f"line {lineno}: not valid JSON ({e.msg} at column {e.colno})"
    except RecursionError:
        return f"line {lineno}: JSON nested too deeply to read"
    if not isinstance(obj, dict):
        return f"line {lineno}: expected a JSON object, got {type(obj).__name__}"
    return obj


def require_file(path: Path, what: str) -> None:
    if str(path) != "-" and not path.is_file():
        raise RlvrError(f"{what} {path} does not exist", "check the path")


def report_error(err: RlvrError) -> None:
    """Print a user-fixable error without a traceback."""
    # soft_wrap: the terminal wraps, so paths and commands in the message stay copyable
    from rich.markup import escape  # `rlvr[bfcl]` in a message is text, not a style tag

    stderr.print(f"[bold red]error:[/] {escape(err.message)}", highlight=False, soft_wrap=True)
    if err.fix:
        stderr.print(f"[bold]fix:[/] {escape(err.fix)}", highlight=False, soft_wrap=True)
