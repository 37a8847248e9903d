"""`rlvr sandbox`: bootstrap the base image, build stack images, check the set-up; stand-ins
for public images and the offline test toolbox (Harbor mode)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

from rlvr.cli.common import EnvPathOpt, JsonOpt, emit, use_env_paths
from rlvr.cli.progress import Progress
from rlvr.discovery import sandbox_envs
from rlvr.errors import RlvrError
from rlvr.sandbox.doctor import print_report, run_doctor
from rlvr.sandbox.images import BASE_IMAGE, bootstrap_base, build_stack
from rlvr.sandbox.standins import default_source
from rlvr.sandbox.standins import standin as standin_image
from rlvr.sandbox.task_images import missing_bases
from rlvr.sandbox.toolbox import build as build_toolbox

app = typer.Typer(help="Build and check the Docker sandbox.", no_args_is_help=True)
err = Console(stderr=True)


def _progress() -> Progress:
    return Progress(
        SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(), console=err
    )


@app.command()
def bootstrap(
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if it exists.")] = False,
    mirror: Annotated[str | None, typer.Option(help="Debian mirror URL for debootstrap.")] = None,
) -> None:
    """Create the base image rlvr-base:bookworm offline (debootstrap + docker import)."""
    with _progress() as progress:
        task = progress.add_task(f"bootstrapping {BASE_IMAGE}", total=None)

        def log(line: str) -> None:
            progress.update(task, description=f"{BASE_IMAGE}: {line[:70]}")

        made = bootstrap_base(force=force, mirror=mirror, on_log=log)
    err.print(f"{BASE_IMAGE}: {'built' if made else 'already present (use --force to rebuild)'}")


@app.command()
def build(
    stacks: Annotated[
        list[str] | None, typer.Argument(help="Environment names (default: every code env).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even when up to date.")] = False,
    json_out: JsonOpt = False,
    env_path: EnvPathOpt = None,
) -> None:
    """Build the sandbox image of each code environment, skipping those already up to date."""
    use_env_paths(env_path)
    envs = sandbox_envs()
    names = stacks or sorted(envs)
    unknown = [n for n in names if n not in envs]
    if unknown:
        raise RlvrError(
            f"no code environment named {unknown}",
            f"use one of {sorted(envs)} (environments with a [sandbox] table)",
        )
    with _progress() as progress:
        overall = progress.add_task("stacks", total=len(names))
        for name in names:
            step = progress.add_task(f"{name}: starting", total=None)

            def log(line: str, step: int = step, name: str = name) -> None:
                progress.update(step, description=f"{name}: {line[:70]}")

            res = build_stack(envs[name], force=force, on_log=log)
            progress.update(step, description=f"{name}: {res.image} {res.reason}", completed=1,
                            total=1)  # fmt: skip
            progress.advance(overall)
            if json_out:
                emit({"env": name, "image": res.image, "built": res.built, "status": res.reason,
                      "content_hash": res.content_hash})  # fmt: skip


@app.command()
def doctor(json_out: JsonOpt = False, env_path: EnvPathOpt = None) -> None:
    """Check the daemon, the images and the sandbox limits; print the fix for each problem."""
    use_env_paths(env_path)
    checks = run_doctor()
    if json_out:
        for c in checks:
            emit({"check": c.name, "ok": c.ok, "detail": c.detail, "fix": c.fix})
    else:
        print_report(checks, Console())
    if not all(c.ok for c in checks):
        raise typer.Exit(1)


@app.command()
def standin(
    names: Annotated[
        list[str] | None,
        typer.Argument(help="Public images tasks name, e.g. ubuntu:24.04 python:3.13-slim."),
    ] = None,
    source: Annotated[
        str | None,
        typer.Option(
            "--from",
            help="The local image to stand in (default: rlvr's base, or its "
            "Python stand-in for python images).",
        ),
    ] = None,
    tasks: Annotated[
        Path | None,
        typer.Option(
            "--tasks",
            help="A folder of Harbor tasks: stand in for every base image "
            "they name that is not on this machine.",
        ),
    ] = None,
) -> None:
    """Tag a local image as a public one that cannot be pulled here, so that Harbor tasks
    `FROM` it (or naming it as docker_image) build and run offline. A stand-in is not the
    public image: it is rlvr's Debian bookworm base (with pip and venv for python images)."""
    wanted = list(names or []) + (missing_bases(tasks) if tasks is not None else [])
    if not wanted:
        err.print("nothing to stand in for (every base image is here)")
        return
    for name in wanted:
        made = standin_image(name, source)
        err.print(f"{made}: a stand-in ({source or default_source(made)})", highlight=False)


@app.command()
def toolbox(
    force: Annotated[bool, typer.Option("--force", help="Download again.")] = False,
) -> None:
    """Build the offline test toolbox Harbor-mode verifiers use (uv, pytest wheels, shims)."""
    folder = build_toolbox(force=force, log=lambda line: err.print(line, highlight=False))
    err.print(f"toolbox: {folder}", highlight=False)
