"""Frontier filtering: spend compute on tasks the policy sometimes solves.

A task the policy always passes or always fails yields groups with equal rewards, hence zero
group-relative advantages and no policy-gradient signal (DAPO, Yu et al. 2025, section 3.2).
Two tools:

- `pass_rates` + `band_filter`: estimate each task's pass rate from earlier scored groups and
  keep the tasks strictly inside a band (default (0, 1): drop always-pass and always-fail).
- `keep_informative`: DAPO's dynamic sampling; drop zero-variance groups from a batch and
  report how many were dropped, so the zero-variance rate is logged, not hidden.

Masked verdicts (grader errors, timeouts, infrastructure failures) count neither as passes nor
as failures. Pure Python: no torch needed.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from rlvr.stats import is_zero_variance
from rlvr.types import ScoredGroup

K = TypeVar("K", bound=Hashable)
TaskKey = tuple[str, str]


@dataclass(frozen=True)
class PassCount:
    """Passed and scored answers of one task, pooled over every group seen for it."""

    passed: int
    scored: int

    @property
    def rate(self) -> float:
        return self.passed / self.scored


def pass_counts(groups: Iterable[ScoredGroup]) -> dict[TaskKey, PassCount]:
    """Pool passes per (env, task_id) over all given groups; masked verdicts are skipped."""
    totals: dict[TaskKey, tuple[int, int]] = {}
    for group in groups:
        key = (group.env, group.task_id)
        passed, scored = totals.get(key, (0, 0))
        for verdict in group.verdicts:
            if verdict.is_scored:
                scored += 1
                passed += int(verdict.passed)
        totals[key] = (passed, scored)
    return {key: PassCount(p, s) for key, (p, s) in totals.items()}


def pass_rates(groups: Iterable[ScoredGroup]) -> dict[TaskKey, float]:
    """Pass rate per (env, task_id). Tasks with no scored answer are left out: rate unknown."""
    return {key: c.rate for key, c in pass_counts(groups).items() if c.scored > 0}


def band_filter(
    pass_rates: Mapping[K, float], low: float = 0.0, high: float = 1.0, exclusive: bool = True
) -> dict[K, float]:
    """Keep the tasks whose pass rate lies in the band.

    exclusive=True keeps low < p < high (the default drops p == 0 and p == 1); exclusive=False
    keeps low <= p <= high.

    >>> band_filter({"a": 0.0, "b": 0.5, "c": 1.0})
    {'b': 0.5}
    """
    if not 0.0 <= low <= high <= 1.0:
        raise ValueError(
            f"band_filter: need 0 <= low <= high <= 1, got low={low}, high={high}; "
            "pass rates are fractions"
        )
    if exclusive:
        return {k: p for k, p in pass_rates.items() if low < p < high}
    return {k: p for k, p in pass_rates.items() if low <= p <= high}


@dataclass(frozen=True)
class SamplingCounts:
    """What dynamic sampling did to one batch of groups."""

    total: int
    kept: int
    zero_variance: int
    """Dropped: at least two scored answers, all with the same reward (within atol)."""
    too_few_scored: int
    """Dropped: fewer than two scored answers, so no within-group comparison exists."""

    @property
    def zero_variance_rate(self) -> float:
        """Share of groups dropped for equal rewards; the checklist's first figure to log."""
        return self.zero_variance / self.total if self.total else 0.0


def keep_informative(
    groups: Iterable[ScoredGroup], atol: float = 1e-6
) -> tuple[list[ScoredGroup], SamplingCounts]:
    """Dynamic sampling (DAPO): keep groups whose scored rewards differ; count what was dropped.

    The filter is on rewards, not on `passed` (DAPO's accuracy filter): the two agree for 0/1
    rewards, and with shaped rewards (a format bonus, partial credit) a group whose rewards
    differ still gets non-zero advantages, so dropping it would discard the signal the reward
    defines. The caller decides whether to sample more prompts to refill the batch (the
    learners' `LiveSource`). Filtering shifts the training distribution toward the frontier,
    which is the point, and should be monitored.
    """
    kept: list[ScoredGroup] = []
    total = zero_var = few = 0
    for group in groups:
        total += 1
        rewards = group.rewards
        if sum(r is not None for r in rewards) < 2:
            few += 1
        elif is_zero_variance(rewards, atol):
            zero_var += 1
        else:
            kept.append(group)
    return kept, SamplingCounts(
        total=total, kept=len(kept), zero_variance=zero_var, too_few_scored=few
    )
