"""Advantage estimators: how a scored group becomes a learning signal per sample.

Every estimator is a pure function of `rewards` shaped (groups, G) (a 1-D tensor is one group)
and an optional boolean `mask` of the same shape (True = scored). Masked samples (grader
errors, timeouts, infrastructure failures) are left out of every statistic and get advantage 0:
a sample that could not be graded is not a sample that failed.

The one decision a reader would question: GRPO divides by the *population* standard deviation
(divide by the number of scored samples) plus eps, as in the worked example that
`tests/test_advantages.py::test_seed000_grpo_example_mean_std_and_advantages` pins
([1,0,0,1,1,0,0,0] -> mean 0.375, std 0.484, A = +1.29 / -0.775). TRL and verl use the sample
standard deviation (divide by G-1), which changes the scale by sqrt(G/(G-1)); TRL's eps is 1e-4.

A group whose scored rewards are all equal gets exactly zero advantages from every estimator:
it carries no relative signal, and eps only prevents the division by zero.

| rlvr           | TRL 1.16                                 | verl `adv_estimator`             |
| -------------- | ---------------------------------------- | -------------------------------- |
| `grpo`         | GRPOTrainer `scale_rewards="group"`      | `grpo`                           |
| `dr_grpo`      | GRPOTrainer `scale_rewards="none"`       | `grpo`, no std normalisation (1) |
| `rloo`         | RLOOTrainer                              | `rloo`                           |
| `reinforce_pp` | none (`scale_rewards="batch"` is closest) | `reinforce_plus_plus_baseline`  |
| `gae`          | none (no PPOTrainer)                     | `gae`                            |

(1) `norm_adv_by_std_in_grpo=False`.

Example:
    >>> import torch
    >>> grpo(torch.tensor([1.0, 0.0, 1.0, 0.0], dtype=torch.float64)).round(decimals=3)
    tensor([ 1., -1.,  1., -1.], dtype=torch.float64)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch
from torch import Tensor

from rlvr.named import Registry

ESTIMATORS: Registry[Tensor] = Registry(
    "advantage estimator", hint=" (GAE needs values: call rlvr.advantages.gae)"
)
"""Group estimators by name: `fn(rewards (groups, G), mask (groups, G) | None) -> (groups, G)`.
Add one with `@register_estimator("name")`; configs accept every registered name."""
register_estimator = ESTIMATORS.register


def _as_groups(rewards: Tensor, mask: Tensor | None) -> tuple[Tensor, Tensor, bool]:
    """Return (rewards (groups, G), mask (groups, G), was_1d); masked rewards become 0."""
    if rewards.dim() not in (1, 2):
        raise ValueError(
            f"rewards must be shaped (G,) or (groups, G), got shape {tuple(rewards.shape)}; "
            "stack one row per prompt"
        )
    if mask is None:
        mask = torch.ones_like(rewards, dtype=torch.bool)
    if mask.shape != rewards.shape:
        raise ValueError(
            f"mask shape {tuple(mask.shape)} differs from rewards shape {tuple(rewards.shape)}; "
            "give one True/False per reward"
        )
    was_1d = rewards.dim() == 1
    if was_1d:
        rewards, mask = rewards.unsqueeze(0), mask.unsqueeze(0)
    mask = mask.bool()
    # torch.where, not multiplication: masked entries may hold NaN placeholders.
    rewards = torch.where(mask, rewards, torch.zeros_like(rewards))
    return rewards, mask, was_1d


def _restore(advantages: Tensor, was_1d: bool) -> Tensor:
    return advantages.squeeze(0) if was_1d else advantages


def _constant(rewards: Tensor, mask: Tensor, atol: float = 0.0) -> Tensor:
    """Per group: True when the scored rewards span at most `atol` (or fewer than 2 are scored)."""
    high = torch.where(mask, rewards, torch.full_like(rewards, -torch.inf)).amax(dim=-1)
    low = torch.where(mask, rewards, torch.full_like(rewards, torch.inf)).amin(dim=-1)
    few = mask.sum(dim=-1) < 2
    return few | ((high - low) <= atol)


def _centered(rewards: Tensor, mask: Tensor) -> tuple[Tensor, Tensor]:
    """r - group mean over scored entries; exact zeros for masked entries and constant groups.

    Returns (centered, count) with count (groups, 1) the number of scored samples per group.
    """
    count = mask.sum(dim=-1, keepdim=True)
    mean = rewards.sum(dim=-1, keepdim=True) / count.clamp(min=1)
    keep = mask & ~_constant(rewards, mask).unsqueeze(-1)
    return torch.where(keep, rewards - mean, torch.zeros_like(rewards)), count


def zero_variance(rewards: Tensor, mask: Tensor | None = None, atol: float = 1e-6) -> Tensor:
    """Flag groups with no relative signal: scored rewards within `atol`, or fewer than 2 scored.

    rewards, mask: (groups, G) or (G,). Returns bool (groups,) (a 0-dim tensor for one group).
    The tolerance matters for continuous rewards, where 0.3 and 0.30000001 are the same answer.
    """
    r, m, was_1d = _as_groups(rewards, mask)
    flags = _constant(r, m, atol)
    return flags.squeeze(0) if was_1d else flags


@register_estimator("grpo")
def grpo(rewards: Tensor, mask: Tensor | None = None, eps: float = 1e-6) -> Tensor:
    """GRPO: (r - group mean) / (group population std + eps). rewards: (groups, G) or (G,)."""
    r, m, was_1d = _as_groups(rewards, mask)
    centered, count = _centered(r, m)
    std = (centered.pow(2).sum(dim=-1, keepdim=True) / count.clamp(min=1)).sqrt()
    return _restore(centered / (std + eps), was_1d)


@register_estimator("dr_grpo")
def dr_grpo(rewards: Tensor, mask: Tensor | None = None) -> Tensor:
    """Dr. GRPO: r - group mean, no std division (Liu et al. 2025). rewards: (groups, G)."""
    r, m, was_1d = _as_groups(rewards, mask)
    centered, _ = _centered(r, m)
    return _restore(centered, was_1d)


@register_estimator("rloo")
def rloo(rewards: Tensor, mask: Tensor | None = None) -> Tensor:
    """Score each sample against the mean of the other scored samples. rewards: (groups, G).

    A_i = r_i - sum_{j != i} r_j / (k - 1) with k the scored count, which equals
    k / (k - 1) * (r_i - mean). A group with one scored sample has no baseline and gets 0.
    """
    r, m, was_1d = _as_groups(rewards, mask)
    centered, count = _centered(r, m)
    scale = count / (count - 1).clamp(min=1)
    return _restore(centered * scale, was_1d)


def whiten(values: Tensor, mask: Tensor | None = None, eps: float = 1e-6) -> Tensor:
    """(x - mean) / (population std + eps) over the scored entries of the whole tensor.

    Masked entries stay 0. Used for batch-level advantage normalisation (REINFORCE++, PPO).
    """
    if mask is None:
        mask = torch.ones_like(values, dtype=torch.bool)
    mask = mask.bool()
    count = mask.sum().clamp(min=1)
    x = torch.where(mask, values, torch.zeros_like(values))
    mean = x.sum() / count
    var = torch.where(mask, (x - mean).pow(2), torch.zeros_like(x)).sum() / count
    return torch.where(mask, (x - mean) / (var.sqrt() + eps), torch.zeros_like(x))


@register_estimator("reinforce_pp")
def reinforce_pp(rewards: Tensor, mask: Tensor | None = None, eps: float = 1e-6) -> Tensor:
    """REINFORCE++ with baseline: subtract the group mean, then whiten over the whole batch.

    rewards: (groups, G). The batch statistics use scored entries only; constant groups stay
    exactly 0 (the batch mean of group-centred values is 0 up to rounding). KL is not folded in
    here: REINFORCE++ v9 section 3.2 moves it to a separate loss term.
    """
    r, m, was_1d = _as_groups(rewards, mask)
    centered, _ = _centered(r, m)
    signal = m & ~_constant(r, m).unsqueeze(-1)
    # Statistics over every scored entry (constant groups count as zeros), as verl does.
    whitened = whiten(centered, m, eps)
    return _restore(torch.where(signal, whitened, torch.zeros_like(whitened)), was_1d)


def get_estimator(name: str) -> Callable[..., Tensor]:
    """Look up an estimator by name, with a message that lists the valid names."""
    return ESTIMATORS.get(name)


def rewards_tensor(
    groups: Sequence[Sequence[float | None]], dtype: torch.dtype = torch.float32
) -> tuple[Tensor, Tensor]:
    """Pack per-group reward lists (None = masked) into (rewards, mask), both (groups, G_max).

    Shorter groups are padded with masked entries, so groups of unequal size can share a batch.
    """
    width = max((len(g) for g in groups), default=0)
    rewards = torch.zeros(len(groups), width, dtype=dtype)
    mask = torch.zeros(len(groups), width, dtype=torch.bool)
    for i, group in enumerate(groups):
        for j, reward in enumerate(group):
            if reward is not None:
                rewards[i, j] = reward
                mask[i, j] = True
    return rewards, mask


def terminal_rewards(scores: Tensor, mask: Tensor) -> Tensor:
    """Place each sequence's score on its last valid token. scores: (B,), mask: (B, T) -> (B, T).

    Rows with no valid token get no reward.
    """
    mask = mask.bool()
    positions = torch.arange(mask.shape[-1], device=mask.device).expand_as(mask)
    last = torch.where(mask, positions, torch.full_like(positions, -1)).amax(dim=-1)
    out = torch.zeros(mask.shape, dtype=scores.dtype, device=scores.device)
    rows = torch.nonzero(last >= 0).squeeze(-1)
    out[rows, last[rows]] = scores[rows]
    return out


def gae(
    rewards: Tensor, values: Tensor, mask: Tensor, gamma: float = 1.0, lam: float = 0.95
) -> tuple[Tensor, Tensor]:
    """Generalised advantage estimation over response tokens (Schulman et al. 2016).

    rewards, values, mask: (B, T); rewards are per token, with the verifier's score on the last
    valid token (see `terminal_rewards`) plus any per-token shaping. Masked positions are
    skipped: the next value and the running advantage carry across them, and the value after
    the last valid token is 0 (the episode ends). Returns (advantages, returns), both (B, T),
    with returns = advantages + values and zeros at masked positions.
    With one token, gamma = lam = 1: A = R - V (0 - 0.6 = -0.6, pinned in tests/test_advantages.py).
    """
    mask = mask.bool()
    zero = torch.zeros_like(values[:, 0])
    next_value, running = zero, zero
    steps: list[Tensor] = []
    for t in reversed(range(values.shape[-1])):
        delta = rewards[:, t] + gamma * next_value - values[:, t]
        m = mask[:, t]
        running = torch.where(m, delta + gamma * lam * running, running)
        next_value = torch.where(m, values[:, t], next_value)
        steps.append(torch.where(m, running, zero))
    advantages = torch.stack(steps[::-1], dim=-1)
    returns = torch.where(mask, advantages + values, torch.zeros_like(values))
    return advantages, returns
