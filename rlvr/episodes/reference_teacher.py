"""A task's reference played as a teacher episode: the cheapest teacher there is.

A student that has never made a tool call cannot start RL on episodes (every group scores 0).
Before any real teacher is at hand, each task's own reference shows the format and the path:

- a repair task (`run_public_tests`, `submit`): the reference in the stack's fence with a
  `run_public_tests` call, then `submit` once the public examples pass;
- a shell task (`bash`, `submit`): the reference script (a terminal task's solve.sh) run with
  one `bash` call, then `submit`;
- an answer task (`submit_answer`, the `retry` session): the reference answer, submitted.

The episodes are written as a replay script (`rlvr.policies.replay`) and then played through the
environment like any policy's, so the judge checks every one and distillation keeps only what
passed (`rlvr rollout --model reference`, then `rlvr sft --episodes`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from rlvr.episodes.repair import fence_tags
from rlvr.types import Task

if TYPE_CHECKING:
    from rlvr.env import Environment

REFERENCE_SPEC = "reference"
"""The `--model` spec that plays each task's reference (rlvr rollout, rlvr eval)."""


def call(name: str, **arguments: object) -> str:
    """One tool call as rlvr's episode loop reads it and a tool template renders it."""
    return "<tool_call>" + json.dumps({"name": name, "arguments": arguments}) + "</tool_call>"


def reference_turns(env: Environment, task: Task) -> list[str] | None:
    """The model turns of the task's reference episode, or None when the task has no reference
    or the environment offers no repair, shell or answer tool."""
    spec = env.episode
    if spec is None or not task.reference:
        return None
    submit = [call(spec.submit_tool)] if spec.submit_tool else []
    if "run_public_tests" in spec.tools:
        fence = fence_tags(str(task.meta.get("stack", "python")))[0]
        code = task.reference.rstrip()
        return [f"```{fence}\n{code}\n```\n{call('run_public_tests')}", *submit]
    if "bash" in spec.tools:
        return [call("bash", command=task.reference), *submit]
    if "submit_answer" in spec.tools:  # the reference answer, submitted
        return [f"{task.reference} {call('submit_answer')}"]
    return None


def write_reference_script(
    env: Environment, tasks: list[Task], path: Path, copies: int = 1
) -> list[Task]:
    """Write the replay script of `tasks`' reference episodes to `path`, `copies` lines per
    task (one per episode of a group); the tasks it covers (those without a reference, or in an
    environment with neither tool, are left out)."""
    covered: list[Task] = []
    lines = []
    for task in tasks:
        turns = reference_turns(env, task)
        if turns is not None:
            covered.append(task)
            lines += [json.dumps({"task_id": task.id, "turns": turns}) + "\n"] * copies
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(lines), encoding="utf-8")
    return covered
