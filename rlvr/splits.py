"""Held-out splits: which tasks of an environment are for training and which for evaluation.

Every environment has a deterministic train/test split, whether it comes from a manifest, a
Python factory or an entry point. The default puts a task in `test` when a stable hash of its
split key falls below `test_fraction`; the decision depends on that one task alone, so adding
or removing other tasks never moves a task from one side to the other (a held-out task stays
held out as a data set grows). A manifest can change the fraction or the salt, or list the
held-out ids explicitly; a task can name its own side with `meta.split`.

The split key is `meta.split_key` when a task sets it, else the task id without a leading
`<env name>/`: one problem rendered in several stacks (`synth-go/arith-0001`,
`synth-rust/arith-0001`) lands on the same side in all of them, so a model trained on one
stack's train split never sees another stack's test problems.

Precedence, first match wins: `[split] test_ids`, then `meta.split`, then the hash.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rlvr.errors import RlvrError
from rlvr.types import Task

SplitName = Literal["train", "test", "all"]
SPLITS: tuple[str, ...] = ("train", "test", "all")


class SplitSpec(BaseModel):
    """The `[split]` table of a manifest (and of any Environment)."""

    model_config = ConfigDict(extra="forbid")

    test_fraction: float = Field(
        default=0.2,
        ge=0.0,
        le=1.0,
        description="Share of tasks held out for evaluation, chosen by a stable hash of each "
        "task's split key (1.0: an evaluation-only benchmark; 0.0: no held-out tasks).",
    )
    salt: str = Field(
        default="", description="Mixed into the hash; change it to draw another stable split."
    )
    test_ids: list[str] | None = Field(
        default=None,
        description="Explicit held-out task ids; every other task is train (overrides the hash).",
    )
    split_like: str | None = Field(
        default=None,
        pattern=r"^[a-z0-9][a-z0-9_.-]*$",
        description="Hash ids as the environment of this name does (its '<name>/' prefix "
        "stripped): a second view of another environment's task file keeps its held-out tasks.",
    )


def check_split_name(name: str) -> SplitName:
    """`name` as a split name, or an error that lists the three."""
    if name not in SPLITS:
        raise RlvrError(f"unknown split {name!r}", "use --split train, test or all")
    return name  # type: ignore[return-value]


def split_key(task: Task, env_name: str) -> str:
    """What the hash sees: meta.split_key, else the id without a leading '<env name>/'."""
    key = task.meta.get("split_key")
    if isinstance(key, str) and key:
        return key
    return task.id.removeprefix(f"{env_name}/")


def hash_unit(key: str, salt: str = "") -> float:
    """A uniform number in [0, 1) fixed by (salt, key): the first 8 bytes of a SHA-256."""
    digest = hashlib.sha256(f"{salt}\x00{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def side_of(task: Task, spec: SplitSpec, env_name: str) -> Literal["train", "test"]:
    """The split one task belongs to."""
    if spec.test_ids is not None:
        return "test" if task.id in spec.test_ids else "train"
    own = task.meta.get("split")
    if own in ("train", "test"):
        return own  # type: ignore[return-value]
    key = split_key(task, spec.split_like or env_name)
    held_out = hash_unit(key, spec.salt) < spec.test_fraction
    return "test" if held_out else "train"


def filter_split(tasks: Iterable[Task], spec: SplitSpec, env_name: str, split: str) -> list[Task]:
    """The tasks of `split` ("train", "test" or "all"), in their original order."""
    which = check_split_name(split)
    tasks = list(tasks)
    if which == "all":
        return tasks
    return [t for t in tasks if side_of(t, spec, env_name) == which]


def check_spec(spec: SplitSpec, tasks: Sequence[Task], env_name: str, where: str) -> None:
    """Explicit test ids must name tasks of the environment (a typo would leak nothing but
    would silently shrink the held-out set)."""
    if spec.test_ids is None:
        return
    ids = {t.id for t in tasks}
    unknown = [i for i in spec.test_ids if i not in ids]
    if unknown:
        raise RlvrError(
            f"{where}: split.test_ids names {len(unknown)} id(s) that environment "
            f"{env_name!r} does not have, e.g. {unknown[0]!r}",
            "fix the ids, or remove them from [split] test_ids",
        )


def split_counts(tasks: Sequence[Task], spec: SplitSpec, env_name: str) -> dict[str, int]:
    """{"train": n, "test": n, "all": n} for a listing."""
    test = sum(side_of(t, spec, env_name) == "test" for t in tasks)
    return {"train": len(tasks) - test, "test": test, "all": len(tasks)}


def stable_subset(tasks: Sequence[Task], n: int | None, salt: str = "subset") -> list[Task]:
    """At most n tasks chosen by a stable hash of their ids, kept in their original order.

    A fixed evaluation subset that spreads over the whole split (the first n in file order
    would often be one family), and that keeps its members when other tasks are added.
    """
    if n is None or n >= len(tasks):
        return list(tasks)
    chosen = set(sorted(range(len(tasks)), key=lambda i: hash_unit(tasks[i].id, salt))[:n])
    return [t for i, t in enumerate(tasks) if i in chosen]


def empty_split_error(env_name: str, split: str, spec: SplitSpec) -> RlvrError:
    """The error for a split with no task in it, with the setting to change."""
    hint = (
        "this environment is evaluation-only (test_fraction = 1.0); use --split test or all"
        if split == "train" and spec.test_fraction >= 1.0 and spec.test_ids is None
        else "use --split all, or set [split] test_fraction / test_ids in its env.toml"
    )
    return RlvrError(f"environment {env_name!r} has no task in its {split!r} split", hint)
