"""On-policy distillation: a teacher scores the student's own samples, token by token.

The student samples as in GRPO (single answers or whole episodes); a teacher that shares its
tokenizer scores every sampled token, and each token's advantage becomes

    A_t = reward_weight * A_group + teacher_weight * (log p_teacher(x_t) - log p_student(x_t))

where the second term is minus the per-token reverse KL, estimated on the student's own
sample (on-policy distillation: Agarwal et al., "On-Policy Distillation of Language Models:
Learning from Self-Generated Mistakes" (GKD), 2024; Thinking Machines, "On-Policy Distillation",
2025). The clipped surrogate then pushes up the tokens the teacher likes more than the
student does and pushes down the rest; the environment's tokens of an episode stay masked.
`reward_weight = 0` is pure distillation (every group trains, even one of equal rewards);
both weights mix the teacher's signal with the verifiable reward.

When to use which: SFT on verified episodes (`rlvr sft --episodes`) teaches a format the
student never produces (it trains on the teacher's tokens); on-policy distillation corrects the
student where it actually goes (its own samples), with a dense per-token signal, once it
produces something the teacher can score; GRPO alone needs rewards that vary within a group.
"""

from __future__ import annotations

from typing import Any

import torch

from rlvr.errors import RlvrError
from rlvr.learners.batch import TokenBatch, score
from rlvr.learners.common import frozen_copy
from rlvr.learners.config import LearnerConfig
from rlvr.models import resolve_model
from rlvr.policies.hf import load_tokenizer


def load_teacher(cfg: LearnerConfig, tokenizer: Any, device: torch.device) -> torch.nn.Module:
    """The frozen teacher; refused unless it reads the student's token ids the same way."""
    assert cfg.teacher is not None
    theirs = load_tokenizer(resolve_model(cfg.teacher)).get_vocab()
    if theirs != tokenizer.get_vocab():
        raise RlvrError(
            f"teacher {cfg.teacher!r} does not share the student's tokenizer ({len(theirs)} vs "
            f"{len(tokenizer.get_vocab())} tokens): it cannot score the student's token ids",
            "pick a teacher of the student's family (same tokenizer), or distil from its "
            "episodes with `rlvr sft --episodes`",
        )
    return frozen_copy(cfg.teacher, cfg, device)


def distil_advantages(batch: TokenBatch, teacher_logp: torch.Tensor, cfg: LearnerConfig) -> None:
    """Replace the batch's advantages with the mix above (per token, masked), and keep the
    per-token reverse KL estimate for the metrics (`per_token["reverse_kl"]`)."""
    mask = batch.completion_mask
    rkl = torch.where(mask, batch.old_logp - teacher_logp, torch.zeros_like(teacher_logp))
    group = batch.advantages
    if group.dim() == 1:
        group = group[:, None].expand_as(rkl)
    mixed = cfg.reward_weight * group - cfg.teacher_weight * rkl
    batch.advantages = torch.where(mask, mixed, torch.zeros_like(mixed))
    batch.per_token["reverse_kl"] = rkl


def mean_reverse_kl(batch: TokenBatch) -> float | None:
    """The step's mean per-token reverse KL to the teacher (None without a teacher)."""
    rkl = batch.per_token.get("reverse_kl")
    if rkl is None:
        return None
    n = batch.completion_mask.sum()
    return float(rkl.sum() / n.clamp(min=1))


def teacher_scores(teacher: torch.nn.Module, batch: TokenBatch, cfg: LearnerConfig) -> torch.Tensor:
    """The teacher's log-probabilities of the student's sampled tokens (no gradient)."""
    with torch.no_grad():
        return score(teacher, batch, cfg.temperature, cfg.micro_batch_size)
