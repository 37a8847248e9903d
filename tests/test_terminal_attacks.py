"""Attacks on the episode boundary, from an outside attack round, replayed against real Docker.

Each file in tests/episode_attacks/ holds scripted episodes that once earned a pass without
solving the task, or turned a failure into a masked verdict. Every one must now come back
scored, with reward 0.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from rlvr.episodes.run import EpisodeRunner
from rlvr.policies.base import SamplingConfig
from rlvr.policies.replay import ReplayPolicy
from rlvr.registry import load_env

ATTACKS = sorted((Path(__file__).parent / "episode_attacks").glob("*.jsonl"))


@pytest.mark.parametrize("path", ATTACKS, ids=[p.stem for p in ATTACKS])
def test_the_attack_is_scored_zero(path: Path) -> None:
    env = load_env("terminal")
    policy = ReplayPolicy(path)
    counts: dict[str, int] = defaultdict(int)
    for task_id in policy.task_ids():
        counts[task_id] = len(policy.completions[task_id])
    for task_id, n in counts.items():
        [group] = EpisodeRunner(env, policy).run([env.task(task_id)], n, SamplingConfig())
        for r in group:
            v = r.verdict
            assert v is not None
            assert v.status == "scored", (task_id, v.status, v.reason)
            assert v.reward == 0.0, (task_id, v.reason)
