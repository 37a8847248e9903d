"""Terminal tasks: one folder each, in the layout of Terminal-Bench 2 tasks run by Harbor.

    <task>/task.toml              [metadata] category, difficulty; [agent] / [verifier] timeout_sec
    <task>/instruction.md         what the agent is asked to do (the prompt)
    <task>/environment/Dockerfile FROM the stack image (rlvr-terminal); see below
    <task>/environment/workspace/ files laid out in /app, the agent's workspace
    <task>/environment/setup.sh   optional, run as the agent before the first turn
    <task>/solution/solve.sh      the reference: run as the agent, through the bash tool
    <task>/tests/test.py          `test_*(ws)` checks, run by the judge after the episode

A folder may mix rlvr's own tasks with tasks in Harbor's layout, each with its own judge:

- `tests/test.py` present: rlvr's judge (the strong mode). The task runs in the environment's
  image; its Dockerfile may hold only `FROM` that image, `WORKDIR /app` and `COPY` into /app.
  `test_*(ws)` functions run as a uid the agent never had, on a snapshot of /app taken after
  the agent's processes are gone.
- only Harbor's `tests/test.sh`: Harbor mode (rlvr/tasksets/harbor.py, the weaker mode): the
  task's own image, Harbor's order of events and its reward file (sandbox/SECURITY.md).

A task that cannot run here is refused alone, with its reason and fix (printed once, and listed
by `describe`); the rest of the folder loads.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError
from rlvr.tasksets.functions import resolve
from rlvr.tasksets.harbor import Refusal, load_harbor_task
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
    """One task folder of rlvr's own (tests/test.py) as a Task (`reference`: solve.sh)."""
    toml = folder / "task.toml"
    meta: dict[str, Any] = tomllib.loads(toml.read_text("utf-8")) if toml.is_file() else {}
    instruction = folder / "instruction.md"
    if not instruction.is_file():
        raise RlvrError(f"terminal task {folder.name}: instruction.md is missing",
                        "add instruction.md (see rlvr/tasksets/terminal.py)")  # fmt: skip
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
            "judge": "rlvr",
            "copies": copies,
            **({"split": info["split"]} if info.get("split") in ("train", "test") else {}),
        },
    )


def _task_folders(path: str) -> list[Path]:
    root = resolve(path)
    if not root.is_dir():
        raise RlvrError(
            f"terminal tasks folder {root} does not exist",
            "point [tasks] args.path at a folder of task folders",
        )
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def load_all(path: str, image: str = "rlvr-terminal:bookworm",
             allow_network: bool = False) -> tuple[list[Task], list[Refusal]]:  # fmt: skip
    """Every task folder under `path` that can run here, and one Refusal per task that cannot."""
    tasks: list[Task] = []
    refused: list[Refusal] = []
    for folder in _task_folders(path):
        try:
            if (folder / "tests" / "test.py").is_file():
                tasks.append(load_task(folder, image))
            elif (folder / "tests" / "test.sh").is_file() or (folder / "task.toml").is_file():
                tasks.append(load_harbor_task(folder, allow_network))
            elif (folder / "instruction.md").is_file():
                raise Refusal(folder.name, "no tests/test.py (rlvr's judge) or tests/test.sh "
                              "(Harbor's verifier)", "add the task's tests")  # fmt: skip
        except Refusal as r:
            refused.append(r)
        except RlvrError as e:
            refused.append(Refusal(folder.name, e.message, e.fix or "fix the task folder"))
        except (OSError, ValueError, TypeError) as e:  # whatever else a task folder holds
            refused.append(Refusal(folder.name, f"cannot be read: {type(e).__name__}: {e}",
                                   "fix the task folder"))  # fmt: skip
    return tasks, refused


_told: set[tuple[str, str]] = set()


def load_tasks(path: str, image: str = "rlvr-terminal:bookworm",
               allow_network: bool = False) -> list[Task]:  # fmt: skip
    """Every task under `path` (relative to the bundled datasets/, or absolute) that can run
    here; each refused task is one line on stderr (once per process) with its reason and fix."""
    tasks, refused = load_all(path, image, allow_network)
    for r in refused:
        if (path, r.task) not in _told:
            _told.add((path, r.task))
            print(f"refused terminal task {r.task}: {r.reason}; {r.fix}", file=sys.stderr)
    if not tasks and refused:
        raise RlvrError(f"none of the {len(refused)} task folders under {path} can run here "
                        f"(first: {refused[0]})", "see the refusal of each task above")  # fmt: skip
    return tasks


def describe(path: str, image: str = "rlvr-terminal:bookworm",
             allow_network: bool = False) -> dict[str, Any]:  # fmt: skip
    """What `rlvr envs show` prints: the judges in use and every refused task with its reason."""
    tasks, refused = load_all(path, image, allow_network)
    judges = sorted({str(t.meta.get("judge")) for t in tasks})
    return {
        "judges": judges,
        "loaded": len(tasks),
        "refused": [{"id": r.task, "reason": f"{r.reason}; {r.fix}"} for r in refused],
    }
