from pathlib import Path

import pytest

from rlvr.errors import StoreError
from rlvr.store import GroupStore
from rlvr.types import Sample, ScoredGroup, Verdict


def group(task_id: str, step: int | None = None) -> ScoredGroup:
    return ScoredGroup(
        env="math",
        task_id=task_id,
        samples=[Sample(task_id=task_id, index=0, text="1")],
        verdicts=[Verdict.score(1.0)],
        step=step,
    )


def test_append_and_read_back(tmp_path):
    store = GroupStore(tmp_path / "g.jsonl")
    assert store.append(group("a")) and store.append(group("b"))
    assert [g.task_id for g in GroupStore(tmp_path / "g.jsonl")] == ["a", "b"]


def test_never_writes_a_group_twice_even_after_reopen(tmp_path):
    path = tmp_path / "g.jsonl"
    GroupStore(path).append(group("a"))
    reopened = GroupStore(path)
    assert not reopened.append(group("a"))
    assert reopened.append(group("a", step=1))  # same task at another step is a new group
    assert len(path.read_text().splitlines()) == 2
    assert reopened.done_task_ids("math") == {"a"}


def test_torn_last_line_is_ignored_and_cut_before_appending(tmp_path):
    path = tmp_path / "g.jsonl"
    store = GroupStore(path)
    store.append(group("a"))
    with path.open("a") as fh:
        fh.write(group("b").model_dump_json()[:40])  # a crash mid-write
    assert [g.task_id for g in GroupStore(path)] == ["a"]
    resumed = GroupStore(path)
    assert resumed.append(group("b"))
    assert [g.task_id for g in GroupStore(path)] == ["a", "b"]


def test_corrupt_middle_line_is_a_clear_error(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"not": "a group"}\n' + group("a").model_dump_json() + "\n")
    with pytest.raises(StoreError, match="g.jsonl:1: not a scored group.*remove line 1 of g"):
        list(GroupStore(path))


def test_a_lone_surrogate_is_stored_as_a_replacement_character(tmp_path):
    """A replay file's or server's text can hold one (JSON's `\\ud800`); once it crashed the
    whole rollout at its first write, losing every other group."""
    g = group("a")
    g.samples[0].text = "rm -rf x\ud800y"
    store = GroupStore(tmp_path / "g.jsonl")
    assert store.append(g) and store.append(group("b"))
    [back, other] = GroupStore(tmp_path / "g.jsonl")
    assert back.samples[0].text == "rm -rf x\ufffdy" and other.task_id == "b"


def test_a_rollout_resumed_from_another_env_path_is_refused(tmp_path: Path) -> None:
    """The same environment name found in another folder may be another environment: its
    groups must not join the stored ones."""
    from rlvr.cli.rollout import same_run
    from rlvr.errors import RlvrError

    out = tmp_path / "groups.jsonl"
    settings = {"env": "mine", "model": "tiny", "group_size": 4, "env_path": [str(tmp_path / "a")]}
    same_run(out, settings)
    out.write_text("{}\n")  # the run has begun
    same_run(out, settings)  # the same settings resume
    with pytest.raises(RlvrError, match="env_path"):
        same_run(out, {**settings, "env_path": [str(tmp_path / "b")]})
