"""The demo's agent warm start `tiny-columns-agent-sft`: the columns warm start shown how to submit.

A model that never calls a tool gives RL nothing to learn about tools. This warm start teaches
the call's format (and nothing about when submitting through the tool pays) from scripted
teacher episodes of `math-columns-retry` on its train split, each task's reference in one of
three shapes:

- direct: the reference as a plain final answer, no call (no retry is possible);
- submit, correct: the reference followed by a `submit_answer` call, then "correct";
- submit, wrong: the same with a wrong result (one digit changed), turned down with "wrong",
  then the reference submitted. The wrong turn is context only: no loss on it, so the model is
  never taught to answer wrongly, only what follows a "wrong".

The episodes go through the episode loop's own rendering (`distil.encode_episode`), so the
student sees exactly the tokens it will see when it plays. Built once, cached like the other
tiny models under a key of its base, recipe and tasks.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from rlvr.env import Environment
from rlvr.episodes.retry import TOOL, wrong_reply
from rlvr.registry import load_env
from rlvr.tiny import SFT_THREADS, cache_root, digest, publish, tiny_columns_sft_dir
from rlvr.types import Episode, Observation, Sample, Task, ToolCall, Turn

AGENT_ENV = "math-columns-retry"
SHAPES = ("direct", "submit_correct", "submit_wrong")


def agent_recipe() -> dict[str, Any]:
    """The warm start's SFT settings and its mix of episode shapes (direct, submit correct,
    submit wrong). 120 steps with 30% retries taught the call but not the retry: given its own
    question back after a "wrong", that model answered 7.5% of 120 held-out pairs right
    greedily (it miscopied the operands); 360 steps with 60% retries answer 92.5%."""
    return {"steps": 360, "batch_size": 32, "lr": 2e-3, "warmup_steps": 10, "seed": 0,
            "mix": [0.2, 0.2, 0.6]}  # fmt: skip


SUBMIT_CALL = json.dumps({"name": "submit_answer"})
"""A submission of the turn's own \\boxed{} answer, as a model turn writes it (short for tiny)."""


def wrong_answer(gold: str, rng: random.Random) -> str:
    """`gold` with one digit changed."""
    digits = [i for i, c in enumerate(gold) if c.isdigit()]
    i = rng.choice(digits)
    new = rng.choice([d for d in "0123456789" if d != gold[i]])
    return gold[:i] + new + gold[i + 1 :]


def with_result(task: Task, answer: str) -> str:
    """The task's reference ("32 + 23 = 55. The answer is $\\boxed{55}$.") with `answer` as
    its result."""
    gold, ref = str(task.gold), task.reference or ""
    return ref.replace(f"= {gold}.", f"= {answer}.").replace(f"{{{gold}}}", f"{{{answer}}}")


def teacher_episode(task: Task, shape: str, rng: random.Random, reply: str) -> Episode:
    """One scripted episode of `shape` on `task` (whose reference and gold it uses); `reply`
    is the tool's answer to a wrong submission."""
    reference = task.reference or ""
    if shape == "direct":
        return Episode(turns=[Turn(text=reference)], end="no_call", answer=reference)
    gold = str(task.gold)
    turns = []
    if shape == "submit_wrong":
        wrong = with_result(task, wrong_answer(gold, rng))
        turns.append(submit_turn(wrong, Observation(tool=TOOL, content=reply, retry=True)))
    turns.append(submit_turn(reference, Observation(tool=TOOL, content="correct")))
    return Episode(turns=turns, end="submit", answer=reference)


def submit_turn(answer: str, reply: Observation) -> Turn:
    """A turn that writes `answer` and submits it, with the tool's reply."""
    return Turn(text=f"{answer} {SUBMIT_CALL}", calls=[ToolCall(name=TOOL, arguments={})],
                observations=[reply])  # fmt: skip


def encode_teacher(
    tokenizer: Any, env: Environment, tasks: list[Task], mix: list[float], seed: int
) -> list[tuple[list[int], list[int]]]:
    """Every task once, in a seeded shape; the wrong first turns carry no loss."""
    from rlvr.distil import encode_episode  # heavy: imports torch
    from rlvr.sft import IGNORE  # heavy: imports torch

    rng = random.Random(seed)
    out = []
    for task in tasks:
        shape = rng.choices(SHAPES, weights=mix)[0]
        episode = teacher_episode(task, shape, rng, wrong_reply(env, task))
        sample = Sample(task_id=task.id, index=0, text=episode.answer, episode=episode)
        ids, labels = encode_episode(tokenizer, env, task, sample, 10**6)
        if shape == "submit_wrong":  # mask the first model turn: up to its first masked token
            start = next(i for i, x in enumerate(labels) if x != IGNORE)
            end = next(i for i in range(start, len(labels)) if labels[i] == IGNORE)
            labels[start:end] = [IGNORE] * (end - start)
        out.append((ids, labels))
    return out


def tiny_columns_agent_sft_dir(
    cache_dir: str | Path | None = None,
    on_step: Callable[[int, float], None] | None = None,
    steps: int | None = None,
    base_steps: int | None = None,
    seed: int = 0,
    leave_out: Collection[str] = (),
) -> Path:
    """The folder of `tiny-columns-agent-sft`, built once from the columns warm start of a fixed
    800 steps on every train pair (`tiny_columns_sft_dir(to_strength=False)`: the base every
    agent figure in bench/README.md was measured from).

    `steps` and `base_steps` shorten this warm start and its base (a quick check of the
    plumbing); a seed search varies `seed` (both data orders) and leaves a validation slice out
    of both (`leave_out`: task ids). Each has its own cache entry; the defaults are the demo's."""
    env = load_env(AGENT_ENV)
    tasks = [t for t in env.tasks_in("train")
             if t.reference and t.gold is not None and t.id not in leave_out]  # fmt: skip
    recipe = agent_recipe() | ({"steps": steps} if steps else {}) | ({"seed": seed} if seed else {})
    base = tiny_columns_sft_dir(
        cache_dir, seed=seed, leave_out=leave_out, steps=base_steps, to_strength=False
    )
    task_key = digest([[t.id, t.prompt, t.reference, t.gold] for t in tasks])
    reply = wrong_reply(env, tasks[0])  # the shapes' own text: a change of format rebuilds
    shapes = [teacher_episode(tasks[0], s, random.Random(0), reply).model_dump() for s in SHAPES]
    key = digest({"base": base.name, "recipe": recipe, "tasks": task_key, "threads": SFT_THREADS,
                  "shapes": shapes})  # fmt: skip
    target = Path(cache_dir or cache_root()) / f"tiny-columns-agent-sft-{key}"

    def build(into: Path) -> None:
        from rlvr.policies.hf import load_pretrained, torch_threads  # heavy: imports torch
        from rlvr.sft import SFTConfig, train_encoded  # heavy: imports torch

        model, tokenizer = load_pretrained(str(base), device="cpu")
        sft = {k: v for k, v in recipe.items() if k != "mix"}
        encoded = encode_teacher(tokenizer, env, tasks, recipe["mix"], sft["seed"])
        with torch_threads(SFT_THREADS):
            result = train_encoded(model, tokenizer, encoded, SFTConfig(**sft), on_step)
        model.save_pretrained(into)
        tokenizer.save_pretrained(into)
        record = {"env": AGENT_ENV, "base": base.name, "recipe": recipe, **result.model_dump()}
        (into / "sft.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")

    return publish(build, target)
