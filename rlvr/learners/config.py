"""Learner configurations: one pydantic model per algorithm family, loadable from TOML or JSON.

Every field's `description` is its only help text (the CLI prints the config at start). Choices
are `Literal`s, except estimator, loss aggregation and KL estimator names, checked against their
registries so a registered variant needs no edit here. Unknown keys are rejected; cross-field
checks quote both values and the fix. Layering: the RUN_DIR's config.json (when resuming), a
config file, then command-line flags; later layers win.

Names follow the papers: `group_size` is G, `inner_epochs` is mu (updates per batch of samples),
`clip_low`/`clip_high` are epsilon and DAPO's epsilon_high, `beta` weighs the KL penalty to the
reference policy (0 loads no reference model); `teacher` turns on on-policy distillation.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from rlvr.errors import RlvrError, format_validation_error
from rlvr.learners.teacher_fields import TeacherFields
from rlvr.policies.lora import LoraFields

AlgoName = Literal["grpo", "rloo", "ppo", "dpo"]


def _estimator(name: str | None) -> str | None:
    from rlvr.advantages import ESTIMATORS  # heavy: imports torch

    return None if name is None else ESTIMATORS.check(name)


def _aggregation(name: str) -> str:
    from rlvr.learners.losses import AGGREGATIONS  # heavy: imports torch

    return AGGREGATIONS.check(name)


def _kl(name: str) -> str:
    from rlvr.learners.losses import KL_ESTIMATORS  # heavy: imports torch

    return KL_ESTIMATORS.check(name)


Estimator = Annotated[str | None, AfterValidator(_estimator)]
Aggregation = Annotated[str, AfterValidator(_aggregation)]
KLName = Annotated[str, AfterValidator(_kl)]


class TrainConfig(LoraFields):
    """What every learner shares: the run, the optimiser, the hardware and checkpointing."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    algo: AlgoName = Field(description="Learning algorithm.")
    env: str = Field(default="math", description="Environment name (see `rlvr envs list`).")
    model: str = Field(
        default="tiny-sft",
        description="Starting policy: 'tiny', 'tiny-sft', a model folder or a hub name.",
    )
    tasks: str | None = Field(
        default=None,
        description="JSONL file naming tasks of the environment by 'id' or 'task_id' (e.g. the "
        "output of `rlvr frontier`). Default: all of the environment's tasks.",
    )
    task_filter: dict[str, str] = Field(
        default_factory=dict,
        description="Keep only tasks whose meta matches every key = value, e.g. "
        '{difficulty = "easy"}.',
    )
    split: Literal["train", "test", "all"] = Field(
        default="train",
        description="Split of the environment to train on (rlvr.splits): train, test or all.",
    )
    eval_every: int = Field(
        default=50,
        ge=0,
        description="Evaluate on the test split every N steps, and always at step 0 and at the "
        "end (0: only at step 0 and at the end).",
    )
    eval_tasks: int | None = Field(
        default=64,
        ge=0,
        description="Held-out tasks per evaluation: at most this many, a stable subset of the "
        "test split after task_filter (0: no evaluation; a number above the split's size, or "
        "None from Python, evaluates all of them).",
    )
    eval_samples: int = Field(
        default=4, ge=1, description="Answers sampled per held-out task (pass@1 is their mean)."
    )
    eval_temperature: float = Field(
        default=1.0, ge=0, description="Sampling temperature of the evaluation (0: greedy)."
    )
    steps: int = Field(default=100, ge=1, description="Optimiser steps (RL: sampling rounds).")
    lr: float = Field(1e-6, gt=0, description="AdamW lr: about 1e-6 for 0.5B+ models, 1e-4 tiny.")
    warmup_steps: int = Field(
        default=0,
        ge=0,
        description="Linear lr warm-up steps: a fresh AdamW moves every weight by about lr "
        "at first, whatever the gradient's size (a tiny warm-started model needs 5-10).",
    )
    lr_scheduler_type: Literal["constant", "linear", "cosine"] = Field(
        "constant", description="The lr after warm-up: kept, or decayed to 0 by the last step."
    )
    adam_betas: tuple[float, float] = Field(default=(0.9, 0.999), description="AdamW betas.")
    adam_epsilon: float = Field(
        default=1e-8, gt=0, description="AdamW epsilon (transformers' name for it)."
    )
    weight_decay: float = Field(default=0.0, ge=0, description="AdamW weight decay.")
    max_grad_norm: float = Field(
        default=1.0, gt=0, description="Clip the global gradient norm to this before each step."
    )
    micro_batch_size: int = Field(
        default=8, ge=1, description="Sequences per forward/backward pass (gradient accumulation)."
    )
    device: Literal["cpu", "cuda"] = Field(default="cpu", description="Where to train.")
    bf16: bool = Field(default=False, description="bf16 autocast for forward passes (GPU only).")
    gradient_checkpointing: bool = Field(
        default=False, description="Recompute activations in backward: less memory, slower."
    )
    threads: int | None = Field(
        default=None, ge=1, description="torch CPU threads (None: torch's default)."
    )
    seed: int = Field(default=0, description="Seeds torch, sampling and task order.")
    save_every: int = Field(
        default=50, ge=0, description="Checkpoint every N steps (0: only at the end)."
    )
    keep_checkpoints: int = Field(
        default=2, ge=1, description="Newest checkpoints kept on disk; older ones are removed."
    )

    @model_validator(mode="after")
    def _hardware(self) -> TrainConfig:
        if self.bf16 and self.device != "cuda":
            raise ValueError(
                f"bf16={self.bf16} needs device='cuda', got device={self.device!r}; "
                "set device = 'cuda' or bf16 = false (CPU bf16 autocast is slow for small models)"
            )
        return self


