"""Verified teacher episodes, picked and exported as a chat dataset TRL's SFTTrainer takes.

`verified_episodes` keeps what the environment's judge passed (rejection sampling: a minimum
reward, the best `best_of` per task). `sft_rows` writes each kept episode as one conversation,
the way rlvr's loop showed it to the model: the system and user prompt, each model turn as the
assistant's text exactly as sampled (its `<tool_call>` blocks included), and each tool result
as a `tool` message (rlvr.episodes.run.EpisodeRunner.message). Calls stay in the assistant's
text rather than `tool_calls` structures: a dataset's rows share one Arrow schema, so the
arguments of different tools would come back with each other's keys set to null, and a
template would render them. With a tool template (rlvr.policies.tool_template) and
`assistant_only_loss=True`, `SFTTrainer` trains on the same tokens as `rlvr sft --episodes`.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from rlvr.env import Environment
from rlvr.episodes.run import EpisodeRunner
from rlvr.errors import RlvrError
from rlvr.store import GroupStore
from rlvr.types import Sample, Task, Verdict


def verified_episodes(
    path: str | Path,
    env: Environment,
    min_reward: float = 1.0,
    best_of: int = 1,
    task_ids: set[str] | None = None,
) -> list[tuple[Task, Sample]]:
    """The stored episodes of `env` whose verdict is scored with a finite reward of at least
    `min_reward` (and passed, unless a `min_reward` below 1 asks for partial credit), at most
    `best_of` per task across the whole file (highest reward first, then fewest turns, then by
    text), in task-id order: a rollout stores groups as their grading finishes, so the file's
    order differs between runs and must not change the student. What is left out is counted
    on stderr, so a file of the wrong environment or of failed episodes is never a silent
    empty set. `task_ids` (the chosen split's tasks: train by default) keeps held-out
    episodes out of a student that will be evaluated on them."""
    store = Path(path)
    if not store.exists():
        raise RlvrError(f"no groups file at {store}", "collect teacher episodes first: rlvr "
                        "rollout --env ENV --model TEACHER --out FILE")  # fmt: skip
    tasks = {t.id: t for t in env.tasks()}
    # per task over the whole file: a task's groups may come from several rollouts or steps
    by_task: dict[str, list[tuple[float, int, str, bool, Sample]]] = {}
    left_out: Counter[str] = Counter()
    groups = GroupStore(store)
    for group in groups:
        n = len(group.samples)
        if group.env != env.name:
            left_out[f"of environment {group.env!r}"] += n
            continue
        if group.task_id not in tasks:
            left_out[f"of tasks {env.name!r} does not have"] += n
            continue
        if task_ids is not None and group.task_id not in task_ids:
            left_out["of tasks outside the chosen ones (--split, --tasks, --n-tasks)"] += n
            continue
        for s, v in zip(group.samples, group.verdicts, strict=True):
            why = _left_out(s, v, min_reward)
            if why:
                left_out[why] += 1
                continue
            turns = s.episode.turns  # type: ignore[union-attr]
            text = "\x00".join(t.text for t in turns)  # the episode as the model wrote it
            by_task.setdefault(group.task_id, []).append((float(v.reward or 0.0), len(turns),
                                                          text, v.passed, s))  # fmt: skip
    kept: list[tuple[Task, Sample]] = []
    failed = 0
    for task_id, passed in sorted(by_task.items()):  # not file order, which grading sets
        passed.sort(key=lambda x: (-x[0], x[1], x[2]))
        seen: set[str] = set()  # a file appended twice, or one teacher repeating itself
        unique = [x for x in passed if not (x[2] in seen or seen.add(x[2]))]
        left_out["repeats of an episode already kept"] += len(passed) - len(unique)
        best = unique[:best_of]
        kept += [(tasks[task_id], x[4]) for x in best]
        failed += sum(not x[3] for x in best)
    left_out = +left_out  # drop zero counts
    if groups.torn_tail:
        left_out["torn last line (a write cut short)"] = 1
    if failed:
        print(f"{store}: kept {failed} episodes the judge failed (--min-reward {min_reward} "
              "asks for partial credit)", file=sys.stderr, flush=True)  # fmt: skip
    if left_out:
        what = ", ".join(f"{n} {why}" for why, n in left_out.most_common())
        print(f"{store}: left out {what}", file=sys.stderr, flush=True)
    return kept


def _left_out(sample: Sample, verdict: Verdict, min_reward: float) -> str | None:
    """Why an episode is no teacher (None: it is one)."""
    if sample.episode is None:
        return "answers that are not episodes"
    if not verdict.is_scored:
        return "masked episodes"
    reward = float(verdict.reward or 0.0)
    if not math.isfinite(reward):
        return "episodes with a non-finite reward"
    if reward < min_reward:
        return f"episodes below --min-reward {min_reward}"
    if not verdict.passed and min_reward >= 1.0:
        return "episodes the judge failed despite their reward"
    return None


def conversation(env: Environment, task: Task, sample: Sample) -> list[dict[str, Any]]:
    """One episode as chat messages (see the module docstring); the last model turn ends it."""
    assert sample.episode is not None
    messages: list[dict[str, Any]] = list(env.messages(task))
    turns = sample.episode.turns
    for k, turn in enumerate(turns):
        messages.append({"role": "assistant", "content": turn.text})
        if k + 1 < len(turns):
            messages += [EpisodeRunner.message(o, tool_role=True) for o in turn.observations]
    return messages


def sft_rows(env: Environment, pairs: list[tuple[Task, Sample]]) -> list[dict[str, Any]]:
    """The dataset's rows: `messages` (for SFTTrainer) and `task_id`."""
    return [{"messages": conversation(env, t, s), "task_id": t.id} for t, s in pairs]


def export_sft(env: Environment, episodes: str | Path, out: str | Path, min_reward: float = 1.0,
               best_of: int = 1, task_ids: set[str] | None = None) -> dict[str, int]:  # fmt: skip
    """Write the verified episodes of `episodes` as JSONL rows to `out` (`load_dataset("json",
    data_files=out)` reads it); the counts of rows and tasks."""
    path = Path(out)
    if path.exists():
        same = Path(episodes).exists() and path.resolve() == Path(episodes).resolve()
        raise RlvrError(
            f"--out {path} is {'the --episodes file itself' if same else 'already there'}: "
            "the export would overwrite it",
            "give --out a new file name (the export writes chat rows, not scored groups)",
        )
    pairs = verified_episodes(episodes, env, min_reward, best_of, task_ids)
    if not pairs:
        raise RlvrError(f"no episode of {env.name!r} in {episodes} has a scored reward of at "
                        f"least {min_reward}", "collect more teacher episodes or lower "
                        "--min-reward")  # fmt: skip
    rows = sft_rows(env, pairs)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    return {"rows": len(rows), "tasks": len({t.id for t, _ in pairs})}
