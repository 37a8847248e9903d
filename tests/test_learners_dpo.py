"""DPO on preference pairs from scored groups: the loss falls, resume, pair selection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from learner_env import FAST, digit_env

from rlvr.errors import RlvrError
from rlvr.learners.config import DPOConfig
from rlvr.learners.dpo import pair_indices, pair_samples, train
from rlvr.store import GroupStore
from rlvr.types import Sample, ScoredGroup, Verdict

SETTINGS = {k: v for k, v in FAST.items() if k not in ("prompts_per_step",)}


def rows(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]


def config(**kw: object) -> DPOConfig:
    return DPOConfig.model_validate({**SETTINGS, "algo": "dpo", "beta": 0.1, **kw})


def test_dpo_loss_falls_on_a_fixed_pair_set(tmp_path: Path) -> None:
    sampled = train(config(steps=1), tmp_path / "sample", env=digit_env())
    groups = tmp_path / "groups.jsonl"
    groups.write_text((sampled / "groups.jsonl").read_text())
    run = train(
        config(steps=16, pairs_per_step=4, groups_file=str(groups)),
        tmp_path / "dpo",
        env=digit_env(),
    )
    got = rows(run)
    assert got[0]["loss"] == pytest.approx(0.6931, abs=1e-3)  # policy == reference at step 1
    first, last = sum(r["loss"] for r in got[:4]) / 4, sum(r["loss"] for r in got[-4:]) / 4
    assert last < first - 0.05
    assert got[-1]["margin"] > 0 and got[-1]["reward_accuracy"] > 0.5


def test_dpo_resume_continues_and_reuses_the_run_groups(tmp_path: Path) -> None:
    run = tmp_path / "run"
    train(config(steps=2, save_every=1), run, env=digit_env())
    before = (run / "groups.jsonl").read_text()
    train(config(steps=3, save_every=1), run, env=digit_env())
    assert [r["step"] for r in rows(run)] == [1, 2, 3]
    assert (run / "groups.jsonl").read_text() == before  # pairs were not resampled


def group(rewards: list[float | None]) -> ScoredGroup:
    samples = [Sample(task_id="t", index=i, text=str(i)) for i in range(len(rewards))]
    verdicts = [
        Verdict.score(r) if r is not None else Verdict.error("timeout", "slow") for r in rewards
    ]
    return ScoredGroup(env="e", task_id="t", samples=samples, verdicts=verdicts)


def test_pairs_take_best_against_worst_scored_answer_above_the_margin() -> None:
    pairs = pair_samples([group([0.2, None, 1.0, 0.0]), group([1.0, 1.0]), group([0.5, 0.3])], 0.3)
    assert [(c.index, r.index) for c, r in pairs] == [(2, 3)]


def test_pair_indices_cover_every_pair_once_per_pass_and_depend_only_on_step() -> None:
    first_pass = [i for s in (1, 2, 3) for i in pair_indices(12, 4, s, seed=0)]
    assert sorted(first_pass) == list(range(12))
    assert pair_indices(12, 4, 5, seed=0) == pair_indices(12, 4, 5, seed=0)
    assert pair_indices(12, 4, 4, seed=0) != pair_indices(12, 4, 1, seed=0)


def test_no_pairs_is_an_error_with_a_fix(tmp_path: Path) -> None:
    store = GroupStore(tmp_path / "g.jsonl")
    store.append(group([1.0, 1.0]).model_copy(update={"env": "digits", "task_id": "t0"}))
    with pytest.raises(RlvrError, match="lower pair_margin"):
        train(
            config(steps=1, groups_file=str(tmp_path / "g.jsonl")), tmp_path / "r", env=digit_env()
        )
