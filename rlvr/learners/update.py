"""One optimiser update of the clipped-surrogate learners (GRPO, RLOO, PPO's policy half).

`policy_update` runs the micro-batches of one minibatch (forward, loss, backward), then clips
the gradient and steps: the inner body of every learner's loop. Loss terms come from
`rlvr.learners.losses`; this module only wires them and sums the statistics for the step's
metrics row.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import torch
from torch import Tensor

from rlvr.distributed.torch_dist import all_reduce_gradients
from rlvr.errors import TrainingError
from rlvr.learners.batch import TokenBatch, forward, micro_weight
from rlvr.learners.config import LearnerConfig
from rlvr.learners.losses import aggregate, clip_fractions, clipped_surrogate, importance_ratio
from rlvr.learners.losses import kl_penalty as kl_per_token

ExtraLoss = Callable[[TokenBatch, "torch.Tensor | None"], tuple[Tensor, dict[str, float]]]


@dataclass
class UpdateStats:
    """Sums over micro-batches and updates; `row()` gives the step's means.

    Values may be detached tensors: they are summed where they live and read once in `row()`,
    so a GPU update does not wait for the host after every micro-batch.
    """

    sums: dict[str, float | Tensor] = field(default_factory=dict)
    counts: dict[str, float | Tensor] = field(default_factory=dict)

    def add(self, name: str, value: float | Tensor, weight: float | Tensor = 1.0) -> None:
        if isinstance(value, Tensor):
            value = value.detach()
        self.sums[name] = self.sums.get(name, 0.0) + value * weight
        self.counts[name] = self.counts.get(name, 0.0) + weight

    def row(self) -> dict[str, float]:
        out = {}
        for k, total in self.sums.items():
            count = float(self.counts[k])
            if count > 0:
                out[k] = float(total) / count
        return out


def _agg(x: Tensor, mask: Tensor, cfg: LearnerConfig) -> Tensor:
    max_len = cfg.max_new_tokens if cfg.loss_agg == "seq_mean_token_sum_norm" else None
    return aggregate(x, mask, cfg.loss_agg, max_len)


def micro_loss(
    model: torch.nn.Module,
    mb: TokenBatch,
    cfg: LearnerConfig,
    stats: UpdateStats,
    hidden: bool = False,
    kl_in_loss: bool = True,
) -> tuple[Tensor, Tensor | None]:
    """Policy loss of one micro-batch (unweighted): surrogate + beta KL - entropy bonus.

    kl_in_loss=False measures the KL but leaves it out of the loss (PPO puts it in the reward).
    Returns (loss, last-layer hidden states when `hidden`, for a value head).
    """
    mask = mb.completion_mask
    out = forward(
        model, mb, cfg.temperature, entropy="grad" if cfg.entropy_coef else "value", hidden=hidden
    )
    per_token = clipped_surrogate(
        out.logp, mb.old_logp, mb.advantages, mask, cfg.clip_low, cfg.clip_high
    )
    pg = _agg(per_token, mask, cfg)
    loss = pg
    n_tok = mask.sum()
    if cfg.beta > 0 and mb.ref_logp is not None:
        kl = _agg(kl_per_token(out.logp, mb.ref_logp, cfg.kl_estimator, mask), mask, cfg)
        if kl_in_loss:
            loss = loss + cfg.beta * kl
        stats.add("kl", kl, n_tok)
    assert out.entropy is not None
    ent = _agg(out.entropy, mask, cfg)
    if cfg.entropy_coef:
        loss = loss - cfg.entropy_coef * ent
    with torch.no_grad():
        ratio = importance_ratio(out.logp, mb.old_logp, mask)
        low, high = clip_fractions(ratio, mb.advantages, mask, cfg.clip_low, cfg.clip_high)
        log_ratio = torch.where(mask, out.logp - mb.old_logp, torch.zeros_like(out.logp))
        # masked positions hold exp(0) - 1 - 0 = 0: sum / count is the mean over valid tokens
        approx_kl = (log_ratio.exp() - 1 - log_ratio).sum() / n_tok.clamp(min=1)
    stats.add("policy_loss", pg, n_tok)
    stats.add("entropy", ent, n_tok)
    stats.add("clip_frac_low", low, n_tok)
    stats.add("clip_frac_high", high, n_tok)
    stats.add("approx_kl", approx_kl, n_tok)
    return loss, out.hidden


def contributing(minibatch: TokenBatch, cfg: LearnerConfig, policy_only: bool) -> TokenBatch:
    """The rows that can move the weights: without a KL, an entropy bonus or an extra term,
    an answer whose advantage is 0 everywhere (a zero-variance group) has exactly zero gradient.

    Skipping it saves its forward and backward pass; the loss denominators still count it
    (`micro_weight` is taken against the whole minibatch), so the update is unchanged. The
    step's entropy and clip figures then cover the contributing answers only.
    """
    if not policy_only or cfg.beta > 0 or cfg.entropy_coef > 0:
        return minibatch
    keep = (minibatch.advantages != 0).reshape(len(minibatch), -1).any(-1)
    return minibatch if bool(keep.all()) else minibatch.select(keep.nonzero().squeeze(-1))


def policy_update(
    model: torch.nn.Module,
    opt: torch.optim.Optimizer,
    minibatch: TokenBatch,
    cfg: LearnerConfig,
    stats: UpdateStats,
    autocast: Callable[[], object],
    extra: ExtraLoss | None = None,
    params: list[torch.nn.Parameter] | None = None,
    kl_in_loss: bool = True,
) -> float:
    """Accumulate gradients over micro-batches, clip, step. Returns the pre-clip grad norm.

    A non-finite norm skips the step (counted as `skipped_updates`), as AMP's scaler does.

    `extra(micro_batch, hidden)` adds a loss term (PPO's value loss on the shared backbone);
    it is weighted like the policy loss.
    """
    opt.zero_grad(set_to_none=True)
    params = params if params is not None else [p for p in model.parameters() if p.requires_grad]
    for mb in contributing(minibatch, cfg, extra is None).chunks(cfg.micro_batch_size):
        weight = micro_weight(cfg.loss_agg, mb.completion_mask, minibatch.completion_mask)
        with autocast():  # type: ignore[attr-defined]
            loss, hidden = micro_loss(model, mb, cfg, stats, extra is not None, kl_in_loss)
            if extra is not None:
                extra_loss, _ = extra(mb, hidden)
                loss = loss + extra_loss
        (loss * weight).backward()
    all_reduce_gradients(params)  # torchrun: average over ranks; one process: a no-op
    norm = float(torch.nn.utils.clip_grad_norm_(params, cfg.max_grad_norm))
    if math.isfinite(norm):
        opt.step()
        stats.add("grad_norm", norm)  # its count is the step's applied updates
    else:
        # one NaN or inf gradient would make every weight NaN (seen once in bf16 on a GPU):
        # the update is dropped, the weights stay as they were, and the step's row counts it
        opt.zero_grad(set_to_none=True)
        stats.add("skipped_updates", 1.0)
    return norm


class NonFiniteStreak:
    """Stops a run whose updates keep failing: `limit` steps in a row with every update
    skipped for a non-finite gradient mean the run no longer learns anything."""

    def __init__(self, limit: int = 3) -> None:
        self.limit = limit
        self.streak = 0

    def check(self, row: dict[str, object]) -> None:
        skipped = row.get("skipped_updates") or 0
        self.streak = self.streak + 1 if skipped and not row.get("updates") else 0
        if self.streak >= self.limit:
            raise TrainingError(
                f"step {row.get('step')}: {self.streak} steps in a row had only non-finite "
                "gradients (NaN or inf), so no update was applied",
                fix="lower lr, keep max_grad_norm set, or train with bf16 = false; the "
                "checkpoint before these steps is unchanged",
            )
