"""The Family record: a named way to draw function tasks at some difficulty levels."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from rlvr.tasksets.synth.draft import Difficulty, Draft


@dataclass(frozen=True)
class Family:
    """Draws a Draft for a difficulty; `levels` are the difficulties it can draw."""

    name: str
    levels: tuple[Difficulty, ...]
    draw: Callable[[random.Random, Difficulty], Draft]
    tags: tuple[str, ...]
    weight: dict[Difficulty, int] = field(default_factory=dict)

    def quota(self, level: Difficulty, per_level: int) -> int:
        """How many tasks to draw at a level: `per_level` times the level's weight (default 1)."""
        return per_level * self.weight.get(level, 1)


def family(
    name: str,
    levels: tuple[Difficulty, ...],
    *tags: str,
    weight: dict[Difficulty, int] | None = None,
) -> Callable[[Callable[[random.Random, Difficulty], Draft]], Family]:
    """Decorator turning a draw function into a Family; `weight` scales a level's quota."""

    def wrap(fn: Callable[[random.Random, Difficulty], Draft]) -> Family:
        return Family(name, levels, fn, tags, weight or {})

    return wrap
