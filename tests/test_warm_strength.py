"""A warm start built to a strength: SFT stops at the first probe check that reaches the target,
the checks leave the SFT trajectory as it was, and the demo's warm start uses the rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from rlvr.demo_page import sft_sentence
from rlvr.registry import load_env
from rlvr.sft import SFTConfig, examples_from_tasks, train_sft
from rlvr.tiny import (
    VALIDATION_PAIRS,
    build_tiny,
    columns_strength_rule,
    tiny_columns_sft_dir,
    validation_pairs,
)
from rlvr.warm_strength import StrengthRule, StrengthStop


@pytest.fixture(autouse=True)
def _one_thread() -> None:
    torch.set_num_threads(1)


def _examples() -> list:
    env = load_env("math-columns")
    return examples_from_tasks(env, env.tasks_in("train")[:64])


def _run(steps: int, stop=None) -> tuple[object, list[float]]:
    model, tokenizer = build_tiny(seed=0)
    result = train_sft(model, tokenizer, _examples(), SFTConfig(steps=steps, batch_size=8), None,
                       stop)  # fmt: skip
    return result, result.losses


def test_a_stop_check_ends_sft_after_the_step_it_answers_true() -> None:
    asked: list[int] = []

    def stop(step: int, model: object) -> bool:
        asked.append(step)
        return step == 3

    result, losses = _run(8, stop)
    _, full = _run(8)
    assert asked == [1, 2, 3]
    assert result.steps == 3 and result.stopped_early
    assert losses == full[:3]  # the steps before the stop are those of the full run


def test_a_check_that_samples_leaves_the_trajectory_unchanged_and_records_each_check() -> None:
    """The probe samples with its own seed (which reseeds torch) in eval mode; SFT after it
    must be the run without checks, loss for loss."""
    env = load_env("math-columns")
    probe = env.tasks_in("train")[64:72]
    _, tokenizer = build_tiny(seed=0)
    rule = StrengthRule(target=1.0, start=2, every=3, samples=2, max_new_tokens=8)
    stop = StrengthStop(rule, env, probe, tokenizer)
    result, losses = _run(7, stop)
    _, plain = _run(7)
    assert losses == plain
    assert not result.stopped_early and result.steps == 7
    assert [c["step"] for c in stop.checks] == [2, 5]
    assert all(0.0 <= c["pass_at_1"] <= 1.0 for c in stop.checks)
    assert stop.record()["probe_tasks"] == 8 and stop.record()["reached"] is False


def test_sft_stops_at_the_first_check_whose_probe_reaches_the_target() -> None:
    """tiny trained on 8 pairs and probed on the same 8 learns to answer some: SFT ends at the
    first check at or over the target, and every earlier check was under it."""
    env = load_env("math-columns")
    tasks = env.tasks_in("train")[:8]
    model, tokenizer = build_tiny(seed=0)
    rule = StrengthRule(target=0.25, start=30, every=15, samples=4)
    stop = StrengthStop(rule, env, tasks, tokenizer)
    config = SFTConfig(steps=300, batch_size=8, lr=3e-3, warmup_steps=5)
    result = train_sft(model, tokenizer, examples_from_tasks(env, tasks), config, None, stop)
    assert result.stopped_early and result.steps < 300
    assert result.steps == stop.checks[-1]["step"]
    assert stop.checks[-1]["pass_at_1"] >= 0.25
    assert all(c["pass_at_1"] < 0.25 for c in stop.checks[:-1])
    assert stop.record()["reached"] is True
    sentence = sft_sentence({**result.model_dump(), "strength": stop.record()})
    assert f"stopped at step {result.steps}, the first check to reach 0.25" in sentence
    assert f"{stop.checks[-1]['pass_at_1']:.3f} at step {result.steps}." in sentence


def test_the_demos_warm_start_leaves_the_validation_pairs_out_and_carries_the_rule(
    tmp_path: Path,
) -> None:
    """tiny-columns-sft is built to a strength on the 128 validation pairs; the agent stage's
    base (to_strength=False) trains on every train pair (one step each: keys and data)."""
    ids = {t.id for t in validation_pairs()}
    assert len(ids) == VALIDATION_PAIRS
    strength = tiny_columns_sft_dir(tmp_path, steps=1)
    fixed = tiny_columns_sft_dir(tmp_path, steps=1, to_strength=False)
    assert strength != fixed
    record = json.loads((strength / "sft.json").read_text())
    assert record["n_examples"] == 917 - VALIDATION_PAIRS
    assert record["strength"]["rule"] == {**columns_strength_rule(), "max_new_tokens": None}
    assert record["strength"]["probe_tasks"] == VALIDATION_PAIRS
    assert record["strength"]["checks"] == []  # one step: before the rule's first check
    assert json.loads((fixed / "sft.json").read_text())["n_examples"] == 917
    assert "strength" not in json.loads((fixed / "sft.json").read_text())
    assert tiny_columns_sft_dir(tmp_path, steps=1) == strength  # cached
    assert "trained all 1 steps without reaching 0.8" in sft_sentence(record)
    assert sft_sentence(json.loads((fixed / "sft.json").read_text())) == (
        "The warm start trained 1 SFT steps."
    )
