"""The `rlvr` command line: thin commands over library calls.

Contract output (JSON lines) goes to stdout; progress, tables and logs go to stderr. A
user-fixable error prints its fix and exits 1 without a traceback; bugs keep theirs.
"""

from __future__ import annotations

import sys

import typer

from rlvr.cli import audit, check, demo, envs, grade, rollout, sandbox, train
from rlvr.cli.common import report_error
from rlvr.errors import RlvrError

app = typer.Typer(
    name="rlvr",
    help="Reinforcement learning with verifiable rewards.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(envs.app, name="envs")
app.add_typer(check.app, name="check")
app.add_typer(audit.app, name="audit")
app.add_typer(sandbox.app, name="sandbox")
app.command("grade")(grade.grade)
app.command("demo")(demo.demo)
app.command("train")(train.train)
app.command("report")(train.report)
app.command("rollout")(rollout.rollout)
app.command("frontier")(rollout.frontier)
app.command("sft")(rollout.sft)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point with the error boundary."""
    try:
        app(args=argv, standalone_mode=True)
    except RlvrError as err:
        report_error(err)
        sys.exit(1)