class SamplingFields(BaseModel):
    """Fields of learners that sample their own answers."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    group_size: int = Field(default=8, ge=1, description="G: answers sampled per task.")
    max_new_tokens: int = Field(default=64, ge=1, description="Completion length limit.")
    temperature: float = Field(
        default=1.0, gt=0, description="Sampling temperature (> 0: a group needs diversity)."
    )
    top_p: float = Field(default=1.0, gt=0, le=1, description="Nucleus sampling mass.")
    grade_workers: int = Field(default=4, ge=1, description="Tasks graded at once.")
    groups_file: str | None = Field(
        default=None,
        description="Train from scored groups in this JSONL store instead of sampling live.",
    )


class LearnerConfig(SamplingFields, TeacherFields, TrainConfig):
    """GRPO and RLOO: a group per task, group-relative advantages, the clipped surrogate."""

    algo: Literal["grpo", "rloo"] = Field(default="grpo", description="Learning algorithm.")
    advantage: Estimator = Field(
        default=None,
        description="Advantage estimator (default: 'grpo' for grpo, 'rloo' for rloo).",
    )
    prompts_per_step: int = Field(default=4, ge=1, description="Tasks (groups) per step.")
    inner_epochs: int = Field(
        default=1, ge=1, description="mu: passes over each batch of samples before resampling."
    )
    minibatches: int = Field(
        default=1, ge=1, description="Optimiser updates per inner epoch (the batch is split)."
    )
    clip_low: float = Field(default=0.2, gt=0, lt=1, description="epsilon: ratio floor 1-low.")
    clip_high: float = Field(
        default=0.2, gt=0, description="Ratio ceiling 1+high (DAPO's clip-higher: 0.28)."
    )
    loss_agg: Aggregation = Field(
        default="seq_mean_token_mean",
        description="How per-token losses become one number: seq_mean_token_mean (GRPO), "
        "token_mean (DAPO, TRL 'dapo'), seq_mean_token_sum_norm (Dr. GRPO).",
    )
    beta: float = Field(
        default=0.0, ge=0, description="KL penalty weight to the reference (0: no reference)."
    )
    kl_estimator: KLName = Field(
        default="k3", description="Per-token KL estimator (k3: unbiased and non-negative)."
    )
    entropy_coef: float = Field(
        default=0.0, ge=0, description="Entropy bonus weight (subtracted from the loss)."
    )
    dynamic_sampling: bool = Field(
        default=False,
        description="DAPO dynamic sampling: drop zero-variance groups and sample more tasks.",
    )
    dynamic_sampling_rounds: int = Field(
        default=3, ge=1, description="Most sampling rounds per step when refilling the batch."
    )
    async_sampling: bool = Field(
        default=False,
        description="Sample step t+1 on a copy of the weights while step t trains: answers are "
        "one update stale (the ratio to their sampling log-probs corrects for it).",
    )
    static_cache: bool | None = Field(
        default=None,
        description="Sample with a static KV cache and a compiled forward pass (transformers' "
        "cache_implementation='static'; CUDA graphs on a GPU). None: on when device is cuda.",
    )
    overlong_buffer: int = Field(
        default=0,
        ge=0,
        description="DAPO soft over-length penalty: the last N tokens before max_new_tokens "
        "cost up to `overlong_penalty` reward, linearly (0: off).",
    )
    overlong_penalty: float = Field(
        default=1.0, ge=0, description="Reward lost by an answer that reaches max_new_tokens."
    )

    @model_validator(mode="after")
    def _consistent(self) -> LearnerConfig:
        if self.algo == "rloo" and self.advantage not in (None, "rloo"):
            raise ValueError(
                f"algo='rloo' uses the leave-one-out baseline but advantage={self.advantage!r}; "
                "drop advantage or set algo = 'grpo'"
            )
        if self.algo != "ppo" and self.group_size < 2:
            raise ValueError(
                f"algo={self.algo!r} compares answers within a group but group_size="
                f"{self.group_size}; set group_size >= 2 (8 is common)"
            )
        if self.minibatches > self.batch_size:
            raise ValueError(
                f"minibatches={self.minibatches} exceeds the batch of prompts_per_step x "
                f"group_size = {self.batch_size} answers; lower minibatches"
            )
        if self.async_sampling and self.groups_file is not None:
            raise ValueError(
                f"async_sampling=True samples live but groups_file={self.groups_file!r} is set; "
                "drop one of them"
            )
        if self.overlong_buffer >= self.max_new_tokens:
            raise ValueError(
                f"overlong_buffer={self.overlong_buffer} must be below max_new_tokens="
                f"{self.max_new_tokens}; use a buffer of about a quarter of the limit"
            )
        return self

    @property
    def estimator(self) -> str:
        """The advantage estimator in use (the algorithm's default when none is set)."""
        return self.advantage or ("rloo" if self.algo == "rloo" else "grpo")

    @property
    def batch_size(self) -> int:
        """Answers per step: prompts_per_step x group_size."""
        return self.prompts_per_step * self.group_size

    @property
    def minibatch_size(self) -> int:
        """Answers per optimiser update."""
        return math.ceil(self.batch_size / self.minibatches)


class PPOConfig(LearnerConfig):
    """PPO: a learned value baseline (shared backbone or separate critic), GAE, value clipping."""

    algo: Literal["ppo"] = Field(default="ppo", description="Learning algorithm.")  # type: ignore[assignment]
    advantage: None = Field(default=None, description="PPO always uses GAE on the critic.")
    group_size: int = Field(default=4, ge=1, description="G: answers sampled per task.")
    gamma: float = Field(default=1.0, ge=0, le=1, description="Discount per token.")
    lam: float = Field(default=0.95, ge=0, le=1, description="GAE lambda.")
    vf_coef: float = Field(default=0.5, ge=0, description="Value-loss weight.")
    value_clip: float | None = Field(
        default=0.2, gt=0, description="Clip value updates to old +- this (None: no clipping)."
    )
    critic: Literal["shared", "separate"] = Field(
        default="shared",
        description="'shared': a value head on the policy's backbone; 'separate': a second "
        "copy of the starting model with its own head and optimiser.",
    )
    critic_lr: float | None = Field(
        default=None, gt=0, description="Separate critic's learning rate (default: lr)."
    )
    whiten_advantages: bool = Field(
        default=True, description="Normalise GAE advantages over the batch's valid tokens."
    )

    @model_validator(mode="after")
    def _critic(self) -> PPOConfig:
        if self.critic_lr is not None and self.critic == "shared":
            raise ValueError(
                f"critic_lr={self.critic_lr} needs critic='separate', got critic='shared'; "
                "drop critic_lr (the shared head uses lr) or set critic = 'separate'"
            )
        return self


class DPOConfig(SamplingFields, TrainConfig):
    """DPO on preference pairs built from scored groups, against a frozen reference."""

    algo: Literal["dpo"] = Field(default="dpo", description="Learning algorithm.")
    beta: float = Field(default=0.1, gt=0, description="DPO temperature on the log-ratio gap.")
    pair_margin: float = Field(
        default=0.5, ge=0, description="A pair needs chosen reward - rejected reward >= margin."
    )
    pairs_per_step: int = Field(default=8, ge=1, description="Preference pairs per update.")
    collect_tasks: int | None = Field(
        default=None,
        ge=1,
        description="Tasks sampled once at start to build pairs (None: every task).",
    )

    @model_validator(mode="after")
    def _dpo(self) -> DPOConfig:
        if self.groups_file is None and self.group_size < 2:
            raise ValueError(
                f"DPO builds pairs within a group but group_size={self.group_size}; "
                "set group_size >= 2 or give groups_file"
            )
        return self


CONFIG_CLASSES: dict[str, type[TrainConfig]] = {
    "grpo": LearnerConfig,
    "rloo": LearnerConfig,
    "ppo": PPOConfig,
    "dpo": DPOConfig,
}


def read_config_file(path: str | Path) -> dict[str, Any]:
    """A config file as a dict: TOML (.toml) or JSON (anything else)."""
    p = Path(path)
    if not p.is_file():
        raise RlvrError(f"config file {p} does not exist", "check the --config path")
    text = p.read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text) if p.suffix == ".toml" else json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as e:
        raise RlvrError(
            f"config file {p}: not valid {p.suffix.lstrip('.') or 'JSON'}: {e}",
            "fix the syntax at the position given",
        ) from None
    if not isinstance(data, dict):
        raise RlvrError(f"config file {p}: expected a table of settings, got {type(data).__name__}")
    return data


