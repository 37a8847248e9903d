"""Group statistics over plain Python lists: what a scored group looks like, for logs and filters.

No torch here, so rollout, store and report code can summarise groups without the training
extra. Rewards are `float | None`; None marks a masked verdict (grader error, timeout,
infrastructure failure) and is counted, never averaged in as a zero. The standard deviation is
the population one (divide by the scored count), as in the advantages.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rlvr.types import GroupStats, ScoredGroup


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from n samples with c correct (Chen et al. 2021): 1 - C(n-c,k) / C(n,k).

    Computed as 1 - prod_{i=n-c+1}^{n} (1 - k/i), which never forms the huge binomials.

    >>> pass_at_k(8, 3, 2)  # 1 - C(5,2)/C(8,2) = 1 - 10/28
    0.6428571428571428
    """
    if not 0 <= c <= n:
        raise ValueError(f"pass_at_k: c must be between 0 and n={n}, got c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"pass_at_k: k must be between 1 and n={n}, got k={k}; sample more")
    if n - c < k:
        return 1.0
    prod = 1.0
    for i in range(n - c + 1, n + 1):
        prod *= 1.0 - k / i
    return 1.0 - prod


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation between order statistics.

    Matches numpy's default ("linear") method. Raises on an empty sequence.
    """
    if not values:
        raise ValueError("percentile: no values given; check that the group has timings")
    if not 0.0 <= q <= 100.0:
        raise ValueError(f"percentile: q must be in [0, 100], got {q}")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def latency_summary(latencies: Sequence[float | None]) -> dict[str, float]:
    """p50, p95 and max of the known latencies (None skipped); empty when none is known."""
    known = [x for x in latencies if x is not None]
    if not known:
        return {}
    return {
        "latency_p50": percentile(known, 50),
        "latency_p95": percentile(known, 95),
        "latency_max": max(known),
    }


def is_zero_variance(rewards: Sequence[float | None], atol: float = 1e-6) -> bool:
    """True when the scored rewards span at most `atol`, or fewer than two are scored.

    Such a group has no relative signal: every group-relative advantage is zero.
    """
    scored = [r for r in rewards if r is not None]
    return len(scored) < 2 or max(scored) - min(scored) <= atol


def _default_ks(n: int) -> list[int]:
    """Powers of two up to n, plus n itself: pass@1, pass@2, pass@4, ..., pass@n."""
    ks, k = [], 1
    while k <= n:
        ks.append(k)
        k *= 2
    if n and ks[-1] != n:
        ks.append(n)
    return ks


def _check_length(name: str, values: Sequence[object] | None, n: int) -> None:
    if values is not None and len(values) != n:
        raise ValueError(
            f"group_stats: {name} has {len(values)} entries for {n} rewards; give one per sample"
        )


def group_stats(
    rewards: Sequence[float | None],
    lengths: Sequence[int] | None = None,
    truncated: Sequence[bool] | None = None,
    latencies: Sequence[float | None] | None = None,
    passed: Sequence[bool] | None = None,
    ks: Sequence[int] | None = None,
    pass_threshold: float = 1.0,
    atol: float = 1e-6,
) -> GroupStats:
    """Summarise one group. Every sequence has one entry per sample, aligned with `rewards`.

    `passed` defaults to reward >= `pass_threshold` on scored samples (a masked sample never
    passes and is left out of the pass rate). pass@k uses the scored samples only, for each k in
    `ks` (default: 1, 2, 4, ... and the scored count) that does not exceed the scored count.
    `extra` holds pass@k, len_mean, len_max, trunc_rate and latency p50/p95/max when given.
    """
    n = len(rewards)
    for name, values in (
        ("lengths", lengths),
        ("truncated", truncated),
        ("latencies", latencies),
        ("passed", passed),
    ):
        _check_length(name, values, n)
    scored_idx = [i for i, r in enumerate(rewards) if r is not None]
    scored = [float(rewards[i]) for i in scored_idx]  # type: ignore[arg-type]
    k_scored = len(scored)
    extra: dict[str, float] = {}
    mean = std = rate = None
    if k_scored:
        mean = sum(scored) / k_scored
        std = math.sqrt(sum((r - mean) ** 2 for r in scored) / k_scored)
        if passed is not None:
            c = sum(bool(passed[i]) for i in scored_idx)
        else:
            c = sum(r >= pass_threshold for r in scored)
        rate = c / k_scored
        for k in ks if ks is not None else _default_ks(k_scored):
            if 1 <= k <= k_scored:
                extra[f"pass@{k}"] = pass_at_k(k_scored, c, k)
    if lengths:
        extra["len_mean"] = sum(lengths) / n
        extra["len_max"] = float(max(lengths))
    if truncated:
        extra["trunc_rate"] = sum(bool(x) for x in truncated) / n
    if latencies is not None:
        extra.update(latency_summary(latencies))
    return GroupStats(
        n=n,
        n_scored=k_scored,
        n_masked=n - k_scored,
        reward_mean=mean,
        reward_std=std,
        pass_rate=rate,
        zero_variance=is_zero_variance(scored, atol),
        extra=extra,
    )


def scored_group_stats(
    group: ScoredGroup, ks: Sequence[int] | None = None, atol: float = 1e-6
) -> GroupStats:
    """`group_stats` filled from a ScoredGroup's samples and verdicts.

    Lengths are token counts when the sample has token ids, else characters; a sample is
    truncated when generation stopped at the length limit; latency is the grading time. Masked
    verdicts are also counted by status in `extra` (n_grader_error, n_timeout, n_infra_error).
    """
    samples, verdicts = group.samples, group.verdicts
    lengths = [len(s.token_ids) if s.token_ids is not None else len(s.text) for s in samples]
    stats = group_stats(
        group.rewards,
        lengths=lengths,
        truncated=[s.finish_reason == "length" for s in samples],
        latencies=[v.duration_s for v in verdicts],
        passed=[v.passed for v in verdicts],
        ks=ks,
        atol=atol,
    )
    for status in ("grader_error", "timeout", "infra_error"):
        stats.extra[f"n_{status}"] = float(sum(v.status == status for v in verdicts))
    return stats
