"""Advantage estimators against the seeds' worked numbers, hand loops and masking rules."""

from __future__ import annotations

import math

import pytest
import torch

from rlvr.advantages import (
    ESTIMATORS,
    dr_grpo,
    gae,
    get_estimator,
    grpo,
    register_estimator,
    reinforce_pp,
    rewards_tensor,
    rloo,
    terminal_rewards,
    whiten,
    zero_variance,
)
from rlvr.errors import RlvrError

F64 = torch.float64


def t(values: list) -> torch.Tensor:
    return torch.tensor(values, dtype=F64)


def test_seed000_grpo_example_mean_std_and_advantages() -> None:
    rewards = t([1, 0, 0, 1, 1, 0, 0, 0])
    assert rewards.mean().item() == 0.375
    assert round(rewards.std(unbiased=False).item(), 3) == 0.484
    adv = grpo(rewards)
    assert round(adv[0].item(), 2) == 1.29
    assert round(adv[1].item(), 3) == -0.775
    passed = adv[rewards == 1]
    failed = adv[rewards == 0]
    assert torch.allclose(passed, torch.full_like(passed, 0.625 / math.sqrt(0.375 * 0.625)))
    assert torch.allclose(failed, torch.full_like(failed, -0.375 / math.sqrt(0.375 * 0.625)))


def test_seed004_grpo_one_zero_one_zero_gives_about_plus_minus_one() -> None:
    adv = grpo(t([1, 0, 1, 0]))
    assert torch.allclose(adv, t([1, -1, 1, -1]), atol=1e-5)
    # mu = sigma = 0.5 exactly; eps shrinks the unit advantages by 0.5 / (0.5 + eps).
    assert adv[0].item() == pytest.approx(0.5 / (0.5 + 1e-6), abs=1e-15)


def test_grpo_uses_population_std_not_sample_std() -> None:
    rewards = t([1, 0, 0, 1, 1, 0, 0, 0])
    adv = grpo(rewards, eps=0.0)
    pop = (rewards - rewards.mean()) / rewards.std(unbiased=False)
    sample = (rewards - rewards.mean()) / rewards.std(unbiased=True)
    assert torch.allclose(adv, pop)
    assert not torch.allclose(adv, sample)


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
@pytest.mark.parametrize("value", [0.0, 1.0, 0.1, 0.7])
def test_equal_rewards_give_exact_zeros_and_are_flagged(name: str, value: float) -> None:
    rewards = torch.full((2, 3), value, dtype=F64)
    adv = ESTIMATORS[name](rewards)
    assert torch.equal(adv, torch.zeros_like(rewards))
    assert zero_variance(rewards).tolist() == [True, True]


def test_zero_variance_tolerance_for_continuous_rewards() -> None:
    rewards = t([[0.3, 0.3 + 1e-9, 0.3], [0.3, 0.4, 0.3], [1.0, 0.0, 1.0]])
    assert zero_variance(rewards).tolist() == [True, False, False]
    assert zero_variance(rewards, atol=0.0).tolist() == [False, False, False]
    assert zero_variance(rewards, atol=0.2).tolist() == [True, True, False]


def test_zero_variance_ignores_masked_samples_and_flags_lone_scored_sample() -> None:
    rewards = t([[1, 0, 1], [1, 0, 0]])
    mask = torch.tensor([[True, False, True], [True, False, False]])
    assert zero_variance(rewards, mask).tolist() == [True, True]
    assert bool(zero_variance(t([1, 0]))) is False


def test_rloo_matches_hand_leave_one_out() -> None:
    rewards = t([1.0, 0.0, 0.5, 0.0])
    expected = [r - (sum(rewards.tolist()) - r) / 3 for r in rewards.tolist()]
    assert torch.allclose(rloo(rewards), t(expected))
    # r=1: 1 - (0 + 0.5 + 0)/3 = 5/6
    assert rloo(rewards)[0].item() == pytest.approx(5 / 6)


def test_rloo_group_with_one_scored_sample_gets_zero() -> None:
    rewards = t([[1.0, 0.0, 0.0]])
    mask = torch.tensor([[True, False, False]])
    assert torch.equal(rloo(rewards, mask), torch.zeros_like(rewards))


def test_dr_grpo_subtracts_mean_without_scaling() -> None:
    rewards = t([1, 0, 0, 1, 1, 0, 0, 0])
    assert torch.allclose(dr_grpo(rewards), rewards - 0.375)


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_masked_sample_is_left_out_not_counted_as_zero(name: str) -> None:
    fn = ESTIMATORS[name]
    masked = fn(t([[1, 0, float("nan")]]), torch.tensor([[True, True, False]]))
    as_zero = fn(t([[1, 0, 0]]))
    two = fn(t([[1, 0]]))
    assert masked[0, 2].item() == 0.0
    assert torch.allclose(masked[0, :2], two[0])
    assert not torch.allclose(masked, as_zero)