def parse_set(items: list[str]) -> dict[str, Any]:
    """`key=value` strings from the command line; values are JSON when they parse, else text."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise RlvrError(f"--set {item!r}: expected key=value", "write e.g. --set lr=1e-4")
        try:
            out[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.strip()] = raw
    return out


def build_config(*layers: dict[str, Any], where: str = "config") -> TrainConfig:
    """Merge setting layers (later wins), pick the class by `algo`, validate."""
    merged: dict[str, Any] = {}
    for layer in layers:
        merged.update({k: v for k, v in layer.items() if v is not None})
    algo = merged.setdefault("algo", "grpo")
    cls = CONFIG_CLASSES.get(algo)
    if cls is None:
        raise RlvrError(
            f"{where}: algo={algo!r} is not a learner", f"use one of {', '.join(CONFIG_CLASSES)}"
        )
    try:
        return cls.model_validate(merged)
    except ValidationError as e:
        raise RlvrError(
            format_validation_error(where, e),
            "see `rlvr train --help` and each field's description",
        ) from None


def load_config(
    path: str | Path | None = None,
    overrides: dict[str, Any] | None = None,
    saved: dict[str, Any] | None = None,
) -> TrainConfig:
    """saved run config < config file < overrides (CLI flags; None values are ignored)."""
    file_layer = read_config_file(path) if path is not None else {}
    where = str(path) if path is not None else "config"
    return build_config(saved or {}, file_layer, overrides or {}, where=where)
