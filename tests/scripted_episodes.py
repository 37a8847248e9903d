"""Scripted agents for episode tests: tool-call turns, and a group of episodes replayed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rlvr.episodes.run import EpisodeRunner
from rlvr.policies.base import SamplingConfig
from rlvr.policies.replay import ReplayPolicy
from rlvr.types import Task


def call(name: str, **args: object) -> str:
    """One model turn that calls `name` with `args`."""
    return "<tool_call>" + json.dumps({"name": name, "arguments": args}) + "</tool_call>"


def episodes(env: Any, task: Task, scripts: list[list[str]], tmp_path: Path) -> list[Any]:
    """One episode of `task` per script (a list of turns), run through the real loop."""
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps({"task_id": task.id, "turns": s}) + "\n" for s in scripts))
    [group] = EpisodeRunner(env, ReplayPolicy(path)).run([task], len(scripts), SamplingConfig())
    return group
