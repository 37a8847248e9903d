"""Rollouts: scored groups from real graders, overlap, resume after a kill, dynamic sampling."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rlvr
from rlvr.cli import app
from rlvr.env import Environment
from rlvr.errors import RlvrError, SandboxError, SandboxSetupError
from rlvr.grading import GradeItem, grade_items
from rlvr.models import make_policy
from rlvr.policies.base import SamplingConfig
from rlvr.policies.replay import ReplayPolicy
from rlvr.rollout import RolloutConfig, collect, score_tasks
from rlvr.selection import select_tasks
from rlvr.store import GroupStore
from rlvr.types import Task, Verdict


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


class WordGrader:
    """A small real grader: 'right' passes, 'close' earns a shaped 0.5 without passing,
    'slow' times out, 'boom' crashes the grader, anything else is wrong."""

    name = "word"

    def __init__(self, on_grade: threading.Event | None = None) -> None:
        self.on_grade = on_grade

    def extract(self, completion: str) -> str:
        return completion.strip()

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        if self.on_grade is not None:
            self.on_grade.set()
        out = []
        for a in answers:
            word = self.extract(a)
            if word == "boom":
                raise RuntimeError("grader bug")
            if word == "right":
                out.append(Verdict.score(1.0, "right"))
            elif word == "close":
                out.append(Verdict.score(0.5, "close", passed=False))
            elif word == "slow":
                out.append(Verdict.error("timeout", "deadline"))
            else:
                out.append(Verdict.reject("wrong"))
        return out


def word_env(ids: Sequence[str], grader: WordGrader | None = None) -> Environment:
    tasks = [Task(id=i, prompt=f"say the word for {i}") for i in ids]
    return Environment(name="words", grader=grader or WordGrader(), load_tasks=lambda: tasks)


def replay(tmp_path: Path, answers: dict[str, list[str]]) -> ReplayPolicy:
    path = tmp_path / "answers.jsonl"
    lines = [json.dumps({"task_id": t, "completion": a}) for t, xs in answers.items() for a in xs]
    path.write_text("\n".join(lines) + "\n")
    return ReplayPolicy(path)


def test_groups_carry_rewards_masked_advantages_and_stats(tmp_path) -> None:
    env = word_env(["t1", "t2", "t3"])
    policy = replay(
        tmp_path,
        {
            "t1": ["right", "wrong", "slow", "right"],
            "t2": ["boom", "right", "right", "right"],
            "t3": ["right", "right", "right", "right"],
        },
    )
    g1, g2, g3 = score_tasks(env, policy, env.tasks(), RolloutConfig(g=4))
    assert g1.rewards == [1.0, 0.0, None, 1.0]
    assert g1.advantages == pytest.approx([0.7071, -1.4142, 0.0, 0.7071], abs=1e-3)
    assert g1.stats and g1.stats.n_masked == 1 and g1.stats.extra["n_timeout"] == 1.0
    assert g1.stats.pass_rate == pytest.approx(2 / 3) and "grade_s" in g1.stats.extra
    assert [v.status for v in g2.verdicts] == ["grader_error"] * 4
    assert "raised RuntimeError: grader bug" in g2.verdicts[0].reason
    assert g2.advantages == [0.0] * 4 and g2.stats and g2.stats.n_scored == 0
    assert g3.advantages == [0.0] * 4 and g3.stats and g3.stats.zero_variance


def test_estimator_is_configurable(tmp_path) -> None:
    env = word_env(["t1"])
    policy = replay(tmp_path, {"t1": ["right", "wrong", "wrong", "wrong"]})
    (group,) = score_tasks(env, policy, env.tasks(), RolloutConfig(g=4, estimator="dr_grpo"))
    assert group.advantages == pytest.approx([0.75, -0.25, -0.25, -0.25])


def test_grading_overlaps_generation(tmp_path) -> None:
    """The second batch is generated only once the first batch's grading has begun."""
    graded = threading.Event()
    env = word_env(["t1", "t2"], WordGrader(on_grade=graded))
    inner = replay(tmp_path, {"t1": ["right"], "t2": ["wrong"]})
    seen: list[bool] = []

    class WaitingPolicy:
        name = "waiting"

        def sample(self, prompts, g, sampling, task_ids=None):  # type: ignore[no-untyped-def]
            if task_ids == ["t2"]:
                seen.append(graded.wait(timeout=20))
            return inner.sample(prompts, g, sampling, task_ids)

    store = GroupStore(tmp_path / "groups.jsonl")
    collect(env, WaitingPolicy(), RolloutConfig(g=1, batch_tasks=1), store)
    assert seen == [True]
    assert len(store) == 2


