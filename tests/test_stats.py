"""Group statistics: seed numbers, pass@k by hand, masking and percentiles."""

from __future__ import annotations

import math

import pytest

from rlvr.stats import (
    group_stats,
    is_zero_variance,
    latency_summary,
    pass_at_k,
    percentile,
    scored_group_stats,
)
from rlvr.types import Sample, ScoredGroup, Verdict


def test_seed000_group_mean_and_population_std() -> None:
    stats = group_stats([1, 0, 0, 1, 1, 0, 0, 0])
    assert stats.reward_mean == 0.375
    assert round(stats.reward_std, 3) == 0.484
    assert stats.reward_std == pytest.approx(math.sqrt(0.375 * 0.625))
    assert stats.pass_rate == 0.375
    assert stats.zero_variance is False
    assert (stats.n, stats.n_scored, stats.n_masked) == (8, 8, 0)


def test_seed004_one_zero_one_zero_has_mean_and_std_one_half() -> None:
    stats = group_stats([1, 0, 1, 0])
    assert (stats.reward_mean, stats.reward_std) == (0.5, 0.5)


def test_all_pass_and_all_fail_groups_are_zero_variance() -> None:
    assert group_stats([1, 1, 1, 1]).zero_variance is True
    assert group_stats([0, 0, 0, 0]).zero_variance is True
    assert group_stats([0.5, 0.5 + 1e-9]).zero_variance is True
    assert group_stats([0.5, 0.5 + 1e-9], atol=0.0).zero_variance is False


def test_masked_rewards_are_counted_not_averaged_as_zero() -> None:
    stats = group_stats([1.0, 0.0, None, 1.0])
    assert (stats.n, stats.n_scored, stats.n_masked) == (4, 3, 1)
    assert stats.reward_mean == pytest.approx(2 / 3)
    assert stats.pass_rate == pytest.approx(2 / 3)
    assert stats.extra["pass@3"] == 1.0


def test_group_with_nothing_scored_has_no_mean_and_no_signal() -> None:
    stats = group_stats([None, None])
    assert stats.reward_mean is None and stats.reward_std is None and stats.pass_rate is None
    assert stats.zero_variance is True
    assert "pass@1" not in stats.extra


