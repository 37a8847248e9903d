"""Which tasks a command works on: a split, a tasks file's ids, meta filters, the first N.

One function serves `rlvr rollout`, `frontier`, `sft`, the demo and the learners (whose
`task_filter` is a meta filter), so a task file, a split and a filter mean the same everywhere.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.splits import filter_split
from rlvr.types import Task


def select_tasks(
    env: Environment,
    n_tasks: int | None = None,
    difficulty: str | None = None,
    task_file: str | Path | None = None,
    split: str = "all",
    meta: Mapping[str, str] | None = None,
) -> list[Task]:
    """The tasks of one split ("train", "test", "all"), restricted to a task file's ids, to
    tasks whose meta values read as `meta` says (`difficulty` is short for
    meta={"difficulty": ...}), then the first N."""
    want = dict(meta or {})
    if difficulty is not None:
        want["difficulty"] = difficulty
    if task_file is not None:
        listed = restrict_to_file(env, task_file)
        tasks = filter_split(listed, env.split, env.name, split)
        if listed and not tasks:  # the file's tasks are all on the other side of the split
            sides = sorted({s for s in ("train", "test")
                            if filter_split(listed, env.split, env.name, s)})  # fmt: skip
            raise RlvrError(
                f"environment {env.name!r}: the {len(listed)} tasks of {task_file} are all in "
                f"the {' and '.join(sides)} split, and this command reads split {split!r}",
                f"pass --split {sides[0] if len(sides) == 1 else 'all'}",
            )
    else:
        tasks = env.tasks_in(split)
    for key, value in want.items():
        tasks = [t for t in tasks if str(t.meta.get(key)) == value]
    if n_tasks is not None:
        tasks = tasks[:n_tasks]
    if not tasks:
        levels = sorted({str(t.meta.get("difficulty")) for t in env.tasks()})
        filters = ", ".join(f"{k}={v!r}" for k, v in want.items()) or "none"
        raise RlvrError(
            f"environment {env.name!r}: no task matches {filters}, tasks file={task_file}, "
            f"n_tasks={n_tasks} in split {split!r}",
            f"its difficulties are {', '.join(levels)}; loosen the filters (or --split all)",
        )
    return tasks


def restrict_to_file(env: Environment, path: str | Path) -> list[Task]:
    """The env's tasks whose ids appear in a Task JSONL file (e.g. `rlvr frontier --out`)."""
    path = Path(path)
    if not path.is_file():
        raise RlvrError(f"tasks file {path} does not exist", "check the --tasks path")
    ids: list[str] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise RlvrError(
                f"{path}:{lineno}: not valid JSON ({e.msg})", "write one task object per line"
            ) from None
        tid = (obj.get("id") or obj.get("task_id")) if isinstance(obj, dict) else None
        if not isinstance(tid, str):
            raise RlvrError(f"{path}:{lineno}: no 'id' field", "write Task JSON lines")
        if tid not in ids:
            ids.append(tid)
    return [env.task(tid) for tid in ids]
