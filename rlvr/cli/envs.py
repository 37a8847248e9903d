"""`rlvr envs`: list, show and validate environments."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from rlvr.cli.common import EnvPathOpt, JsonOpt, emit, use_env_paths

app = typer.Typer(help="List, inspect and validate environments.", no_args_is_help=True)


@app.command("list")
def list_envs(json_out: JsonOpt = False, env_path: EnvPathOpt = None) -> None:
    """List every environment the registry can find, with where it comes from."""
    from rlvr.registry import discover

    use_env_paths(env_path)
    sources = discover()
    if json_out:
        for name in sorted(sources):
            src = sources[name]
            emit({"name": name, "kind": src.kind, "source": src.where})
        return
    table = Table("name", "kind", "source")
    for name in sorted(sources):
        table.add_row(name, sources[name].kind, sources[name].where)
    Console().print(table)


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="Environment name.")],
    json_out: JsonOpt = False,
    env_path: EnvPathOpt = None,
) -> None:
    """Describe one environment: grader, task count and a sample prompt."""
    from rlvr.registry import load_env

    use_env_paths(env_path)
    env = load_env(name)
    tasks = env.tasks()
    info = {
        "name": env.name,
        "description": env.description,
        "source": env.source,
        "grader": env.grader.name,
        "n_tasks": len(tasks),
        "first_task_id": tasks[0].id if tasks else None,
        "sandbox_image": (env.sandbox or {}).get("image"),
    }
    if json_out:
        emit(info)
        return
    console = Console()
    for key, value in info.items():
        console.print(f"[bold]{key}[/]: {value}", highlight=False)
    if tasks:
        console.rule("first prompt")
        console.print(env.format_prompt(tasks[0]), markup=False, highlight=False)


@app.command("validate")
def validate(
    path: Annotated[Path, typer.Argument(help="Environment folder (with env.toml).")],
) -> None:
    """Check a manifest, build its grader and load its tasks; exit 1 with the fix if not."""
    from rlvr.registry import validate_env_folder

    env = validate_env_folder(path)
    typer.echo(f"ok: {env.name} ({len(env.tasks())} tasks, grader {env.grader.name})")
