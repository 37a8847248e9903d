"""rlvr environments inside TRL: reward functions, prompt datasets and preference datasets.

`reward_funcs(env)` returns callables with TRL's reward-function signature (GRPOTrainer and
RLOOTrainer): batched `(prompts, completions, **kwargs)` where kwargs carry the dataset's
columns, here `task_id`. Each returns one reward per completion, or None for a masked verdict
(grader error, timeout, infrastructure failure), which TRL 1.16 leaves out of the group
baseline and gives advantage 0, so a failure is never trained on as a zero. Completions of one
task are graded together, as rlvr's own learner does, so the same grader gives the same verdict
here and there.

`to_hf_dataset(env)` gives the `prompt` and `task_id` columns those trainers read;
`to_dpo_dataset(groups, env)` turns scored groups into DPOTrainer's preference format.

Example:
    >>> import rlvr
    >>> from rlvr.integrations.trl import reward_funcs, to_hf_dataset
    >>> env = rlvr.load_env("math")  # doctest: +SKIP
    >>> trainer = GRPOTrainer(model=..., reward_funcs=reward_funcs(env),  # doctest: +SKIP
    ...                       train_dataset=to_hf_dataset(env), args=...)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.grading import GradeItem, grade_items
from rlvr.pairs import preference_pairs
from rlvr.types import ScoredGroup, Task

RewardFunc = Callable[..., list[float | None]]


def completion_text(completion: Any) -> str:
    """The answer text of a TRL completion: a string, or chat messages (the assistant turns)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, list):
        return "".join(
            str(m.get("content") or "")
            for m in completion
            if isinstance(m, dict) and m.get("role", "assistant") == "assistant"
        )
    return str(completion)


def reward_funcs(env: Environment, workers: int = 4) -> list[RewardFunc]:
    """One TRL reward function grading with `env`'s grader; None marks a masked verdict.

    The dataset needs a `task_id` column (see `to_hf_dataset`). The function's `__name__`,
    `rlvr_<env>`, names its reward column in TRL's logs; it also logs the masked share as
    `rlvr_<env>/masked_frac` when TRL passes `log_metric`.
    """
    name = f"rlvr_{env.name}".replace("-", "_")

    def reward(
        prompts: Sequence[Any],
        completions: Sequence[Any],
        task_id: Sequence[str] | None = None,
        **kwargs: Any,
    ) -> list[float | None]:
        if task_id is None:
            raise RlvrError(
                f"{name}: the training dataset has no 'task_id' column",
                "build it with rlvr.integrations.trl.to_hf_dataset(env), or add task ids",
            )
        items = [
            GradeItem(str(tid), completion_text(c))
            for tid, c in zip(task_id, completions, strict=True)
        ]
        rows = grade_items(env, items, workers=workers)
        rewards = [row["reward"] if row["status"] == "scored" else None for row in rows]
        log_metric = kwargs.get("log_metric")
        if callable(log_metric) and rewards:
            log_metric(f"{name}/masked_frac", sum(r is None for r in rewards) / len(rewards))
        return rewards

    reward.__name__ = name
    reward.__qualname__ = name
    return [reward]


def _prompt(env: Environment, task: Task, conversational: bool) -> Any:
    # a multi-turn environment's tools reach TRL's chat template as schemas, not as prose
    return env.messages(task, tools_note=False) if conversational else env.format_prompt(task)


def to_hf_dataset(
    env: Environment,
    tasks: Iterable[Task] | None = None,
    conversational: bool = True,
    split: str = "train",
) -> Any:
    """A `datasets.Dataset` with `prompt` (chat messages, or text) and `task_id` columns.

    Without `tasks`, the environment's `split` (train by default: the held-out test tasks stay
    out of training; see rlvr.splits).
    """
    from datasets import Dataset

    chosen = list(tasks) if tasks is not None else env.tasks_in(split)
    return Dataset.from_list(
        [{"prompt": _prompt(env, t, conversational), "task_id": t.id} for t in chosen]
    )


def to_dpo_dataset(
    groups: Iterable[ScoredGroup],
    env: Environment,
    min_margin: float = 0.0,
    conversational: bool = True,
) -> Any:
    """Preference pairs (best scored answer vs worst, per group) as DPOTrainer's dataset.

    Columns: prompt, chosen, rejected, task_id, margin. Groups without two scored answers
    whose rewards differ by at least `min_margin` give no pair.
    """
    from datasets import Dataset

    records, counts = preference_pairs(
        groups, env, min_margin=min_margin, conversational=conversational, with_meta=True
    )
    if not records:
        raise RlvrError(
            f"no preference pair in {counts.groups} groups ({counts.too_few_scored} with fewer "
            f"than two scored answers, {counts.below_margin} below margin {min_margin})",
            "sample more answers per task, lower min_margin, or pick tasks on the frontier",
        )
    return Dataset.from_list(records)
