"""Terminal tasks: one folder each, in the layout of Terminal-Bench 2 tasks run by Harbor.

    <task>/task.toml              [metadata] category, difficulty; [agent] / [verifier] timeout_sec
    <task>/instruction.md         what the agent is asked to do (the prompt)
    <task>/environment/Dockerfile FROM the stack image (rlvr-terminal); see below
    <task>/environment/workspace/ files laid out in /app, the agent's workspace
    <task>/environment/setup.sh   optional, run as the agent before the first turn
    <task>/solution/solve.sh      the reference: run as the agent, through the bash tool
    <task>/tests/test.py          `test_*(ws)` checks, run by the judge after the episode

What rlvr reads of a Harbor task and what it does not: the instruction, the metadata, the
timeouts, `solve.sh` and the tests folder. A task's Dockerfile must be `FROM` the
environment's image with nothing else (rlvr runs every task in that one image, so tasks never
pull or build); a task that needs more packages, services, network or a GPU is refused with a
message that says so. Harbor's `tests/test.sh` (which runs pytest as root, beside the agent's
processes) is not run: rlvr's judge is `tests/test.py`, run as a uid the agent never had.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError
from rlvr.tasksets.functions import resolve
from rlvr.types import Task

FROM_LINE = re.compile(r"^\s*FROM\s+(\S+)\s*$", re.I)


def _check_dockerfile(folder: Path, image: str) -> None:
    path = folder / "environment" / "Dockerfile"
    if not path.is_file():
        return
    lines = [
        ln
        for ln in path.read_text("utf-8").splitlines()
        if ln.strip() and not ln.lstrip().startswith("#")
    ]
    m = FROM_LINE.match(lines[0]) if len(lines) == 1 else None
    if m is None or m.group(1).replace("${BASE}", image) != image:
        raise RlvrError(
            f"terminal task {folder.name}: environment/Dockerfile must be only `FROM {image}` "
            "(rlvr runs every task in the environment's image; extra packages, services and "
            "network are not supported)",
            f"install what the task needs in the environment's image, or drop {path}",
        )


def load_task(folder: Path, image: str) -> Task:
    """One task folder as a Task (`reference`: the solution script)."""
    toml = folder / "task.toml"
    meta: dict[str, Any] = tomllib.loads(toml.read_text("utf-8")) if toml.is_file() else {}
    instruction = folder / "instruction.md"
    tests = folder / "tests" / "test.py"
    for need in (instruction, tests):
        if not need.is_file():
            raise RlvrError(
                f"terminal task {folder.name}: {need.name} is missing",
                f"add {need.relative_to(folder)} (see rlvr/tasksets/terminal.py)",
            )
    _check_dockerfile(folder, image)
    solution = folder / "solution" / "solve.sh"
    info = meta.get("metadata", {})
    return Task(
        id=folder.name,
        prompt=instruction.read_text("utf-8").strip(),
        reference=solution.read_text("utf-8") if solution.is_file() else None,
        meta={
            "task_dir": str(folder),
            "category": str(info.get("category", "")),
            "difficulty": str(info.get("difficulty", "")),
            "agent_timeout_s": float(meta.get("agent", {}).get("timeout_sec", 30)),
            "verifier_timeout_s": float(meta.get("verifier", {}).get("timeout_sec", 120)),
            **({"split": info["split"]} if info.get("split") in ("train", "test") else {}),
        },
    )


def load_tasks(path: str, image: str = "rlvr-terminal:bookworm") -> list[Task]:
    """Every task folder under `path` (relative to the bundled datasets/, or absolute)."""
    root = resolve(path)
    if not root.is_dir():
        raise RlvrError(
            f"terminal tasks folder {root} does not exist",
            "point [tasks] args.path at a folder of task folders",
        )
    folders = sorted(p for p in root.iterdir() if p.is_dir() and (p / "instruction.md").exists())
    return [load_task(f, image) for f in folders]


def test_files(task: Task) -> dict[str, str]:
    """The task's tests folder as {relative path: text}; read only when the judge runs."""
    folder = Path(task.meta["task_dir"]) / "tests"
    return {
        p.relative_to(folder).as_posix(): p.read_text("utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
