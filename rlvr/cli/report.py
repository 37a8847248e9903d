"""`rlvr report`: a run's curves as PNG files and RUN_DIR/report.html (rlvr.report)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from rlvr.cli.common import JsonOpt, emit, fmt, stderr
from rlvr.report import grading_warnings, read_metrics, summary, write_report


def report(
    run_dir: Annotated[Path, typer.Argument(help="A run folder written by `rlvr train`.")],
    json_out: JsonOpt = False,
) -> None:
    """Draw a run's curves (PNG) and write RUN_DIR/report.html."""
    page = write_report(run_dir)
    stats = summary(read_metrics(run_dir))
    warnings = grading_warnings(run_dir)
    if json_out:
        emit({"report": str(page), "summary": stats, "warnings": warnings})
        return
    table = Table("metric", "first steps", "last steps", "change")
    for key, v in stats.items():
        table.add_row(key, fmt(v["first"], ".4g"), fmt(v["last"], ".4g"), fmt(v["change"], "+.4g"))
    stderr.print(table)
    stderr.print(f"report: {page}")
    for warning in warnings:
        stderr.print(f"[bold red]warning: {warning}[/]")