def test_a_failing_policy_stops_the_run_after_storing_what_it_already_answered(
    tmp_path,
) -> None:
    """A teacher server that breaks mid-run must not cost the episodes it already answered:
    groups still queued for grading are graded and stored before the error ends the run."""
    from rlvr.errors import PolicyError

    release = threading.Event()

    class GatedGrader(WordGrader):
        def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
            release.wait(timeout=20)
            return super().grade_group(task, answers)

    ids = [f"t{i}" for i in range(8)]
    env = word_env(ids, GatedGrader())
    inner = replay(tmp_path, {i: ["right"] for i in ids})

    class BreakingPolicy:
        name = "breaking"

        def sample(self, prompts, g, sampling, task_ids=None):  # type: ignore[no-untyped-def]
            if task_ids and task_ids[0] == "t4":  # the second batch: the server breaks
                release.set()
                raise PolicyError("policy server sent garbage", "check the server")
            return inner.sample(prompts, g, sampling, task_ids)

    store = GroupStore(tmp_path / "groups.jsonl")
    config = RolloutConfig(g=1, batch_tasks=4, grade_workers=1)
    with pytest.raises(PolicyError, match="garbage"):
        collect(env, BreakingPolicy(), config, store)
    assert sorted(g.task_id for g in GroupStore(tmp_path / "groups.jsonl")) == ids[:4]


def test_collect_resumes_from_the_store_without_duplicates(tmp_path) -> None:
    env = word_env([f"t{i}" for i in range(6)])
    policy = replay(tmp_path, {f"t{i}": ["right", "wrong"] for i in range(6)})
    path = tmp_path / "groups.jsonl"
    first = collect(env, policy, RolloutConfig(g=2), GroupStore(path), env.tasks()[:4])
    assert (first.groups, first.skipped) == (4, 0)
    second = collect(env, policy, RolloutConfig(g=2), GroupStore(path))
    assert (second.groups, second.skipped) == (2, 4)
    ids = [json.loads(line)["task_id"] for line in path.read_text().splitlines()]
    assert sorted(ids) == sorted(t.id for t in env.tasks())
    assert second.pass_rate == 0.5 and second.zero_variance_rate == 0.0


def test_tiny_sft_rollout_on_math_rewards_match_regrading(tmp_path) -> None:
    env = rlvr.load_env("math")
    tasks = select_tasks(env, n_tasks=12, difficulty="easy")
    policy = make_policy("tiny-sft", device="cpu")
    config = RolloutConfig(g=4, batch_tasks=6, sampling=SamplingConfig(seed=0))
    summary = collect(env, policy, config, GroupStore(tmp_path / "g.jsonl"), tasks)
    groups = list(GroupStore(tmp_path / "g.jsonl"))
    assert summary.groups == len(groups) == 12
    assert {g.task_id for g in groups} == {t.id for t in tasks}
    for group in groups:
        fresh = env.grade(env.task(group.task_id), [s.text for s in group.samples])
        assert group.rewards == [v.reward for v in fresh]
        assert all(s.logprobs and len(s.logprobs) == len(s.token_ids or []) for s in group.samples)
    passed = sum(v.passed for g in groups for v in g.verdicts)
    assert 0 < passed < 48, "the warm-started model should solve some, not all, easy tasks"


