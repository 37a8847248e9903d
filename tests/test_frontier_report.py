"""The frontier job: counts from a constructed store, written files, and the CLI end to end."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import rlvr
from rlvr.cli import app
from rlvr.frontier_report import frontier_from_groups, report_paths, write_frontier
from rlvr.selection import select_tasks
from rlvr.store import GroupStore
from rlvr.types import Sample, ScoredGroup, Task, Verdict


def group(
    task_id: str,
    passes: int,
    fails: int,
    masked: int = 0,
    env: str = "math",
    step: int | None = None,
) -> ScoredGroup:
    verdicts = (
        [Verdict.score(1.0)] * passes
        + [Verdict.reject("wrong")] * fails
        + [Verdict.error("timeout", "slow")] * masked
    )
    samples = [Sample(task_id=task_id, index=i, text="x") for i in range(len(verdicts))]
    return ScoredGroup(env=env, task_id=task_id, samples=samples, verdicts=verdicts, step=step)


@pytest.fixture
def store(tmp_path) -> GroupStore:
    s = GroupStore(tmp_path / "groups.jsonl")
    for g in [
        group("a", 8, 0),  # always pass
        group("b", 0, 8),  # always fail
        group("c", 3, 5),  # kept
        group("d", 0, 0, masked=8),  # unknown: every verdict masked
        group("e", 1, 7),  # below a 0.2 floor
        group("c", 0, 0, masked=2, step=1),  # a second group of c, all masked: no change
        group("a", 0, 8, env="other"),  # another environment's group is ignored
    ]:
        assert s.append(g)
    return s


TASKS = [Task(id=i, prompt=f"task {i}") for i in "abcdef"]  # f was never sampled


def test_counts_and_compute_saved(store) -> None:
    kept, report = frontier_from_groups(store, TASKS, "math", k=8)
    assert [t.id for t in kept] == ["c", "e"]
    assert (report.always_pass, report.always_fail, report.kept) == (1, 1, 2)
    assert (report.unknown, report.dropped_other) == (2, 0)
    assert report.samples_per_epoch_before == 6 * 8 and report.samples_per_epoch_after == 2 * 8
    assert report.samples_saved_per_epoch == 32 and report.samples_saved_on_always == 16
    assert report.saved_fraction == pytest.approx(32 / 48)
    assert report.pass_rates == {"a": 1.0, "b": 0.0, "c": 3 / 8, "e": 1 / 8}
    assert report.estimate_samples == 8 * 5 + 2


def test_band_floor_and_group_size(store) -> None:
    kept, report = frontier_from_groups(store, TASKS, "math", k=8, low=0.2, group_size=16)
    assert [t.id for t in kept] == ["c"]
    assert report.dropped_other == 1 and report.samples_saved_per_epoch == 5 * 16
    kept, _ = frontier_from_groups(store, TASKS, "math", k=8, exclusive=False)
    assert [t.id for t in kept] == ["a", "b", "c", "e"]


def test_written_files(store, tmp_path) -> None:
    kept, report = frontier_from_groups(store, TASKS, "math", k=8)
    paths = write_frontier(kept, report, tmp_path / "out" / "kept.jsonl")
    assert paths == report_paths(tmp_path / "out" / "kept.jsonl")
    lines = paths["tasks"].read_text().splitlines()
    assert [Task.model_validate_json(x).id for x in lines] == ["c", "e"]
    assert json.loads(paths["report"].read_text())["always_fail"] == 1
    assert paths["histogram"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = paths["html"].read_text()
    assert "always pass</th><td>1" in page and "kept.hist.png" in page


def test_cli_frontier_then_rollout_on_the_kept_tasks(tmp_path) -> None:
    env = rlvr.load_env("math")
    tasks = select_tasks(env, n_tasks=4, split="train")  # the commands' default split
    right = {t.id: f"The answer is $\\boxed{{{t.gold}}}$." for t in tasks}
    plan = {tasks[0].id: 4, tasks[1].id: 0, tasks[2].id: 2, tasks[3].id: 1}  # passes of 4
    answers = tmp_path / "answers.jsonl"
    with answers.open("w") as fh:
        for tid, passes in plan.items():
            for i in range(4):
                text = right[tid] if i < passes else "The answer is $\\boxed{-1}$."
                fh.write(json.dumps({"task_id": tid, "completion": text}) + "\n")
    out = tmp_path / "frontier.jsonl"
    model = f"replay:{answers}"
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "frontier",
            "--env",
            "math",
            "--model",
            model,
            "-k",
            "4",
            "--n-tasks",
            "4",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert (summary["always_pass"], summary["always_fail"], summary["kept"]) == (1, 1, 2)
    assert summary["samples_saved_on_always"] == 8
    groups_out = tmp_path / "kept-groups.jsonl"
    result = runner.invoke(
        app,
        ["rollout", "--env", "math", "--model", model, "-G", "4", "--tasks", str(out),
         "--out", str(groups_out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert {g.task_id for g in GroupStore(groups_out)} == {tasks[2].id, tasks[3].id}
