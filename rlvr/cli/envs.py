"""`rlvr envs`: list, show and validate environments."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from rlvr.cli.common import EnvPathOpt, JsonOpt, emit, stderr, use_env_paths
from rlvr.cli.progress import Progress
from rlvr.discovery import discover
from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.manifest import read_manifest
from rlvr.references import (
    Pick,
    check_references,
    choose_tasks,
    failure_hint,
    missing_reference_fix,
)
from rlvr.registry import load_env, validate_env_folder
from rlvr.splits import split_counts

app = typer.Typer(help="List, inspect and validate environments.", no_args_is_help=True)


@app.command("list")
def list_envs(json_out: JsonOpt = False, env_path: EnvPathOpt = None) -> None:
    """List every environment the registry can find, with where it comes from."""
    use_env_paths(env_path)
    sources = discover()
    if json_out:
        for name in sorted(sources):
            src = sources[name]
            emit({"name": name, "kind": src.kind, "judge": _judge(src, short=True),
                  "source": src.where, "needs": _needs(src)})  # fmt: skip
        return
    table = Table("name", "kind", "judge", "source", "needs")
    for name in sorted(sources):
        src = sources[name]
        table.add_row(name, src.kind, _judge(src, short=True), src.where, _needs(src) or "")
    Console().print(table)


# How a grader kind decides a verdict, for `envs list` (short) and `envs show` (long).
JUDGES = {
    "function": (
        "function",
        "function: a driver calls the answer with each case's arguments; the host compares its "
        "typed output with expected values that never enter the sandbox",
    ),
    "code": (
        "tests (weaker)",
        "test framework, WEAKER: the tests judge the answer inside the sandbox, and for go and "
        "rust the answer runs in the test framework's own process (sandbox/SECURITY.md); the "
        "function-judged environment of the same stack is the trusted one",
    ),
}


def _judge(src: Any, short: bool) -> str:
    """The judge of a manifest environment by its grader kind ('' for other sources)."""
    if src.folder is None:
        return ""
    try:
        kind = read_manifest(src.folder).grader.kind
    except RlvrError:
        return ""
    label = JUDGES.get(kind, (kind, kind))
    return label[0] if short else label[1]


def _needs(src: Any) -> str | None:
    """The install command for a manifest environment whose optional packages are missing."""
    if src.folder is None:
        return None
    try:
        requires = read_manifest(src.folder).requires
    except RlvrError:
        return None
    return requires.install_hint() if requires is not None and requires.missing() else None


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="Environment name.")],
    json_out: JsonOpt = False,
    env_path: EnvPathOpt = None,
) -> None:
    """Describe one environment: grader, task count and a sample prompt."""
    use_env_paths(env_path)
    env = load_env(name)
    tasks = env.tasks()
    info = {
        "name": env.name,
        "description": env.description,
        "source": env.source,
        "grader": env.grader.name,
        "judge": _judge(discover()[name], short=False) if name in discover() else "",
        "n_tasks": len(tasks),
        "split": {**split_counts(tasks, env.split, env.name), **env.split.model_dump()},
        "first_task_id": tasks[0].id if tasks else None,
        "sandbox_image": (env.sandbox or {}).get("image") or _judge_image(env),
    }
    if env.describe is not None:
        info["coverage"] = env.describe()
    if json_out:
        emit(info)
        return
    console = Console()
    coverage = info.pop("coverage", None)
    for key, value in info.items():
        console.print(f"[bold]{key}[/]: {value}", highlight=False)
    if coverage:
        _print_coverage(console, coverage)
    if tasks:
        console.rule("first prompt")
        console.print(env.format_prompt(tasks[0]), markup=False, highlight=False)


def _print_coverage(console: Console, coverage: dict) -> None:
    """Scalars as `key: value`; lists of {id, reason} as one line per item."""
    console.rule("coverage")
    for key, value in coverage.items():
        if not isinstance(value, list):
            console.print(f"[bold]{key}[/]: {value}", highlight=False)
            continue
        console.print(f"[bold]{key}[/]: {len(value)}", highlight=False)
        shown = value if len(value) <= 40 else value[:10]
        for item in shown:
            line = f"{item['id']}: {item['reason']}" if isinstance(item, dict) else str(item)
            console.print(f"  {line}", markup=False, highlight=False)
        if len(shown) < len(value):
            console.print(
                f"  ... {len(value) - len(shown)} more (--json lists all)", highlight=False
            )


@app.command("validate")
def validate(
    target: Annotated[
        str, typer.Argument(help="Environment folder (with env.toml), or an environment name.")
    ],
    references: Annotated[
        bool,
        typer.Option(
            "--references",
            help="Also grade every task's reference solution (in the sandbox for code stacks), "
            "batched as answers are; fail on any that does not pass.",
        ),
    ] = False,
    n_tasks: Annotated[
        int | None,
        typer.Option("--tasks", min=1, help="With --references: check only N tasks (see --pick)."),
    ] = None,
    pick: Annotated[
        Pick,
        typer.Option(
            "--pick",
            help="Which N tasks --tasks checks: the first N, or N chosen by the hash of their "
            "ids (spread over the whole set, the same on every run).",
        ),
    ] = "first",
    skip_missing: Annotated[
        bool,
        typer.Option(
            "--skip-missing",
            help="List tasks without a reference and skip them instead of failing on them.",
        ),
    ] = False,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            help="Tasks graded at once (a batching grader such as the function judge uses its "
            "own pool of containers instead).",
        ),
    ] = 4,
    json_out: JsonOpt = False,
    env_path: EnvPathOpt = None,
) -> None:
    """Check a manifest, build its grader and load its tasks; exit 1 with the fix if not."""
    use_env_paths(env_path)
    folder = Path(target)
    if folder.is_dir():  # its sibling folders (its stack's, say) are found as --env-path ones
        use_env_paths([folder.resolve().parent])
    env = validate_env_folder(folder) if folder.is_dir() else load_env(target)
    n_all = len(env.tasks())
    if not references:
        typer.echo(f"ok: {env.name} ({n_all} tasks, grader {env.grader.name})")
        return
    _check_references(env, choose_tasks(env.tasks(), n_tasks, pick), workers, skip_missing,
                      json_out)  # fmt: skip


def _check_references(
    env: Any, tasks: list, workers: int, skip_missing: bool, json_out: bool
) -> None:
    n_refs = sum(bool(t.reference) for t in tasks)
    with Progress(TextColumn("references"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=stderr, transient=True) as progress:  # fmt: skip
        bar = progress.add_task("references", total=n_refs)
        results = check_references(env, workers, lambda n: progress.advance(bar, n),
                                   skip_missing=skip_missing, tasks=tasks)  # fmt: skip
    for r in results if json_out else []:
        emit({"task_id": r.task_id, "status": r.status, "passed": r.passed, "reason": r.reason,
              "skipped": r.skipped, "reference_file": r.reference_file})  # fmt: skip
    skipped = [r for r in results if r.skipped]
    checked = [r for r in results if not r.skipped]
    failed = [r for r in checked if not r.passed]
    for r in skipped:
        stderr.print(f"SKIP {r.task_id}: {r.reason}", markup=False, highlight=False,
                     soft_wrap=True)  # fmt: skip
    for r in failed:
        hint = failure_hint(r)
        stderr.print(f"FAIL {r.task_id}: [{r.status}] {r.reason}" + (f" -- {hint}" if hint else ""),
                     markup=False, highlight=False, soft_wrap=True)  # fmt: skip
    parts = [f"{len(tasks)} of {len(env.tasks())} tasks"] if len(tasks) < len(env.tasks()) else []
    parts += [f"{len(skipped)} without a reference skipped"] if skipped else []
    note = f" ({'; '.join(parts)})" if parts else ""
    if failed:
        missing = [r for r in failed if r.status == "missing"]
        fix = (
            "fix the reference or its rendering (reference_from_python), or the driver: the "
            "reason names the failing case or the driver's error"
            if env.grader.name == "function"
            else "fix the task's reference or its tests (a test file that does not compile, "
            "test names that differ from meta.test_names, a report the adapter cannot read)"
        ) + "; `rlvr grade` on that reference shows the full details"
        if missing:
            fix = (
                f"{missing_reference_fix(env, missing)}; for the others: {fix}"
                if len(missing) < len(failed)
                else missing_reference_fix(env, missing)
            )
        raise RlvrError(
            f"{env.name}: {len(failed)} of {len(checked)} reference solutions do not pass"
            f"{note} (first: {failed[0].task_id}: {failed[0].reason})",
            fix,
        )
    if not checked:
        raise RlvrError(
            f"{env.name}: none of the {len(tasks)} tasks checked has a reference solution",
            missing_reference_fix(env, skipped, skip=False),  # --skip-missing is already on
        )
    stderr.print(f"ok: {env.name}: all {len(checked)} reference solutions pass{note}",
                 highlight=False)  # fmt: skip


def _judge_image(env: Environment) -> str | None:
    """The image a function environment's judge runs in: its stack's (environments over a
    stack have no [sandbox] table of their own)."""
    spec = getattr(env.grader, "spec", None)
    return getattr(spec, "image", None)
