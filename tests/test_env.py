"""Environment.grade grades each distinct answer of a group once and shares the verdict with the
identical copies: counted through the sandbox pool's own statistics on the real code and function
graders (python stack), with the hack flags still on every sample and GRPO advantages computed
over the whole group.

Needs Docker and the python image; RLVR_SKIP_DOCKER=1 skips the Docker tests explicitly.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import pytest
from learner_env import digit_env

import rlvr
from rlvr.env import Environment, first_occurrences
from rlvr.errors import SandboxError
from rlvr.grading import GradeItem, grade_items
from rlvr.rollout import RolloutConfig, score_group
from rlvr.sandbox.client import docker_available
from rlvr.types import Sample, Task, Verdict

needs_docker = pytest.mark.skipif(
    os.environ.get("RLVR_SKIP_DOCKER") == "1", reason="RLVR_SKIP_DOCKER=1: Docker tests skipped"
)

RIGHT = (
    '```python\ndef reverse_words(s: str) -> str:\n    return " ".join(reversed(s.split()))\n```'
)
WRONG = "```python\ndef reverse_words(s: str) -> str:\n    return s\n```"
EXIT = "```python\nimport os\nos._exit(0)\n```"


@pytest.fixture(scope="module")
def code_env() -> Environment:
    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")
    return rlvr.load_env("python-tests", grader_options={"pool_size": 2})


def cost(env: Environment) -> tuple[int, int]:
    """(execs, programs) the environment's sandbox pool has run so far."""
    pool = env.grader.pool  # type: ignore[attr-defined]
    return pool.execs, pool.programs


def graded(env: Environment, task: Task, answers: list[str]) -> tuple[list[Verdict], int]:
    before = cost(env)[1]
    verdicts = env.grade(task, answers)
    return verdicts, cost(env)[1] - before


def samples(task: Task, texts: list[str]) -> list[Sample]:
    return [Sample(task_id=task.id, index=i, text=t) for i, t in enumerate(texts)]


def test_first_occurrences_points_each_copy_at_its_first() -> None:
    assert first_occurrences(["a", "b", "a", "c", "b", "a"]) == [0, 1, 0, 3, 1, 0]
    assert first_occurrences(["a", "a "]) == [0, 1]  # not equal bytes: not a copy
    assert first_occurrences([]) == []


@needs_docker
def test_a_group_runs_each_distinct_answer_once_and_copies_share_its_verdict(code_env) -> None:
    task = code_env.task("python/reverse_words")
    code_env.grade(task, [EXIT])  # the grader probes the reference once per task: not counted
    answers = [RIGHT, WRONG, RIGHT, EXIT, WRONG, RIGHT, RIGHT, EXIT]
    verdicts, ran = graded(code_env, task, answers)
    assert ran == 3
    assert [v.reward for v in verdicts] == [1.0, 0, 1.0, 0, 0, 1.0, 1.0, 0]
    owner = first_occurrences(answers)
    for i, v in enumerate(verdicts):
        first = verdicts[owner[i]]
        if owner[i] == i:
            assert "copy_of" not in v.details
        else:
            assert v.details.pop("copy_of") == owner[i]
            assert v == first and v is not first
    # the hack audit still flags every sample, copies included
    assert [bool(v.flags) for v in verdicts] == [a == EXIT for a in answers]
    assert {f.kind for f in verdicts[7].flags} >= {"early_exit"}


@needs_docker
def test_answers_that_differ_at_all_are_graded_separately(code_env) -> None:
    task = code_env.task("python/reverse_words")
    answers = [RIGHT, RIGHT + "\n", RIGHT.replace("return", "return  "), WRONG]
    verdicts, ran = graded(code_env, task, answers)
    assert ran == 4
    assert [v.reward for v in verdicts] == [1.0, 1.0, 1.0, 0.0]
    assert not any("copy_of" in v.details for v in verdicts)


@needs_docker
def test_grpo_group_with_duplicated_right_and_wrong_answers(code_env) -> None:
    """3 right (one answer, 3 copies), 5 wrong (two answers): the rewards are each sample's, and
    GRPO's advantages are over all 8: (r - 3/8) / sqrt(3/8 * 5/8)."""
    task = code_env.task("python/reverse_words")
    other = WRONG.replace("return s", "return s.upper()")
    texts = [WRONG, RIGHT, WRONG, other, RIGHT, WRONG, WRONG, RIGHT]
    before = cost(code_env)[1]
    group = score_group(code_env, task, samples(task, texts), RolloutConfig())
    assert cost(code_env)[1] - before == 3
    assert group.rewards == [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0]
    right, wrong = math.sqrt(5 / 3), -math.sqrt(3 / 5)
    expected = [right if t == RIGHT else wrong for t in texts]
    assert group.advantages == pytest.approx(expected, rel=1e-5)
    assert group.stats is not None and group.stats.pass_rate == pytest.approx(3 / 8)


@needs_docker
def test_batched_function_grading_runs_each_distinct_answer_once() -> None:
    """`rlvr grade` on a function environment (several tasks packed per exec): copies across the
    input are graded once per task, every row comes back, and progress counts every item."""
    env = rlvr.load_env("python", grader_options={"pool_size": 1})
    other = env.task("python/reverse_words")
    tasks = [other, next(t for t in env.tasks() if t.id != other.id)]
    items = []
    for t in tasks:
        right = f"```python\n{t.reference}```"
        items += [GradeItem(t.id, a) for a in (right, WRONG, right, right, WRONG, right)]
    seen: list[int] = []
    before = cost(env)
    rows = grade_items(env, items, on_group_done=seen.append)
    execs, programs = (b - a for a, b in zip(before, cost(env), strict=True))
    assert programs == 4 and execs == 1
    assert sum(seen) == len(items) == len(rows)
    assert [r["passed"] for r in rows] == [a != WRONG for a in (i.completion for i in items)]
    assert [r["details"].get("copy_of") for r in rows[:6]] == [None, None, 0, 0, 1, 0]


class _LostSandbox:
    """A grader whose sandbox is gone for one task, as a dead daemon leaves it."""

    name = "lost"

    def extract(self, completion: str) -> str:
        return completion

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        raise SandboxError("no Docker daemon answers", "start dockerd")


def test_masked_verdicts_are_shared_too() -> None:
    task = Task(id="t", prompt="p")
    env = Environment(name="lost", grader=_LostSandbox(), load_tasks=lambda: [task])
    verdicts = env.grade(task, ["a", "b", "a"])
    assert [v.status for v in verdicts] == ["infra_error"] * 3
    assert [v.details.get("copy_of") for v in verdicts] == [None, None, 0]


def test_a_grader_that_is_not_deterministic_sees_every_copy() -> None:
    """The learners' test grader times out by position ("flaky" tasks: the first answer), so it
    says `deterministic = False`: the second copy is graded on its own and scores."""
    env = digit_env(n=0, flaky=1)
    verdicts = env.grade(env.task("flaky0"), ["7", "7"])
    assert [v.status for v in verdicts] == ["timeout", "scored"]
    assert "copy_of" not in verdicts[1].details
