"""Synth references in the real Docker sandbox, through the synth-<stack> environments.

One task of every signature shape (20 shapes: ints, strings, lists, dicts, optionals, tuples)
per stack is graded by the environment's own function grader: each reference passes, and a
reference graded against another task of the same shape fails. Every reference of every task
is checked by `rlvr envs validate --references synth-<stack>` (one job per task) and by
`python bench/synth_references.py` (bulk); see the synth section of envs/README.md.

Needs Docker and the stack images; RLVR_SKIP_DOCKER=1 skips it explicitly.
"""

from __future__ import annotations

import os

import pytest

from rlvr.grading import GradeItem, grade_items
from rlvr.references import reference_completion
from rlvr.registry import load_env

STACKS = ["python", "javascript", "go", "rust"]

if os.environ.get("RLVR_SKIP_DOCKER") == "1":
    pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request", allow_module_level=True)


def _shape(task) -> tuple:
    sig = task.meta["function"]["signature"]
    return tuple(p["type"] for p in sig["params"]), sig["returns"]


@pytest.mark.parametrize("stack", STACKS)
def test_one_reference_per_signature_shape_passes_and_a_swapped_one_fails(stack: str) -> None:
    from rlvr.sandbox.client import docker_available

    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")
    env = load_env(f"synth-{stack}")
    by_shape: dict[tuple, list] = {}
    for task in env.tasks():
        by_shape.setdefault(_shape(task), []).append(task)
    assert len(by_shape) >= 20
    sample = [tasks[0] for tasks in by_shape.values()]
    items = [GradeItem(t.id, reference_completion(env, t)) for t in sample]
    first, second = next(ts[:2] for ts in by_shape.values() if len(ts) > 1)
    items.append(GradeItem(second.id, reference_completion(env, first)))
    rows = grade_items(env, items, workers=2)
    for task, row in zip(sample, rows, strict=False):
        assert row["status"] == "scored" and row["passed"], (stack, task.id, row["reason"])
    swapped = rows[-1]
    assert swapped["status"] == "scored" and not swapped["passed"], (stack, swapped)
