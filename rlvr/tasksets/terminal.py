"""Terminal tasks: one folder each, in the layout of Terminal-Bench 2 tasks run by Harbor.

    <task>/task.toml              [metadata] category, difficulty; [agent] / [verifier] timeout_sec
    <task>/instruction.md         what the agent is asked to do (the prompt)
    <task>/environment/Dockerfile FROM the stack image (rlvr-terminal); see below
    <task>/environment/workspace/ files laid out in /app, the agent's workspace
    <task>/environment/setup.sh   optional, run as the agent before the first turn
    <task>/solution/solve.sh      the reference: run as the agent, through the bash tool
    <task>/tests/test.py          `test_*(ws)` checks, run by the judge after the episode

A folder of Harbor tasks (Terminal-Bench 2) loads as it is, with two judges:

- `tests/test.py` present: rlvr's judge. `test_*(ws)` functions run as a uid the agent never
  had, on a snapshot of /app taken after the agent's processes are gone (the strong mode).
- only Harbor's `tests/test.sh`: the tests are copied into `/tests` after the agent's processes
  are gone and `bash /tests/test.sh` runs in /app as a verifier uid the agent never had; its
  reward is `/logs/verifier/reward.txt` (a number) or `reward.json` (`{"reward": x}`). Weaker:
  the verifier runs the agent's code under its own uid, so that code could write the reward
  file; and offline, a test.sh that installs packages (pip, uv, apt) fails.

Read of task.toml: `[metadata]` category, difficulty and split, `[agent].timeout_sec` (the
default per command), `[verifier].timeout_sec`. Not read: `[environment]` resources (the
environment's `[sandbox]` limits apply), network access (never), services, GPUs. Read of
environment/Dockerfile: `FROM` (must be the environment's image), `WORKDIR /app`, and
`COPY`/`ADD` of the task's files into /app; anything else is refused (rlvr builds no image per
task and pulls none).
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
WORKDIR_APP = re.compile(r"^\s*WORKDIR\s+/app/?\s*$", re.I)
COPY_LINE = re.compile(r"^\s*(?:COPY|ADD)\s+(\S+)\s+(\S+)\s*$", re.I)


def read_dockerfile(folder: Path, image: str) -> list[tuple[str, str]]:
    """The (source under environment/, path under /app) pairs of the task's Dockerfile.

    Read: `FROM` (must name the environment's image), `WORKDIR /app`, and `COPY`/`ADD` of the
    task's own files into /app. Anything else (RUN, ENV, other paths, multi-stage builds)
    would need an image per task, which rlvr does not build: such a task is refused.
    """
    path = folder / "environment" / "Dockerfile"
    if not path.is_file():
        return []
    lines = [ln for ln in path.read_text("utf-8").splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]  # fmt: skip
    m = FROM_LINE.match(lines[0]) if lines else None
    copies: list[tuple[str, str]] = []
    problem = None
    if m is None or m.group(1).replace("${BASE}", image) != image:
        problem = f"its first line must be `FROM {image}`"
    for line in lines[1:]:
        if problem:
            break
        copy = COPY_LINE.match(line)
        if WORKDIR_APP.match(line):
            continue
        dest = copy.group(2) if copy else ""
        if copy and (dest.startswith("/app") or not dest.startswith("/")):
            rel = dest.removeprefix("/app").lstrip("/")
            copies.append((copy.group(1), rel))
            continue
        problem = f"`{line.strip()[:60]}` is not supported"
    if problem:
        raise RlvrError(
            f"terminal task {folder.name}: environment/Dockerfile: {problem} (rlvr runs every "
            "task in the environment's image and reads only FROM, WORKDIR /app and COPY into "
            "/app; packages, services and network are not supported)",
            f"install what the task needs in the environment's image, then edit {path}",
        )
    return copies


def load_task(folder: Path, image: str) -> Task:
    """One task folder as a Task (`reference`: the solution script)."""
    toml = folder / "task.toml"
    meta: dict[str, Any] = tomllib.loads(toml.read_text("utf-8")) if toml.is_file() else {}
    instruction = folder / "instruction.md"
    harbor = not (folder / "tests" / "test.py").is_file()
    tests = folder / "tests" / ("test.sh" if harbor else "test.py")
    for need in (instruction, tests):
        if not need.is_file():
            raise RlvrError(
                f"terminal task {folder.name}: {need.name} is missing",
                f"add {need.relative_to(folder)} (see rlvr/tasksets/terminal.py)",
            )
    copies = read_dockerfile(folder, image)
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
            "judge": "harbor" if harbor else "rlvr",
            "copies": copies,
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