def test_killed_rollout_resumes_with_every_task_exactly_once(tmp_path) -> None:
    out = tmp_path / "groups.jsonl"
    n_tasks = 60
    argv = [
        sys.executable, "-c", "from rlvr.cli import main; main()", "rollout",
        "--env", "math", "--model", "tiny", "-G", "2", "--n-tasks", str(n_tasks),
        "--batch-tasks", "1", "--max-new-tokens", "8", "--device", "cpu", "--out", str(out),
    ]  # fmt: skip
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while proc.poll() is None and not (out.exists() and out.read_bytes().count(b"\n") >= 3):
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    stored = sum(1 for _ in GroupStore(out))
    assert 3 <= stored < n_tasks, "the run should have been killed part-way"
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["skipped"] == stored and summary["groups"] == n_tasks - stored
    ids = [g.task_id for g in GroupStore(out)]
    assert len(ids) == len(set(ids)) == n_tasks
    expected = select_tasks(rlvr.load_env("math"), n_tasks=n_tasks, split="train")
    assert set(ids) == {t.id for t in expected}


def test_cli_rollout_tiny_on_math(tmp_path) -> None:
    out = tmp_path / "groups.jsonl"
    argv = ["rollout", "--env", "math", "--model", "tiny", "-G", "8", "--n-tasks", "32"]
    result = CliRunner().invoke(app, [*argv, "--device", "cpu", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["groups"] == 32 and summary["samples"] == 256
    groups = list(GroupStore(out))
    assert len(groups) == 32 and all(len(g.samples) == 8 for g in groups)
    assert all(g.advantages is not None and g.stats is not None for g in groups)


def test_select_tasks_filters_and_explains_an_empty_selection(tmp_path) -> None:
    env = rlvr.load_env("math")
    easy = select_tasks(env, difficulty="easy")
    assert len(easy) == 140 and all(t.meta["difficulty"] == "easy" for t in easy)
    assert len(select_tasks(env, n_tasks=5, difficulty="hard")) == 5
    keep = tmp_path / "keep.jsonl"
    keep.write_text(easy[3].model_dump_json() + "\n" + json.dumps({"id": easy[1].id}) + "\n")
    assert [t.id for t in select_tasks(env, task_file=keep)] == [easy[3].id, easy[1].id]
    with pytest.raises(RlvrError, match="no task matches difficulty='impossible'"):
        select_tasks(env, difficulty="impossible")


class BrokenGrader:
    """A grader with a bug of each kind: 'boom' raises, 'daemon' loses its sandbox, 'short'
    returns one verdict too few."""

    name = "broken"

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        if task.id == "boom":
            raise RuntimeError("grader bug")
        if task.id == "daemon":
            raise SandboxError("no Docker daemon answers", "start dockerd")
        if task.id == "unbuilt":
            raise SandboxSetupError("sandbox image 'x' is not built", "rlvr sandbox build x")
        return [Verdict.reject("wrong") for _ in answers][:-1]


def test_environment_grade_contains_every_grader_failure() -> None:
    env = word_env(["boom", "daemon", "short"], grader=BrokenGrader())  # type: ignore[arg-type]
    boom, daemon, short = (env.grade(env.task(i), ["a", "b"]) for i in ("boom", "daemon", "short"))
    assert [v.status for v in boom] == ["grader_error"] * 2
    assert "grader 'broken' raised RuntimeError: grader bug" in boom[0].reason
    assert [v.status for v in daemon] == ["infra_error"] * 2
    assert "no Docker daemon answers" in daemon[0].reason
    assert [v.status for v in short] == ["grader_error"] * 2
    assert "returned 1 verdicts for 2" in short[0].reason
    # `rlvr grade` goes through the same call: a grader bug is a row, not a crash
    rows = grade_items(env, [GradeItem("boom", "a"), GradeItem("short", "b")])
    assert [r["status"] for r in rows] == ["grader_error", "grader_error"]


def test_a_sandbox_that_cannot_start_stops_the_run_with_its_fix() -> None:
    env = word_env(["unbuilt"], grader=BrokenGrader())  # type: ignore[arg-type]
    with pytest.raises(SandboxSetupError, match="is not built") as err:
        env.grade(env.task("unbuilt"), ["a", "b"])
    assert err.value.fix == "rlvr sandbox build x"