def test_pass_rate_uses_threshold_or_given_flags() -> None:
    assert group_stats([0.9, 0.4, 1.0]).pass_rate == pytest.approx(1 / 3)
    assert group_stats([0.9, 0.4, 1.0], pass_threshold=0.5).pass_rate == pytest.approx(2 / 3)
    assert group_stats([0.9, 0.4, 1.0], passed=[True, False, False]).pass_rate == pytest.approx(
        1 / 3
    )


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (8, 3, 1, 3 / 8),
        (8, 3, 2, 1 - 10 / 28),  # 1 - C(5,2)/C(8,2)
        (4, 1, 2, 0.5),  # 1 - C(3,2)/C(4,2) = 1 - 3/6
        (10, 2, 3, 1 - 56 / 120),  # 1 - C(8,3)/C(10,3)
        (5, 0, 3, 0.0),
        (5, 5, 1, 1.0),
        (5, 3, 3, 1.0),  # fewer than k failures: some draw of k must contain a pass
    ],
)
def test_pass_at_k_hand_numbers(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def test_pass_at_k_product_form_equals_binomial_form() -> None:
    for n in range(1, 13):
        for c in range(n + 1):
            for k in range(1, n + 1):
                exact = 1 - math.comb(n - c, k) / math.comb(n, k)
                assert pass_at_k(n, c, k) == pytest.approx(exact, abs=1e-12)


def test_pass_at_k_stays_finite_for_large_n() -> None:
    value = pass_at_k(2000, 7, 100)
    assert 0.0 < value < 1.0
    assert math.isfinite(value)


def test_pass_at_k_rejects_impossible_arguments() -> None:
    with pytest.raises(ValueError, match="k must be between 1 and n=4, got k=5"):
        pass_at_k(4, 1, 5)
    with pytest.raises(ValueError, match="c must be between 0 and n=4, got c=6"):
        pass_at_k(4, 6, 1)


def test_default_pass_at_k_keys_are_powers_of_two_and_group_size() -> None:
    stats = group_stats([1, 0, 0, 0, 0, 0])
    assert sorted(stats.extra) == ["pass@1", "pass@2", "pass@4", "pass@6"]
    assert stats.extra["pass@2"] == pytest.approx(1 - math.comb(5, 2) / math.comb(6, 2))
    assert group_stats([1, 0], ks=[1, 5]).extra == {"pass@1": 0.5}


def test_percentile_matches_linear_interpolation_by_hand() -> None:
    values = [4.0, 1.0, 3.0, 2.0]
    assert percentile(values, 50) == 2.5
    assert percentile(values, 95) == pytest.approx(3.85)  # position 2.85: 3 + 0.85 * (4 - 3)
    assert percentile(values, 0) == 1.0
    assert percentile(values, 100) == 4.0
    assert percentile([7.0], 95) == 7.0


def test_percentile_rejects_empty_and_out_of_range() -> None:
    with pytest.raises(ValueError, match="no values"):
        percentile([], 50)
    with pytest.raises(ValueError, match="got 101"):
        percentile([1.0], 101)


def test_latency_summary_skips_unknown_timings() -> None:
    summary = latency_summary([0.1, None, 0.3, 0.2])
    assert summary["latency_p50"] == pytest.approx(0.2)
    assert summary["latency_p95"] == pytest.approx(0.29)
    assert summary["latency_max"] == 0.3
    assert latency_summary([None]) == {}


def test_length_truncation_and_latency_figures_land_in_extra() -> None:
    stats = group_stats(
        [1, 0, None, 0],
        lengths=[10, 20, 30, 40],
        truncated=[False, False, True, True],
        latencies=[0.1, 0.2, None, 0.4],
    )
    assert stats.extra["len_mean"] == 25.0
    assert stats.extra["len_max"] == 40.0
    assert stats.extra["trunc_rate"] == 0.5
    assert stats.extra["latency_p50"] == pytest.approx(0.2)


def test_misaligned_lists_are_rejected() -> None:
    with pytest.raises(ValueError, match="lengths has 2 entries for 3 rewards"):
        group_stats([1, 0, 1], lengths=[1, 2])


def test_is_zero_variance_on_lists() -> None:
    assert is_zero_variance([1.0, None, 1.0]) is True
    assert is_zero_variance([1.0, None, 0.0]) is False
    assert is_zero_variance([1.0]) is True


def test_scored_group_stats_reads_samples_and_verdicts() -> None:
    samples = [
        Sample(task_id="t", index=0, text="abc", token_ids=[1, 2], finish_reason="stop"),
        Sample(task_id="t", index=1, text="abcdef", finish_reason="length"),
        Sample(task_id="t", index=2, text="x", token_ids=[5], finish_reason="stop"),
    ]
    verdicts = [
        Verdict.score(1.0, duration_s=0.5),
        Verdict.reject("wrong", duration_s=1.5),
        Verdict.error("timeout", "deadline"),
    ]
    stats = scored_group_stats(
        ScoredGroup(env="e", task_id="t", samples=samples, verdicts=verdicts)
    )
    assert (stats.n_scored, stats.n_masked) == (2, 1)
    assert stats.pass_rate == 0.5
    assert stats.extra["len_max"] == 6.0  # characters when no token ids
    assert stats.extra["len_mean"] == pytest.approx((2 + 6 + 1) / 3)
    assert stats.extra["trunc_rate"] == pytest.approx(1 / 3)
    assert stats.extra["latency_max"] == 1.5
    assert stats.extra["n_timeout"] == 1.0
    assert stats.extra["n_grader_error"] == 0.0
