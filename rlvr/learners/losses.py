"""Policy-gradient, KL, value and preference losses as pure functions of tensors.

Shapes: B responses, T token positions, V vocabulary. `logp`, `old_logp`, `ref_logp` are
per-token log-probabilities of the sampled tokens, (B, T); `mask` (B, T) is True on valid
response tokens; `advantages` are (B,) (one per response, broadcast over its tokens) or (B, T).
Per-token functions return (B, T) with exact zeros at masked positions; `aggregate` reduces.

The one decision a reader would question: how per-token losses become one scalar. The three
modes weight tokens differently and are different objectives, not a logging detail (lengths 1
and 3 with advantages [1, -1] give 0 under one and 0.5 under another:
`tests/test_losses.py::test_seed004_lengths_one_and_three_give_zero_or_half_by_aggregation`).

| rlvr `aggregate` mode     | TRL GRPOTrainer `loss_type`      | verl `loss_agg_mode`      |
| ------------------------- | -------------------------------- | ------------------------- |
| `seq_mean_token_mean`     | `"grpo"`                         | `"seq-mean-token-mean"`   |
| `token_mean`              | `"dapo"` (`"bnpo"` per batch)    | `"token-mean"`            |
| `seq_mean_token_sum_norm` | `"dr_grpo"`                      | `"seq-mean-token-sum-norm"` |

TRL's `"dapo"` divides by the valid-token count of the whole generation batch across processes
and accumulation steps; `token_mean` divides by the count in the tensors it is given, so pass the
whole batch (or scale) to match. Clip names: `clip_low`/`clip_high` are TRL's
`epsilon`/`epsilon_high` and verl's `clip_ratio_low`/`clip_ratio_high`; DAPO's clip-higher is
clip_high=0.28. KL names: `k1`/`k2`/`k3` are verl's `kl_loss_type` "k1"/"k2"/"k3" ("kl"/"mse"/
"low_var_kl"); TRL's GRPO penalty (weight `beta`) is `k3`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import torch
import torch.nn.functional as F
from torch import Tensor

from rlvr.named import Registry

AggFn = TypeVar("AggFn", bound=Callable[..., Tensor])

AGGREGATIONS: Registry[Tensor] = Registry("loss aggregation", what="mode")
"""Loss aggregation modes: `fn(per_token (B, T), mask (B, T)) -> scalar`. Add one with
`@register_aggregation("name", units)`; configs accept every registered name."""
AGGREGATION_UNITS: dict[str, Callable[[Tensor], Tensor | int]] = {}
"""What each mode averages over, counted in a (B, T) mask: gradient accumulation weighs a
micro-batch by its share of these units (`rlvr.learners.batch.micro_weight`)."""


def register_aggregation(
    name: str, units: Callable[[Tensor], Tensor | int]
) -> Callable[[AggFn], AggFn]:
    """Decorator: register an aggregation mode and the units it averages over."""

    def deco(fn: AggFn) -> AggFn:
        AGGREGATIONS.register(name)(fn)
        AGGREGATION_UNITS[name] = units
        return fn

    return deco


KL_ESTIMATORS: Registry[Tensor] = Registry("KL penalty", what="estimator")
"""Per-token KL estimators: `fn(logp (B, T), ref_logp (B, T)) -> (B, T)`."""
register_kl = KL_ESTIMATORS.register


def _zero_masked(x: Tensor, mask: Tensor) -> Tensor:
    # torch.where, not multiplication: padding may hold inf/NaN, and NaN * 0 is NaN.
    return torch.where(mask.bool(), x, torch.zeros_like(x))


def _per_token(advantages: Tensor, like: Tensor) -> Tensor:
    """Broadcast (B,) sequence advantages over tokens; (B, T) passes through."""
    return advantages.unsqueeze(-1) if advantages.dim() == like.dim() - 1 else advantages


def importance_ratio(logp: Tensor, old_logp: Tensor, mask: Tensor | None = None) -> Tensor:
    """ratio = exp(logp - old_logp), (B, T); 1 at masked positions. old_logp is detached."""
    log_ratio = logp - old_logp.detach()
    if mask is not None:
        log_ratio = _zero_masked(log_ratio, mask)
    return log_ratio.exp()


def clipped_surrogate(
    logp: Tensor,
    old_logp: Tensor,
    advantages: Tensor,
    mask: Tensor,
    clip_low: float = 0.2,
    clip_high: float = 0.2,
) -> Tensor:
    """PPO/GRPO clipped surrogate per token: -min(ratio * A, clip(ratio, 1-low, 1+high) * A).

    logp (B, T) carries the gradient; old_logp (B, T) is the log-probability at sampling time
    and is treated as a constant (detached here). Why it must be a constant: the ratio is 1 in
    value on the first update, but its gradient is ratio * d logp/d theta. Writing logp - logp
    subtracts the same graph from itself, so the gradient cancels to exactly 0 and nothing
    learns (tests/test_losses.py pins it). When a batch is reused for several epochs, keep the
    original old_logp; do not refresh it each pass. advantages: (B,) or (B, T). Returns (B, T),
    0 where masked.
    A token whose ratio is past 1+clip_high with A > 0 (or below 1-clip_low with A < 0) sits on
    the plateau and gets zero gradient.
    """
    ratio = importance_ratio(logp, old_logp, mask)
    adv = _per_token(advantages, ratio)
    clipped = ratio.clamp(1.0 - clip_low, 1.0 + clip_high)
    return _zero_masked(-torch.minimum(ratio * adv, clipped * adv), mask)


@register_aggregation("seq_mean_token_mean", units=lambda mask: mask.any(-1).sum())
def seq_mean_token_mean(per_token: Tensor, mask: Tensor) -> Tensor:
    """Mean over each response's valid tokens, then mean over responses with any valid token.

    Every response weighs the same, so a token of a long answer weighs less (GRPO, Shao et al.
    2024, eq. 3).
    """
    mask = mask.bool()
    counts = mask.sum(dim=-1)
    per_seq = _zero_masked(per_token, mask).sum(dim=-1) / counts.clamp(min=1)
    has_tokens = counts > 0
    return _zero_masked(per_seq, has_tokens).sum() / has_tokens.sum().clamp(min=1)


@register_aggregation("token_mean", units=lambda mask: mask.sum())
def token_mean(per_token: Tensor, mask: Tensor) -> Tensor:
    """Sum over all valid tokens / number of valid tokens: every token weighs the same (DAPO)."""
    return _zero_masked(per_token, mask).sum() / mask.bool().sum().clamp(min=1)


@register_aggregation("seq_mean_token_sum_norm", units=lambda mask: mask.shape[0])
def seq_mean_token_sum_norm(per_token: Tensor, mask: Tensor, max_len: int | None = None) -> Tensor:
    """Sum per response / a constant max_len, then mean over the B responses (Dr. GRPO).

    The constant divisor removes the length bias of per-response averaging. max_len defaults
    to T; keep it fixed across training (the generation limit) so the loss scale is stable.
    """
    length = per_token.shape[-1] if max_len is None else max_len
    if length <= 0:
        raise ValueError(f"seq_mean_token_sum_norm: max_len must be positive, got {max_len}")
    per_seq = _zero_masked(per_token, mask).sum(dim=-1) / length
    return per_seq.mean()


def aggregate(per_token: Tensor, mask: Tensor, mode: str, max_len: int | None = None) -> Tensor:
    """Reduce a (B, T) per-token loss to a scalar by the named mode (see the module table).

    max_len is the constant divisor of seq_mean_token_sum_norm and is refused by other modes.
    """
    fn = AGGREGATIONS.get(mode)
    if mode == "seq_mean_token_sum_norm":
        return seq_mean_token_sum_norm(per_token, mask, max_len)
    if max_len is not None:
        raise ValueError(
            f"aggregate: max_len={max_len} has no effect in mode {mode!r}; "
            "drop it or use mode 'seq_mean_token_sum_norm'"
        )
    return fn(per_token, mask)


@register_kl("k1")
def k1(logp: Tensor, ref_logp: Tensor) -> Tensor:
    """log pi/pi_ref per token: unbiased for KL(pi || pi_ref) under samples from pi, can be < 0."""
    return logp - ref_logp


@register_kl("k2")
def k2(logp: Tensor, ref_logp: Tensor) -> Tensor:
    """0.5 (log pi/pi_ref)^2 per token: non-negative, low variance, biased (Schulman 2020)."""
    return 0.5 * (logp - ref_logp).pow(2)


@register_kl("k3")
def k3(logp: Tensor, ref_logp: Tensor) -> Tensor:
    """exp(ref - logp) - (ref - logp) - 1 per token: unbiased and non-negative (Schulman 2020).

    Zero exactly when the policies agree on the token, since e^x >= 1 + x.
    """
    d = ref_logp - logp
    return d.exp() - d - 1.0


def kl_penalty(
    logp: Tensor, ref_logp: Tensor, kind: str = "k3", mask: Tensor | None = None
) -> Tensor:
    """Per-token KL estimate (B, T) between the policy and the reference; 0 where masked."""
    estimate = KL_ESTIMATORS.get(kind)
    if mask is None:
        return estimate(logp, ref_logp)
    safe_ref = torch.where(mask.bool(), ref_logp, logp.detach())
    return _zero_masked(estimate(logp, safe_ref), mask)


def entropy_from_logits(logits: Tensor) -> Tensor:
    """Entropy of the next-token distribution per position: logits (B, T, V) -> (B, T).

    -inf logits (banned tokens) contribute 0, as in torch.distributions.Categorical.
    """
    logp = F.log_softmax(logits, dim=-1)
    finite = logp.clamp(min=torch.finfo(logp.dtype).min)
    return -(logp.exp() * finite).sum(dim=-1)


def clip_fractions(
    ratio: Tensor,
    advantages: Tensor,
    mask: Tensor,
    clip_low: float = 0.2,
    clip_high: float = 0.2,
) -> tuple[Tensor, Tensor]:
    """Share of valid tokens on each clipping plateau (zero gradient): (low_frac, high_frac).

    low: ratio < 1 - clip_low with A < 0; high: ratio > 1 + clip_high with A > 0. Scalars,
    detached; names follow TRL's clip_ratio/low_mean and clip_ratio/high_mean metrics.
    """
    ratio, mask = ratio.detach(), mask.bool()
    adv = _per_token(advantages.detach(), ratio)
    low = (ratio < 1.0 - clip_low) & (adv < 0) & mask
    high = (ratio > 1.0 + clip_high) & (adv > 0) & mask
    n = mask.sum().clamp(min=1)
    return low.sum() / n, high.sum() / n


def dpo_loss(
    policy_chosen_logp: Tensor,
    policy_rejected_logp: Tensor,
    ref_chosen_logp: Tensor,
    ref_rejected_logp: Tensor,
    beta: float = 0.1,
) -> tuple[Tensor, Tensor, Tensor]:
    """DPO (Rafailov et al. 2023): -log sigmoid(beta * (delta_w - delta_l)), per pair.

    Inputs are sequence log-probabilities (B,) (token log-probs summed over the response);
    delta = policy - ref for the chosen (w) and rejected (l) answer. Returns (losses (B,),
    chosen_rewards (B,), rejected_rewards (B,)); the implicit rewards beta * delta are
    detached, for logging. A lower loss does not mean a likelier chosen answer: only chosen
    relative to rejected, each relative to the reference.
    """
    delta_w = policy_chosen_logp - ref_chosen_logp
    delta_l = policy_rejected_logp - ref_rejected_logp
    losses = -F.logsigmoid(beta * (delta_w - delta_l))
    return losses, (beta * delta_w).detach(), (beta * delta_l).detach()


def value_loss(
    values: Tensor,
    old_values: Tensor,
    returns: Tensor,
    mask: Tensor,
    clip: float | None = 0.2,
) -> Tensor:
    """PPO value loss per token (B, T): 0.5 * max((V - R)^2, (V_old + clip(V - V_old) - R)^2).

    values carry the gradient; old_values are the critic's values at sampling time (detached
    here). clip=None gives the plain squared error. 0 where masked.
    """
    old_values = old_values.detach()
    unclipped = (values - returns).pow(2)
    if clip is None:
        return _zero_masked(0.5 * unclipped, mask)
    clipped_values = old_values + (values - old_values).clamp(-clip, clip)
    clipped = (clipped_values - returns).pow(2)
    return _zero_masked(0.5 * torch.maximum(unclipped, clipped), mask)
