"""Preference pairs for DPO from scored groups: the best answer against the worst.

Only `scored` verdicts take part: an answer whose grading failed (grader error, timeout, dead
sandbox) is neither chosen nor rejected, since its reward is unknown, not low. A group yields
at most one pair, and none when its best and worst scored rewards differ by less than
`min_margin` (or not at all): a tie teaches nothing. Ties for best or worst go to the earliest
sample, so the output is reproducible.

Records are `{"prompt", "chosen", "rejected"}`, TRL's preference format: plain strings, or with
`conversational=True` chat messages (`prompt` the task's messages, `chosen` / `rejected` one
assistant message each).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlvr.env import Environment
from rlvr.types import ScoredGroup


@dataclass
class PairCounts:
    """What happened to each group."""

    groups: int = 0
    pairs: int = 0
    too_few_scored: int = 0
    below_margin: int = 0


def best_and_worst(group: ScoredGroup) -> tuple[int, int, float] | None:
    """(best index, worst index, margin) over scored samples; None with fewer than two."""
    scored = [(i, v.reward) for i, v in enumerate(group.verdicts) if v.is_scored]
    if len(scored) < 2:
        return None
    best = max(scored, key=lambda x: (x[1], -x[0]))
    worst = min(scored, key=lambda x: (x[1], x[0]))
    return best[0], worst[0], float(best[1]) - float(worst[1])  # type: ignore[arg-type]


def preference_pairs(
    groups: Iterable[ScoredGroup],
    env: Environment,
    min_margin: float = 0.0,
    conversational: bool = False,
    with_meta: bool = False,
) -> tuple[list[dict[str, Any]], PairCounts]:
    """One {"prompt", "chosen", "rejected"} record per group whose scored rewards differ by
    more than zero and at least `min_margin`. `with_meta` adds task_id and margin."""
    counts = PairCounts()
    records: list[dict[str, Any]] = []
    for group in groups:
        counts.groups += 1
        picked = best_and_worst(group)
        if picked is None:
            counts.too_few_scored += 1
            continue
        best, worst, margin = picked
        if margin <= 0 or margin < min_margin:
            counts.below_margin += 1
            continue
        task = env.task(group.task_id)
        chosen, rejected = group.samples[best].text, group.samples[worst].text
        record: dict[str, Any]
        if conversational:
            record = {
                "prompt": env.messages(task),
                "chosen": [{"role": "assistant", "content": chosen}],
                "rejected": [{"role": "assistant", "content": rejected}],
            }
        else:
            record = {"prompt": env.format_prompt(task), "chosen": chosen, "rejected": rejected}
        if with_meta:
            record.update(task_id=group.task_id, margin=margin)
        records.append(record)
        counts.pairs += 1
    return records, counts


def write_pairs(records: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write records as JSONL; returns how many were written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with path.open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False) + "\n")
            n += 1
    return n
