"""A warm start built to a strength: stop SFT once sampled pass@1 on unseen pairs reaches a target.

GRPO sharpens what a warm start already does sometimes, so the headroom a warm start leaves
decides how much a run can show. A fixed step count does not fix that headroom: on
`math-columns` tiny picks up the column rule anywhere between about 500 and 700 SFT steps,
depending on the data order (the seed, and another machine's float order), and 800 steps gave
warm starts that answer 0.39 to 0.89 of unseen pairs. `StrengthStop` measures the model every
`every` steps from `start` on probe tasks left out of SFT (sampled at temperature 1, `samples`
a task, seeded) and ends SFT at the first check that reaches `target`; a warm start that never
reaches it trains the full recipe. Each check is recorded, so the folder says where it stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from pydantic import BaseModel, ConfigDict, Field
from transformers import PreTrainedModel, PreTrainedTokenizerBase

from rlvr.env import Environment
from rlvr.policies.hf import HFPolicy
from rlvr.sft import evaluate_pass_rate
from rlvr.types import Task


class StrengthRule(BaseModel):
    """When to check a warm start on its probe tasks, and the pass@1 that ends SFT."""

    model_config = ConfigDict(extra="forbid")

    target: float = Field(gt=0, le=1, description="Sampled pass@1 on the probe that ends SFT.")
    start: int = Field(ge=1, description="First SFT step checked.")
    every: int = Field(ge=1, description="Steps between checks.")
    samples: int = Field(default=8, ge=1, description="Answers per probe task.")
    max_new_tokens: int | None = Field(default=None, ge=1, description="None: the model's.")


class StrengthStop:
    """The SFT stop check (rlvr.sft.StopCheck) of a `StrengthRule` on `probe` tasks."""

    def __init__(
        self,
        rule: StrengthRule,
        env: Environment,
        probe: Sequence[Task],
        tokenizer: PreTrainedTokenizerBase,
        threads: int | None = 1,
    ) -> None:
        self.rule = rule
        self.env = env
        self.probe = list(probe)
        self.tokenizer = tokenizer
        self.threads = threads
        self.checks: list[dict[str, Any]] = []  # {"step", "pass_at_1"} per check, in order

    def due(self, step: int) -> bool:
        return step >= self.rule.start and (step - self.rule.start) % self.rule.every == 0

    def __call__(self, step: int, model: PreTrainedModel) -> bool:
        """True when the model after `step` steps reaches the target (checked steps only)."""
        if not self.due(step):
            return False
        rng = torch.random.get_rng_state()  # sampling reseeds torch: leave SFT's state as it was
        policy = HFPolicy(model, self.tokenizer, "warm-start", threads=self.threads)
        rate = evaluate_pass_rate(
            self.env, policy, self.probe, self.rule.samples, self.rule.max_new_tokens, seed=0
        )
        torch.random.set_rng_state(rng)
        value = rate.pass_rate or 0.0
        self.checks.append({"step": step, "pass_at_1": value})
        return value >= self.rule.target

    def record(self) -> dict[str, Any]:
        """What sft.json keeps beside the loss curve: the rule, the probe and every check."""
        return {
            "rule": self.rule.model_dump(),
            "probe_tasks": len(self.probe),
            "checks": self.checks,
            "reached": bool(self.checks) and self.checks[-1]["pass_at_1"] >= self.rule.target,
        }
