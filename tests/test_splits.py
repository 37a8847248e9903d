"""Held-out splits: deterministic, disjoint and stable on every registered environment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rlvr
from rlvr.cli import app
from rlvr.discovery import discover
from rlvr.errors import ManifestError, RlvrError
from rlvr.learners.common import train_tasks
from rlvr.learners.config import LearnerConfig
from rlvr.registry import env_from_manifest, load_env
from rlvr.selection import select_tasks
from rlvr.splits import SplitSpec, filter_split, hash_unit, side_of, split_key, stable_subset
from rlvr.types import Task

ENV_NAMES = sorted(discover())


@pytest.mark.parametrize("name", ENV_NAMES)
def test_every_registered_env_splits_deterministically_and_disjointly(name: str) -> None:
    env = load_env(name)
    tasks = env.tasks()
    train = {t.id for t in filter_split(tasks, env.split, env.name, "train")}
    test = {t.id for t in filter_split(tasks, env.split, env.name, "test")}
    assert not train & test
    assert train | test == {t.id for t in tasks}
    again = load_env(name)  # a fresh load, nothing cached
    assert {t.id for t in filter_split(again.tasks(), again.split, name, "test")} == test
    # each task's side depends on that task alone: dropping every other task moves none
    half = tasks[::2]
    assert {t.id for t in filter_split(half, env.split, name, "test")} == test & {
        t.id for t in half
    }


def test_bundled_splits_hold_out_tasks_and_humaneval_is_evaluation_only() -> None:
    math = load_env("math")
    assert 0.2 < len(math.tasks_in("test")) / len(math.tasks()) < 0.4
    assert len(math.tasks_in("train")) + len(math.tasks_in("test")) == len(math.tasks())
    humaneval = load_env("humaneval")
    assert len(humaneval.tasks_in("test")) == len(humaneval.tasks())
    with pytest.raises(RlvrError, match="evaluation-only"):
        humaneval.tasks_in("train")


@pytest.mark.parametrize("name", [n for n in ENV_NAMES if n.startswith("humaneval")])
def test_every_humaneval_stack_is_evaluation_only(name: str) -> None:
    """HumanEval in any stack is a benchmark: training on it would contaminate the score."""
    split = load_env(name).split
    assert split.test_fraction == 1.0 and split.test_ids is None, (
        f"envs/{name}/env.toml: add `[split]` with `test_fraction = 1.0` (every task held out)"
    )


def test_hash_is_uniform_enough_and_fixed() -> None:
    values = [hash_unit(f"task-{i}") for i in range(4000)]
    assert 0.18 < sum(v < 0.2 for v in values) / len(values) < 0.22
    assert hash_unit("math/add1-001") == hash_unit("math/add1-001")
    assert hash_unit("a", salt="x") != hash_unit("a")


def test_one_problem_lands_on_the_same_side_in_every_stack() -> None:
    spec = SplitSpec(test_fraction=0.5)
    sides = set()
    for stack in ("synth-python", "synth-go", "synth-rust"):
        task = Task(id=f"{stack}/arith-0007", prompt="p")
        assert split_key(task, stack) == "arith-0007"
        sides.add(side_of(task, spec, stack))
    assert len(sides) == 1
    keyed = Task(id="x", prompt="p", meta={"split_key": "arith-0007"})
    assert split_key(keyed, "anything") == "arith-0007"


def test_explicit_ids_and_task_meta_override_the_hash() -> None:
    tasks = [Task(id=f"t{i}", prompt="p") for i in range(10)]
    explicit = SplitSpec(test_ids=["t3", "t7"])
    assert [t.id for t in filter_split(tasks, explicit, "e", "test")] == ["t3", "t7"]
    assert len(filter_split(tasks, explicit, "e", "train")) == 8
    own = [Task(id="a", prompt="p", meta={"split": "test"}), Task(id="b", prompt="p")]
    assert [t.id for t in filter_split(own, SplitSpec(test_fraction=0.0), "e", "test")] == ["a"]
    assert filter_split(tasks, SplitSpec(test_fraction=1.0), "e", "train") == []
    with pytest.raises(RlvrError, match="unknown split 'dev'"):
        filter_split(tasks, explicit, "e", "dev")


def test_stable_subset_keeps_order_and_members() -> None:
    tasks = [Task(id=f"t{i}", prompt="p") for i in range(50)]
    sub = stable_subset(tasks, 10)
    assert len(sub) == 10 and sub == [t for t in tasks if t in sub]
    grown = stable_subset([*tasks, *(Task(id=f"u{i}", prompt="p") for i in range(3))], 10)
    assert len(set(t.id for t in sub) & set(t.id for t in grown)) >= 7


def write_env(folder: Path, split_table: str) -> Path:
    folder.mkdir(parents=True)
    tasks = [{"id": f"t{i}", "prompt": f"What is {i}?", "gold": str(i)} for i in range(6)]
    (folder / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    (folder / "env.toml").write_text(
        f'name = "tiny-split"\n[tasks]\npath = "tasks.jsonl"\n[grader]\nkind = "math"\n'
        f"{split_table}"
    )
    return folder


def test_manifest_split_table_is_read_and_checked(tmp_path: Path) -> None:
    env = env_from_manifest(write_env(tmp_path / "a", '[split]\ntest_ids = ["t1", "t4"]\n'))
    assert [t.id for t in env.tasks_in("test")] == ["t1", "t4"]
    with pytest.raises(ManifestError, match=r"split\.test_fraction"):
        env_from_manifest(write_env(tmp_path / "b", "[split]\ntest_fraction = 2\n"))
    typo = env_from_manifest(write_env(tmp_path / "c", '[split]\ntest_ids = ["t9"]\n'))
    with pytest.raises(RlvrError, match="'t9'"):
        typo.tasks_in("test")


def test_selection_and_training_default_to_the_train_split() -> None:
    env = rlvr.load_env("math")
    test_ids = {t.id for t in env.tasks_in("test")}
    assert not {t.id for t in select_tasks(env, split="train")} & test_ids
    assert {t.id for t in select_tasks(env, split="test")} == test_ids
    cfg = LearnerConfig(env="math", model="tiny")
    assert cfg.split == "train"
    assert not {t.id for t in train_tasks(env, cfg)} & test_ids
    everything = LearnerConfig(env="math", model="tiny", split="all")
    assert len(train_tasks(env, everything)) == len(env.tasks())


def test_cli_rollout_and_envs_show_use_the_split(tmp_path: Path) -> None:
    env = rlvr.load_env("math")
    test_ids = [t.id for t in env.tasks_in("test")][:3]
    replay = tmp_path / "answers.jsonl"
    replay.write_text(
        "".join(
            json.dumps({"task_id": t.id, "completion": "\\boxed{1}"}) + "\n" for t in env.tasks()
        )
    )
    out = tmp_path / "groups.jsonl"
    argv = ["rollout", "--env", "math", "--model", f"replay:{replay}", "-G", "1", "--out", str(out)]
    result = CliRunner().invoke(app, [*argv, "--split", "test", "--n-tasks", "3"])
    assert result.exit_code == 0, result.output
    stored = sorted(json.loads(x)["task_id"] for x in out.read_text().splitlines())
    assert stored == sorted(test_ids)  # groups are stored as their grading finishes
    bad = CliRunner().invoke(app, [*argv, "--split", "dev"])
    assert bad.exit_code == 2 and "unknown split 'dev'" in " ".join(bad.output.split())
    show = CliRunner().invoke(app, ["envs", "show", "math", "--json"])
    split = json.loads(show.stdout)["split"]
    assert split["test"] == len(env.tasks_in("test")) and split["test_fraction"] == 0.3


def test_cli_rollout_refuses_to_resume_an_out_under_other_settings(tmp_path: Path) -> None:
    """Resuming with another model, G or environment would mix two runs' groups in one file
    with nothing to tell them apart."""
    env = rlvr.load_env("math")
    replay = tmp_path / "answers.jsonl"
    replay.write_text("".join(json.dumps({"task_id": t.id, "completion": "\\boxed{1}"}) + "\n"
                              for t in env.tasks()))  # fmt: skip
    out = tmp_path / "groups.jsonl"
    argv = ["rollout", "--env", "math", "--model", f"replay:{replay}", "--n-tasks", "2",
            "--out", str(out)]  # fmt: skip
    assert CliRunner().invoke(app, [*argv, "-G", "1"]).exit_code == 0
    again = CliRunner().invoke(app, [*argv, "-G", "1", "--n-tasks", "3"])
    assert again.exit_code == 0 and json.loads(again.stdout.splitlines()[-1])["skipped"] == 2
    other = CliRunner().invoke(app, [*argv, "-G", "2"])
    said = " ".join(f"{other.output} {other.exception}".split())
    assert other.exit_code != 0 and "group_size 1 -> 2" in said and "new --out" in said
    assert len(out.read_text().splitlines()) == 3
    copy = tmp_path / "copy.jsonl"  # no settings beside it: its groups' env and G are checked
    copy.write_text(out.read_text())
    argv[-1] = str(copy)
    refused = CliRunner().invoke(app, [*argv, "-G", "2"])
    assert refused.exit_code != 0 and "('math', 1) -> ('math', 2)" in str(refused.exception)
    out.unlink()  # settings left by a file that is gone bind nothing
    argv[-1] = str(out)
    assert CliRunner().invoke(app, [*argv, "-G", "2"]).exit_code == 0


def test_a_tasks_file_of_the_other_split_names_the_split(tmp_path: Path) -> None:
    env = rlvr.load_env("synth-python")
    held = env.tasks_in("test")[:3]
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(t.model_dump_json() + "\n" for t in held))
    with pytest.raises(RlvrError, match="all in the test split.*--split test"):
        select_tasks(env, task_file=path, split="train")
    assert [t.id for t in select_tasks(env, task_file=path, split="test")] == [t.id for t in held]
