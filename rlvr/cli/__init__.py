"""The `rlvr` command line: thin commands over library calls.

Contract output (JSON lines) goes to stdout; progress, tables and logs go to stderr. No
command ends in a traceback: a user-fixable error prints its fix and exits 1; any other error
prints its type and message and keeps the traceback in a log file (`--debug` prints it).
"""

from __future__ import annotations

import typer

from rlvr.cli import (
    audit,
    cases,
    check,
    demo,
    envs,
    evaluate,
    frontier,
    grade,
    models,
    report,
    rollout,
    sandbox,
    sft,
    stack,
    train,
)
from rlvr.cli.boundary import run_with_boundary

app = typer.Typer(
    name="rlvr",
    help="Reinforcement learning with verifiable rewards.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
app.add_typer(envs.app, name="envs")
app.add_typer(check.app, name="check")
app.add_typer(audit.app, name="audit")
app.add_typer(cases.app, name="cases")
app.add_typer(sandbox.app, name="sandbox")
app.add_typer(stack.app, name="stack")
app.command("grade")(grade.grade)
app.command("demo")(demo.demo)
app.command("train")(train.train)
app.command("report")(report.report)
app.command("rollout")(rollout.rollout)
app.command("frontier")(frontier.frontier)
app.command("sft")(sft.sft)
app.command("eval")(evaluate.evaluate)
app.command("models")(models.models)


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point with the error boundary (see rlvr/cli/boundary.py)."""
    run_with_boundary(app, argv)
