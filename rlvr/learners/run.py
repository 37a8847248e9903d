"""One call that trains with any learner: the config's `algo` picks the loop."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rlvr.env import Environment
from rlvr.learners import dpo, grpo, ppo
from rlvr.learners.config import DPOConfig, LearnerConfig, PPOConfig, TrainConfig


def train(
    config: TrainConfig,
    out: str | Path,
    env: Environment | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    on_eval: Callable[[dict[str, Any]], None] | None = None,
) -> Path:
    """Train to config.steps in RUN_DIR `out` (resuming there); returns the run folder.

    `on_row` gets each step's metrics row, `on_eval` each held-out evaluation row."""
    if isinstance(config, DPOConfig):
        return dpo.train(config, out, env=env, on_row=on_row, on_eval=on_eval)
    if isinstance(config, PPOConfig):
        return ppo.train(config, out, env=env, on_row=on_row, on_eval=on_eval)
    assert isinstance(config, LearnerConfig), type(config)
    return grpo.train(config, out, env=env, on_row=on_row, on_eval=on_eval)
