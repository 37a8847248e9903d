"""`rlvr stack new` and `rlvr stack check`: a new language stack in one command, then checked.

    rlvr stack new ruby --language Ruby --fence ruby --ext rb --apt ruby --into my-envs
    # fill in my-envs/ruby/translator.py (envs/README.md, "A new stack gets function tasks")
    rlvr stack check ruby --env-path my-envs

`new` writes the stack folder (Dockerfile, env.toml, translator.py to fill in) and its derived
environments (`synth-`, `humaneval-`, `repair-`); `check` prints one table (translator, image,
references of each environment, spec-gap and hack audits, repair replay) and one JSON line,
and exits 1 when a check fails.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from rlvr.cli.common import EnvPathOpt, emit, stderr, use_env_paths
from rlvr.stack_check import Row, check_stack
from rlvr.stack_scaffold import new_stack

app = typer.Typer(help="Add a language stack and check it.", no_args_is_help=True)


@app.command("new")
def new(
    name: Annotated[str, typer.Argument(help="The stack's name (lower case): ruby, kotlin.")],
    language: Annotated[
        str | None, typer.Option(help="The language's name in prompts (default: NAME).")
    ] = None,
    fence: Annotated[
        str | None, typer.Option(help="The code fence tag answers use (default: NAME).")
    ] = None,
    ext: Annotated[str | None, typer.Option(help="The answer file's extension.")] = None,
    apt: Annotated[
        str | None, typer.Option(help="Debian packages of the toolchain (default: NAME).")
    ] = None,
    into: Annotated[
        Path, typer.Option("--into", help="Folder to write the stack folders in.")
    ] = Path("envs"),
    force: Annotated[bool, typer.Option(help="Overwrite existing folders.")] = False,
) -> None:
    """Write a new stack folder and the environments derived from it."""
    written = new_stack(into, name, language or name.capitalize(), fence or name, ext or name,
                        apt or name, force)  # fmt: skip
    for path in written:
        stderr.print(f"wrote {path}")
    folder = into / name
    steps = [
        f"copy the closest stack's driver template (envs/<stack>/function_driver.*.in)"
        f" into {folder}",
        f"fill in {folder / 'translator.py'} and set DONE = True",
        "give references: reference_from_python in the translator, or reference files"
        " (envs/README.md, the short path)",
        f"rlvr stack check {name} --env-path {into}",
    ]
    stderr.print("next:", *(f"  {i}. {step}" for i, step in enumerate(steps, 1)), sep="\n",
                 soft_wrap=True)  # fmt: skip
    emit({"stack": name, "files": [str(p) for p in written]})


@app.command("check")
def check(
    name: Annotated[str, typer.Argument(help="The stack's name.")],
    tasks: Annotated[
        int,
        typer.Option(
            "--tasks",
            min=1,
            help="Tasks per check, picked by id hash: each environment's references, the "
            "spec-gap audit of synth-NAME and the hack audit of NAME (at most its own tasks); "
            "the repair replay takes at most 2.",
        ),
    ] = 4,
    build: Annotated[bool, typer.Option(help="Build (or confirm) the stack's image.")] = True,
    skip_missing: Annotated[
        bool,
        typer.Option(
            help="References rows: pick the tasks among those that have a reference "
            "and only count the rest (HumanEval's Python is mostly outside the subset)."
        ),
    ] = False,
    env_path: EnvPathOpt = None,
) -> None:
    """Run every check of a stack and print them in one table.

    Each row is shown on stderr as it finishes, then the table (stderr); stdout gets one JSON
    line with every row, for scripts. Exit 1 when a check fails or could not run."""
    use_env_paths(env_path)

    def show(row: Row) -> None:
        mark = {True: "ok", False: "FAIL", None: "-"}[row.ok]
        stderr.print(f"  {mark:4} {row.check}: {row.detail}", highlight=False)

    rows = check_stack(name, tasks, build, show, skip_missing)
    table = Table("check", "result", "detail", "s", title=f"stack {name}")
    for r in rows:
        table.add_row(r.check, {True: "ok", False: "FAIL", None: "not run"}[r.ok], r.detail,
                      f"{r.seconds:g}")  # fmt: skip
    stderr.print(table)
    failed = [r.check for r in rows if r.ok is not True]
    emit({"stack": name, "ok": not failed, "failed": failed, "rows": [asdict(r) for r in rows]})
    if failed:
        raise typer.Exit(1)
