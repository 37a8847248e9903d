"""Distillation from verified teacher episodes: the student learns the turns a judge passed.

A small model that never makes a tool call gives RL nothing to work with: every episode ends
"no call" and every group has zero variance. A teacher's episodes (a served model, a replay file
of scripted solutions, a larger local model) are collected as usual (`rlvr rollout`, stored
with the judge's verdicts); this module keeps only the episodes the environment's judge passed
(rejection sampling: a minimum reward, the best `best_of` per task), renders each through the
student's chat template turn by turn exactly as the episode loop would (`episode_ids`), and
puts the loss on the model's tokens only: the environment's tokens (tool results, the template
around them) are masked as the learners mask them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rlvr.distil_dataset import verified_episodes
from rlvr.env import Environment
from rlvr.episodes.run import episode_ids
from rlvr.errors import RlvrError
from rlvr.policies.hf import load_pretrained, torch_threads
from rlvr.policies.lora import add_lora, save_model
from rlvr.sft import IGNORE, SFTConfig, SFTResult, max_length_of, train_encoded
from rlvr.types import Sample, Task


def encode_episode(
    tokenizer: Any, env: Environment, task: Task, sample: Sample, max_length: int
) -> tuple[list[int], list[int]]:
    """(input ids, labels) of one episode for the student: labels IGNORE on the prompt and on
    every environment token, the model's own tokens (and its end of turn) after."""
    assert sample.episode is not None
    prompt, ids, mask = episode_ids(tokenizer, env.messages(task), sample.episode)
    labels = [IGNORE] * len(prompt) + [t if m else IGNORE for t, m in zip(ids, mask, strict=True)]
    return (prompt + ids)[:max_length], labels[:max_length]


def encode_episodes(
    tokenizer: Any, env: Environment, pairs: Sequence[tuple[Task, Sample]], max_length: int
) -> list[tuple[list[int], list[int]]]:
    """Every verified episode encoded; one with no trained token left (cut by `max_length`)
    is dropped."""
    encoded = [encode_episode(tokenizer, env, t, s, max_length) for t, s in pairs]
    return [(ids, labels) for ids, labels in encoded if any(x != IGNORE for x in labels)]


def run_distil(
    env: Environment,
    model_dir: str,
    episodes: str | Path,
    config: SFTConfig,
    out: str | Path,
    min_reward: float = 1.0,
    best_of: int = 1,
    threads: int | None = None,
    on_step: Callable[[int, float], None] | None = None,
    device: str | None = "cpu",
    base: str | None = None,
    task_ids: set[str] | None = None,
) -> tuple[SFTResult, dict[str, int]]:
    """Fine-tune the model in `model_dir` on the verified episodes of the groups file
    `episodes` and save it to `out` (model, tokenizer, sft.json); also returns the counts
    (episodes kept, tasks, tokens trained, tokens masked)."""
    if env.episode is None:
        raise RlvrError(f"environment {env.name!r} has no episodes", "distil on an environment "
                        "with an [episode] table, or use rlvr sft on references")  # fmt: skip
    pairs = verified_episodes(episodes, env, min_reward, best_of, task_ids)
    if not pairs:
        raise RlvrError(
            f"no episode of {env.name!r} in {episodes} has a scored reward of at least "
            f"{min_reward}",
            "collect more teacher episodes (rlvr rollout -G 4 ...) or lower --min-reward",
        )
    lm, tokenizer = load_pretrained(model_dir, device=device)
    if config.lora:
        lm = add_lora(lm, config)
    limit = max_length_of(lm, config)
    encoded = encode_episodes(tokenizer, env, pairs, limit)
    cut = sum(len(ids) == limit for ids, _ in encoded)
    if cut:
        print(
            f"warning: {cut} of {len(encoded)} episodes are longer than {limit} tokens and "
            "were cut there: their later turns (the verified fix, the submit) are not "
            "trained; collect shorter episodes (a lower observation_chars, fewer turns) or "
            "set SFTConfig.max_length for a longer context",
            file=sys.stderr,
            flush=True,
        )
    counts = {
        "episodes": len(encoded),
        "episodes_cut": cut,
        "tasks": len({t.id for t, _ in pairs}),
        "tokens_trained": sum(sum(x != IGNORE for x in labels) for _, labels in encoded),
        "tokens_masked": sum(sum(x == IGNORE for x in labels) for _, labels in encoded),
    }
    with torch_threads(threads):
        result = train_encoded(lm, tokenizer, encoded, config, on_step)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    save_model(lm, out, config)
    tokenizer.save_pretrained(out)
    record = {"env": env.name, "episodes_file": str(episodes), "base": base or model_dir,
              "config": config.model_dump(), **counts, **result.model_dump()}  # fmt: skip
    (out / "sft.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return result, counts
