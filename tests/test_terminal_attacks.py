"""Attacks on the episode boundary, from an outside attack round, replayed against real Docker.

Each file in tests/episode_attacks/ holds scripted episodes that once earned a pass without
solving the task, or turned a failure into a masked verdict. Every one must now come back
scored, with reward 0.
"""

from __future__ import annotations

import base64
from collections import defaultdict
from pathlib import Path

import pytest

from rlvr.episodes.run import EpisodeRunner
from rlvr.policies.base import SamplingConfig
from rlvr.policies.replay import ReplayPolicy
from rlvr.registry import load_env
from rlvr.store import GroupStore
from rlvr.types import ScoredGroup

ATTACKS = sorted((Path(__file__).parent / "episode_attacks").glob("*.jsonl"))


REGRADED = {"regrade_divergence", "regrade_exponent_timeout"}
"""Payloads whose stored answers are also regraded here: a regrade runs each stored action as
its own call, so it gives the episode's verdict (the whole set costs too much time to regrade)."""


@pytest.mark.parametrize("path", ATTACKS, ids=[p.stem for p in ATTACKS])
def test_the_attack_is_scored_zero(path: Path, tmp_path: Path) -> None:
    env = load_env("terminal")
    policy = ReplayPolicy(path)
    counts: dict[str, int] = defaultdict(int)
    for task_id in policy.task_ids():
        counts[task_id] = len(policy.completions[task_id])
    store = GroupStore(tmp_path / "groups.jsonl")
    for task_id, n in counts.items():
        [group] = EpisodeRunner(env, policy).run([env.task(task_id)], n, SamplingConfig())
        for r in group:
            v = r.verdict
            assert v is not None
            assert v.status == "scored", (task_id, v.status, v.reason)
            assert v.reward == 0.0, (task_id, v.reason)
        # stored like any rollout's groups (a lone surrogate once crashed the whole run here)
        verdicts = [r.verdict for r in group if r.verdict is not None]
        samples = [r.sample for r in group]
        assert store.append(ScoredGroup(env=env.name, task_id=task_id, samples=samples,
                                        verdicts=verdicts))  # fmt: skip
        if path.stem in REGRADED:
            again = env.grade(env.task(task_id), [r.sample.text for r in group])
            assert [(a.status, a.reward) for a in again] == [("scored", 0.0)] * n


def test_a_stored_write_is_replayed_as_a_write_whatever_its_size() -> None:
    """A write_file action is stored as a shell line holding the content in base64, inside
    the action's own base64: past about 72 KiB that is one argument over the kernel's limit,
    and a regrade through `bash -c` skipped the write (a cold round: 1.0 live, 0.0 regraded)."""
    from rlvr.episodes.terminal import actions_script
    from rlvr.graders.terminal import split_actions

    content = "x" * 90_000 + "\n"
    data = base64.b64encode(content.encode()).decode()
    write = (
        f'mkdir -p -- "$(dirname -- /app/big.txt)" && printf %s {data} | base64 -d > /app/big.txt'
    )
    script = actions_script([("echo hi", 30.0), (write, 30.0)], "/app")
    [(first, limit), (second, _)] = split_actions(script)
    assert isinstance(first, str) and first.startswith("(cd /app") and limit == 40.0
    assert second == ("/app/big.txt", content)
    assert split_actions("ls\necho free-form") == [("ls\necho free-form", 600.0)]