def test_masked_grpo_by_hand() -> None:
    # [1, 0, masked]: mean 0.5, std 0.5 -> [+1, -1, 0]; [1, 0, 0]: mean 1/3 -> different.
    adv = grpo(t([1, 0, 0]), torch.tensor([True, True, False]), eps=0.0)
    assert adv.tolist() == [1.0, -1.0, 0.0]
    unmasked = grpo(t([1, 0, 0]), eps=0.0)
    assert unmasked[0].item() == pytest.approx((2 / 3) / math.sqrt(2 / 9))


def test_one_dimensional_input_is_one_group() -> None:
    rewards = t([1, 0, 0, 1])
    for fn in ESTIMATORS.values():
        assert torch.equal(fn(rewards), fn(rewards.unsqueeze(0))[0])


def loop_estimate(name: str, rewards: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Per-group Python loop, written from the formulas, independent of the vectorised code."""
    out = torch.zeros_like(rewards)
    centered_all: list[tuple[int, int, float, bool]] = []
    for g in range(rewards.shape[0]):
        idx = [j for j in range(rewards.shape[1]) if mask[g, j]]
        vals = [rewards[g, j].item() for j in idx]
        k = len(vals)
        if k < 2 or max(vals) == min(vals):
            centered_all += [(g, j, 0.0, False) for j in idx]
            continue
        mean = sum(vals) / k
        std = math.sqrt(sum((v - mean) ** 2 for v in vals) / k)
        for j, v in zip(idx, vals, strict=True):
            if name == "grpo":
                out[g, j] = (v - mean) / (std + 1e-6)
            elif name == "dr_grpo":
                out[g, j] = v - mean
            elif name == "rloo":
                out[g, j] = v - (sum(vals) - v) / (k - 1)
            centered_all.append((g, j, v - mean, True))
    if name == "reinforce_pp":
        xs = [c for _, _, c, _ in centered_all]
        mean = sum(xs) / len(xs)
        std = math.sqrt(sum((x - mean) ** 2 for x in xs) / len(xs))
        for g, j, c, signal in centered_all:
            out[g, j] = (c - mean) / (std + 1e-6) if signal else 0.0
    return out


@pytest.mark.parametrize("name", sorted(ESTIMATORS))
def test_vectorised_estimator_equals_per_group_loop(name: str) -> None:
    gen = torch.Generator().manual_seed(7)
    rewards = torch.randint(0, 3, (16, 6), generator=gen).to(F64) / 2
    rewards[3] = 0.5  # a constant group
    mask = torch.rand(16, 6, generator=gen, dtype=F64) > 0.2
    mask[5] = False
    mask[5, 0] = True  # a group with one scored sample
    got = ESTIMATORS[name](rewards, mask)
    assert torch.allclose(got, loop_estimate(name, rewards, mask), atol=1e-12)


def test_reinforce_pp_normalises_over_the_whole_batch() -> None:
    rewards = t([[1, 0, 0, 0], [1, 0, 1, 0]])
    adv = reinforce_pp(rewards, eps=0.0)
    centered = rewards - rewards.mean(dim=1, keepdim=True)
    expected = (centered - centered.mean()) / centered.std(unbiased=False)
    assert torch.allclose(adv, expected)
    assert adv.std(unbiased=False).item() == pytest.approx(1.0)
    # Not the same as per-group scaling: the two groups share one std.
    assert not torch.allclose(adv, grpo(rewards, eps=0.0))


def test_whiten_keeps_masked_entries_zero() -> None:
    x = t([1.0, 2.0, 3.0, 100.0])
    mask = torch.tensor([True, True, True, False])
    out = whiten(x, mask, eps=0.0)
    assert out[3].item() == 0.0
    assert torch.allclose(out[:3], t([-1, 0, 1]) / math.sqrt(2 / 3))


def test_seed004_ppo_one_step_advantage_is_reward_minus_value() -> None:
    adv, ret = gae(t([[0.0]]), t([[0.6]]), torch.tensor([[True]]), gamma=1.0, lam=1.0)
    assert adv.item() == pytest.approx(-0.6)
    assert ret.item() == pytest.approx(0.0)


def gae_hand_loop(rewards, values, mask, gamma, lam):
    """GAE per sequence over the valid tokens only, straight from the definition."""
    adv = torch.zeros_like(values)
    for b in range(values.shape[0]):
        idx = [t for t in range(values.shape[1]) if mask[b, t]]
        running = 0.0
        for pos in reversed(range(len(idx))):
            t_now = idx[pos]
            v_next = values[b, idx[pos + 1]].item() if pos + 1 < len(idx) else 0.0
            delta = rewards[b, t_now].item() + gamma * v_next - values[b, t_now].item()
            running = delta + gamma * lam * running
            adv[b, t_now] = running
    return adv


def test_gae_equals_hand_loop_with_padding_and_holes() -> None:
    gen = torch.Generator().manual_seed(3)
    values = torch.rand(5, 7, generator=gen, dtype=F64)
    mask = torch.ones(5, 7, dtype=torch.bool)
    mask[0, 4:] = False  # right padding
    mask[1, 2:4] = False  # a hole (e.g. tool output not generated by the policy)
    mask[2] = False  # an empty row
    scores = t([1.0, 0.0, 1.0, 0.5, 1.0])
    rewards = terminal_rewards(scores, mask) - 0.01 * mask.to(F64)  # plus per-token shaping
    adv, ret = gae(rewards, values, mask, gamma=0.99, lam=0.9)
    assert torch.allclose(adv, gae_hand_loop(rewards, values, mask, 0.99, 0.9), atol=1e-12)
    assert torch.allclose(ret, (adv + values) * mask)
    assert torch.equal(adv[2], torch.zeros(7, dtype=F64))


def test_gae_with_lambda_one_is_reward_to_go_minus_value() -> None:
    values = t([[0.2, 0.5, 0.9]])
    mask = torch.ones(1, 3, dtype=torch.bool)
    rewards = terminal_rewards(t([1.0]), mask)
    adv, ret = gae(rewards, values, mask, gamma=1.0, lam=1.0)
    assert torch.allclose(ret, t([[1.0, 1.0, 1.0]]))
    assert torch.allclose(adv, t([[0.8, 0.5, 0.1]]))


def test_terminal_rewards_lands_on_last_valid_token() -> None:
    mask = torch.tensor([[1, 1, 0, 0], [1, 0, 1, 0], [0, 0, 0, 0]], dtype=torch.bool)
    out = terminal_rewards(t([2.0, 3.0, 4.0]), mask)
    assert out.tolist() == [[0, 2, 0, 0], [0, 0, 3, 0], [0, 0, 0, 0]]


def test_rewards_tensor_masks_none_and_pads_short_groups() -> None:
    rewards, mask = rewards_tensor([[1.0, None, 0.0], [0.5]], dtype=F64)
    assert rewards.tolist() == [[1.0, 0.0, 0.0], [0.5, 0.0, 0.0]]
    assert mask.tolist() == [[True, False, True], [True, False, False]]


def test_unknown_estimator_name_lists_the_valid_ones() -> None:
    with pytest.raises(RlvrError, match="unknown name 'ppo'.*grpo, dr_grpo, rloo, reinforce_pp"):
        get_estimator("ppo")
    assert get_estimator("rloo") is rloo


def test_bad_shapes_are_rejected_with_the_shapes_given() -> None:
    with pytest.raises(ValueError, match=r"got shape \(2, 2, 2\)"):
        grpo(torch.zeros(2, 2, 2))
    with pytest.raises(ValueError, match=r"mask shape \(3,\) differs from rewards shape \(4,\)"):
        grpo(torch.zeros(4), torch.ones(3, dtype=torch.bool))


def test_a_registered_estimator_is_one_edit_and_a_taken_name_is_refused() -> None:
    from rlvr.learners.config import LearnerConfig
    from rlvr.learners.losses import AGGREGATIONS, register_aggregation
    from rlvr.rollout import RolloutConfig

    with pytest.raises(RlvrError, match="'grpo' is registered twice: rlvr.advantages.grpo"):
        register_estimator("grpo")(rloo)
    with pytest.raises(RlvrError, match="'token_mean' is registered twice"):
        register_aggregation("token_mean", units=lambda mask: mask.sum())(grpo)

    @register_estimator("test_zero")
    def zero(rewards: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        return torch.zeros_like(rewards)

    try:
        cfg = LearnerConfig(env="math", model="tiny", advantage="test_zero")
        assert get_estimator(cfg.estimator) is zero
        assert RolloutConfig(estimator="test_zero").estimator == "test_zero"
    finally:
        del ESTIMATORS._items["test_zero"]
    with pytest.raises(ValueError, match="unknown name 'test_zero'"):
        LearnerConfig(env="math", model="tiny", advantage="test_zero")
    assert list(AGGREGATIONS) == ["seq_mean_token_mean", "token_mean", "seq_mean_token_sum_norm"]
