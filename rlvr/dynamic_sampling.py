"""Dynamic sampling for training batches (DAPO): sample prompts until N groups carry signal.

A group whose answers all pass or all fail gives zero group-relative advantages. This helper
keeps drawing tasks until the batch holds `n_groups` groups with both a passing and a failing
scored answer, or until `max_groups` groups have been sampled, and reports what the refill
cost. It filters on the verdicts' raw `passed`, not on the (possibly shaped) reward: a format
bonus can make rewards differ inside a group whose answers are all wrong.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from rlvr.env import Environment
from rlvr.policies.base import Policy
from rlvr.rollout import RolloutConfig, run_pipeline
from rlvr.types import ScoredGroup, Task


def has_signal(group: ScoredGroup) -> bool:
    """True when the group's scored verdicts include both a pass and a fail."""
    outcomes = {v.passed for v in group.verdicts if v.is_scored}
    return outcomes == {True, False}


@dataclass
class DynamicBatch:
    """The informative groups found, and what it cost to find them."""

    groups: list[ScoredGroup]
    sampled: int = 0
    """Groups sampled in all, kept or not."""
    all_pass: int = 0
    all_fail: int = 0
    few_scored: int = 0
    """Dropped: fewer than two scored verdicts (grader errors, timeouts)."""
    surplus: int = 0
    """Informative groups sampled beyond the N asked for (the last round overshot)."""
    samples: int = 0
    wanted: int = 0
    dropped: list[str] = field(default_factory=list)

    @property
    def filled(self) -> bool:
        return len(self.groups) >= self.wanted

    @property
    def extra_samples(self) -> int:
        """Samples spent beyond the N x G a batch needs when every group has signal."""
        kept = sum(len(g.samples) for g in self.groups)
        return self.samples - kept

    @property
    def cost_ratio(self) -> float:
        """Groups sampled per group kept (1.0 means no extra sampling)."""
        return self.sampled / len(self.groups) if self.groups else math.inf


def _classify(batch: DynamicBatch, group: ScoredGroup) -> None:
    batch.sampled += 1
    batch.samples += len(group.samples)
    scored = [v for v in group.verdicts if v.is_scored]
    if has_signal(group):
        if len(batch.groups) < batch.wanted:
            batch.groups.append(group)
        else:
            batch.surplus += 1
        return
    batch.dropped.append(group.task_id)
    if len(scored) < 2:
        batch.few_scored += 1
    elif scored[0].passed:
        batch.all_pass += 1
    else:
        batch.all_fail += 1


def sample_informative(
    env: Environment,
    policy: Policy,
    tasks: Iterator[Task],
    n_groups: int,
    config: RolloutConfig,
    max_groups: int,
) -> DynamicBatch:
    """Draw tasks from `tasks` until `n_groups` informative groups are found (or the cap).

    Each round asks for the missing groups scaled by the observed keep rate so far (twice the
    missing count before anything is known), so a batch where half the groups carry signal
    needs about two rounds, not N.
    """
    batch = DynamicBatch(groups=[], wanted=n_groups)
    while not batch.filled and batch.sampled < max_groups:
        missing = n_groups - len(batch.groups)
        rate = len(batch.groups) / batch.sampled if batch.groups else 0.5
        want = min(max_groups - batch.sampled, max(missing, math.ceil(missing / rate)))
        drawn = [t for _, t in zip(range(want), tasks, strict=False)]
        chunk = list({t.id: t for t in drawn}.values())  # one group per task per round
        if not chunk:
            break
        found: list[ScoredGroup] = []
        run_pipeline(env, policy, chunk, config, found.append)
        by_id = {g.task_id: g for g in found}
        for task in chunk:  # task order, not grading order, for reproducible batches
            if task.id in by_id:
                _classify(batch, by_id[task.id])
    return batch
