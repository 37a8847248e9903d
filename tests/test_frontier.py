"""Frontier filtering: pass rates per task, the band filter and dynamic sampling."""

from __future__ import annotations

import pytest

from rlvr.frontier import (
    PassCount,
    SamplingCounts,
    band_filter,
    keep_informative,
    pass_counts,
    pass_rates,
)
from rlvr.types import Sample, ScoredGroup, Verdict


def group(task_id: str, rewards: list[float | None], env: str = "math") -> ScoredGroup:
    """A group with one verdict per reward; None becomes a timeout (masked)."""
    verdicts = [
        Verdict.error("timeout", "deadline") if r is None else Verdict.score(r) for r in rewards
    ]
    samples = [Sample(task_id=task_id, index=i, text=str(i)) for i in range(len(rewards))]
    return ScoredGroup(env=env, task_id=task_id, samples=samples, verdicts=verdicts)


def test_seed000_always_pass_and_always_fail_tasks_are_dropped() -> None:
    groups = [
        group("solved", [1, 1, 1, 1, 1, 1, 1, 1]),
        group("hopeless", [0, 0, 0, 0, 0, 0, 0, 0]),
        group("frontier", [1, 0, 0, 1, 1, 0, 0, 0]),
    ]
    rates = pass_rates(groups)
    assert rates == {
        ("math", "solved"): 1.0,
        ("math", "hopeless"): 0.0,
        ("math", "frontier"): 0.375,
    }
    assert band_filter(rates) == {("math", "frontier"): 0.375}


def test_pass_rate_pools_groups_of_one_task_and_skips_masked_verdicts() -> None:
    counts = pass_counts([group("t", [1, 0, None]), group("t", [1, None, None, 0])])
    assert counts == {("math", "t"): PassCount(passed=2, scored=4)}
    assert pass_rates([group("t", [1, 0, None])]) == {("math", "t"): 0.5}


def test_task_with_nothing_scored_has_no_pass_rate() -> None:
    assert pass_rates([group("t", [None, None])]) == {}


def test_same_task_id_in_two_envs_is_two_tasks() -> None:
    rates = pass_rates([group("t", [1, 1], env="a"), group("t", [0, 0], env="b")])
    assert rates == {("a", "t"): 1.0, ("b", "t"): 0.0}


def test_band_filter_exclusive_and_inclusive_edges() -> None:
    rates = {"a": 0.0, "b": 0.2, "c": 0.5, "d": 0.8, "e": 1.0}
    assert band_filter(rates) == {"b": 0.2, "c": 0.5, "d": 0.8}
    assert band_filter(rates, low=0.2, high=0.8) == {"c": 0.5}
    assert band_filter(rates, low=0.2, high=0.8, exclusive=False) == {"b": 0.2, "c": 0.5, "d": 0.8}
    assert band_filter(rates, exclusive=False) == rates


def test_band_filter_rejects_inverted_band() -> None:
    with pytest.raises(ValueError, match="got low=0.9, high=0.1"):
        band_filter({"a": 0.5}, low=0.9, high=0.1)


def test_keep_informative_drops_zero_variance_groups_and_counts_them() -> None:
    groups = [
        group("mixed", [1, 0, 1, 0]),
        group("all_pass", [1, 1, 1, 1]),
        group("all_fail", [0, 0, 0, 0]),
        group("one_scored", [1, None, None, None]),
        group("masked_mixed", [1, None, 0, None]),
        group("continuous_flat", [0.3, 0.3 + 1e-9, 0.3]),
    ]
    kept, counts = keep_informative(groups)
    assert [g.task_id for g in kept] == ["mixed", "masked_mixed"]
    assert counts == SamplingCounts(total=6, kept=2, zero_variance=3, too_few_scored=1)
    assert counts.zero_variance_rate == 0.5


def test_keep_informative_masked_sample_does_not_count_as_failure() -> None:
    # As zeros, [1, masked, masked] would look like [1, 0, 0] and be kept.
    kept, counts = keep_informative([group("t", [1, 1, None])])
    assert kept == []
    assert counts.zero_variance == 1


def test_keep_informative_tolerance_is_adjustable() -> None:
    kept, _ = keep_informative([group("t", [0.3, 0.3 + 1e-9])], atol=0.0)
    assert len(kept) == 1


def test_keep_informative_on_empty_batch() -> None:
    kept, counts = keep_informative([])
    assert kept == [] and counts.total == 0 and counts.zero_variance_rate == 0.0
