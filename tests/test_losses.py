"""Losses against the seeds' worked numbers (float64), hand formulas and gradient checks."""

from __future__ import annotations

import math

import pytest
import torch

from rlvr.errors import RlvrError
from rlvr.learners.losses import (
    AGGREGATIONS,
    KL_ESTIMATORS,
    aggregate,
    clip_fractions,
    clipped_surrogate,
    dpo_loss,
    entropy_from_logits,
    importance_ratio,
    k1,
    k2,
    k3,
    kl_penalty,
    seq_mean_token_mean,
    seq_mean_token_sum_norm,
    token_mean,
    value_loss,
)

F64 = torch.float64


def t(values: list) -> torch.Tensor:
    return torch.tensor(values, dtype=F64)


def two_answer_policy(theta: torch.Tensor) -> torch.Tensor:
    """Two answers A and B, p(A) = sigmoid(theta); per-token logp shaped (B=2, T=1)."""
    logits = torch.stack((theta, torch.zeros_like(theta)))
    return logits.log_softmax(dim=-1).unsqueeze(-1)


OLD_LOGP = torch.full((2, 1), math.log(0.5), dtype=F64)
ADV = t([1.0, -1.0])
FULL = torch.ones(2, 1, dtype=torch.bool)


def grpo_loss(theta: torch.Tensor, mode: str = "seq_mean_token_mean") -> torch.Tensor:
    per_token = clipped_surrogate(two_answer_policy(theta), OLD_LOGP, ADV, FULL)
    return aggregate(per_token, FULL, mode)


@pytest.mark.parametrize("mode", sorted(AGGREGATIONS))
def test_seed004_zero_loss_still_has_gradient_minus_half(mode: str) -> None:
    theta = torch.tensor(0.0, dtype=F64, requires_grad=True)
    loss = grpo_loss(theta, mode)
    loss.backward()
    # One token per answer: every aggregation mode is the seed's mean over the two answers.
    assert abs(loss.item()) < 1e-12
    assert abs(theta.grad.item() + 0.5) < 1e-12


@pytest.mark.parametrize("theta_value", [-0.3, -0.1, 0.05, 0.2, 0.35])
def test_seed004_loss_equals_one_minus_two_sigmoid_inside_the_clip_range(
    theta_value: float,
) -> None:
    # |ratio - 1| = |2 sigmoid(theta) - 1| < 0.2 here, so no clipping is active.
    theta = torch.tensor(theta_value, dtype=F64)
    expected = 1 - 2 * torch.sigmoid(theta).item()
    assert grpo_loss(theta).item() == pytest.approx(expected, abs=1e-12)


def test_seed004_one_sgd_step_moves_theta_to_0_1_and_p_a_to_0_525() -> None:
    theta = torch.tensor(0.0, dtype=F64, requires_grad=True)
    optimizer = torch.optim.SGD([theta], lr=0.2)
    grpo_loss(theta).backward()
    optimizer.step()
    assert theta.item() == pytest.approx(0.1, abs=1e-12)
    p_a = torch.sigmoid(theta).item()
    assert round(p_a, 3) == 0.525
    assert p_a > 0.5


def test_seed004_snippet_detached_old_logp_keeps_the_gradient() -> None:
    theta = torch.tensor(0.0, dtype=F64, requires_grad=True)
    logits = torch.stack((theta, torch.zeros_like(theta)))
    logp = logits.log_softmax(dim=-1)
    old_logp = logp.detach().clone()
    advantages = torch.tensor([1.0, -1.0], dtype=F64)
    loss = -((logp - old_logp).exp() * advantages).mean()
    loss.backward()
    assert abs(loss.item()) < 1e-12
    assert abs(theta.grad.item() + 0.5) < 1e-12


def test_seed004_logp_minus_logp_cancels_the_gradient() -> None:
    theta = torch.tensor(0.0, dtype=F64, requires_grad=True)
    logp = torch.stack((theta, torch.zeros_like(theta))).log_softmax(dim=-1)
    loss = -((logp - logp).exp() * ADV).mean()
    loss.backward()
    assert theta.grad.item() == 0.0


def test_clipped_surrogate_detaches_old_logp_itself() -> None:
    # Passing the live logp as old_logp still trains: the surrogate treats it as a constant.
    theta = torch.tensor(0.0, dtype=F64, requires_grad=True)
    logp = two_answer_policy(theta)
    aggregate(clipped_surrogate(logp, logp, ADV, FULL), FULL, "token_mean").backward()
    assert theta.grad.item() == pytest.approx(-0.5, abs=1e-12)


def test_seed004_lengths_one_and_three_give_zero_or_half_by_aggregation() -> None:
    mask = torch.tensor([[True, False, False], [True, True, True]])
    logp = torch.full((2, 3), -1.0, dtype=F64)
    per_token = clipped_surrogate(logp, logp.clone(), ADV, mask)  # unit ratios
    assert per_token.tolist() == [[-1.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
    assert aggregate(per_token, mask, "seq_mean_token_mean").item() == 0.0
    assert aggregate(per_token, mask, "token_mean").item() == 0.5
    assert aggregate(per_token, mask, "seq_mean_token_sum_norm").item() == pytest.approx(1 / 3)
    assert aggregate(per_token, mask, "seq_mean_token_sum_norm", max_len=4).item() == 0.25


def test_seed004_grpo_objective_by_hand_equals_surrogate_plus_aggregate() -> None:
    eps = 0.2
    old = [[-1.0, -0.5, -2.0], [-0.7, -1.2, 0.0], [-0.3, -0.9, -1.5]]
    new = [[-0.6, -0.9, -1.9], [-1.3, -1.0, 0.0], [-0.3, -0.6, -1.6]]
    lengths = [3, 2, 3]
    adv = [1.2, -0.8, -0.4]
    # J = 1/G sum_i 1/|o_i| sum_t min(rho A, clip(rho, 1-eps, 1+eps) A)
    j = 0.0
    for i in range(3):
        s = 0.0
        for step in range(lengths[i]):
            rho = math.exp(new[i][step] - old[i][step])
            s += min(rho * adv[i], min(max(rho, 1 - eps), 1 + eps) * adv[i])
        j += s / lengths[i]
    j /= 3
    mask = torch.tensor([[True, True, True], [True, True, False], [True, True, True]])
    per_token = clipped_surrogate(t(new), t(old), t(adv), mask, clip_low=eps, clip_high=eps)
    assert aggregate(per_token, mask, "seq_mean_token_mean").item() == pytest.approx(-j, abs=1e-12)


def test_clipping_plateau_tokens_get_zero_gradient_and_others_do_not() -> None:
    # Tokens: (ratio 1.5, A>0) high plateau; (ratio 0.5, A<0) low plateau;
    # (ratio 1.1, A>0) inside; (ratio 1.5, A<0) outside the band but min keeps the raw term.
    ratios = t([[1.5, 0.5, 1.1, 1.5]])
    adv = t([[1.0, -1.0, 1.0, -1.0]])
    logp = ratios.log().clone().requires_grad_(True)
    mask = torch.ones(1, 4, dtype=torch.bool)
    clipped_surrogate(logp, torch.zeros_like(logp), adv, mask).sum().backward()
    grad = logp.grad[0]
    assert grad[0].item() == 0.0
    assert grad[1].item() == 0.0
    assert grad[2].item() == pytest.approx(-1.1)  # d(-rho A)/d logp = -rho A
    assert grad[3].item() == pytest.approx(1.5)
    low, high = clip_fractions(ratios, adv, mask)
    assert (low.item(), high.item()) == (0.25, 0.25)


def test_clip_higher_moves_only_the_upper_plateau() -> None:
    logp = t([[math.log(1.25)]]).requires_grad_(True)
    mask = torch.ones(1, 1, dtype=torch.bool)
    clipped_surrogate(logp, torch.zeros_like(logp), t([1.0]), mask, 0.2, 0.28).sum().backward()
    assert logp.grad.item() == pytest.approx(-1.25)  # 1.25 < 1.28: still learning
    low, high = clip_fractions(t([[1.25]]), t([1.0]), mask, 0.2, 0.2)
    assert high.item() == 1.0 and low.item() == 0.0


def test_masked_tokens_add_nothing_even_when_padding_is_not_finite() -> None:
    logp = t([[-1.0, float("-inf")]]).requires_grad_(True)
    old = t([[-1.2, float("nan")]])
    mask = torch.tensor([[True, False]])
    per_token = clipped_surrogate(logp, old, t([1.0]), mask)
    loss = aggregate(per_token, mask, "token_mean")
    loss.backward()
    assert per_token[0, 1].item() == 0.0
    assert torch.isfinite(loss) and torch.isfinite(logp.grad).all()
    assert importance_ratio(logp, old, mask)[0, 1].item() == 1.0


def test_aggregations_with_an_empty_response() -> None:
    per_token = t([[2.0, 4.0], [9.0, 9.0]])
    mask = torch.tensor([[True, True], [False, False]])
    assert seq_mean_token_mean(per_token, mask).item() == 3.0  # empty row left out
    assert token_mean(per_token, mask).item() == 3.0
    assert seq_mean_token_sum_norm(per_token, mask).item() == 1.5  # (6 / 2 + 0) / 2 responses


def test_unknown_aggregation_mode_lists_the_valid_ones() -> None:
    with pytest.raises(RlvrError, match="unknown mode 'dapo'.*token_mean"):
        aggregate(t([[1.0]]), torch.ones(1, 1, dtype=torch.bool), "dapo")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_len=8 has no effect in mode 'token_mean'"):
        aggregate(t([[1.0]]), torch.ones(1, 1, dtype=torch.bool), "token_mean", max_len=8)


def test_k3_is_non_negative_and_zero_at_equal_policies() -> None:
    gen = torch.Generator().manual_seed(0)
    logp = -torch.rand(64, 16, generator=gen, dtype=F64) * 5
    ref = -torch.rand(64, 16, generator=gen, dtype=F64) * 5
    assert (k3(logp, ref) >= 0).all()
    assert (k2(logp, ref) >= 0).all()
    assert (k1(logp, ref) < 0).any()  # k1 is unbiased but not per-token non-negative
    for fn in KL_ESTIMATORS.values():
        assert torch.equal(fn(logp, logp), torch.zeros_like(logp))


def test_k1_and_k3_expectations_equal_exact_kl_on_a_categorical() -> None:
    policy = t([0.5, 0.3, 0.2])
    ref = t([0.2, 0.2, 0.6])
    exact = (policy * (policy / ref).log()).sum().item()
    logp, ref_logp = policy.log(), ref.log()
    assert (policy * k1(logp, ref_logp)).sum().item() == pytest.approx(exact, abs=1e-12)
    assert (policy * k3(logp, ref_logp)).sum().item() == pytest.approx(exact, abs=1e-12)
    assert (policy * k2(logp, ref_logp)).sum().item() != pytest.approx(exact, abs=1e-3)


def test_k3_formula_by_hand_and_kl_penalty_masks() -> None:
    logp, ref = t([[-1.0, -2.0]]), t([[-1.5, -0.5]])
    by_hand = [math.exp(-0.5) + 0.5 - 1, math.exp(1.5) - 1.5 - 1]
    assert torch.allclose(kl_penalty(logp, ref, "k3"), t([by_hand]))
    masked = kl_penalty(logp, ref, "k3", mask=torch.tensor([[True, False]]))
    assert masked[0].tolist() == pytest.approx([by_hand[0], 0.0])
    assert torch.allclose(kl_penalty(logp, ref, "k1"), t([[0.5, -1.5]]))
    with pytest.raises(RlvrError, match="unknown estimator 'k4'"):
        kl_penalty(logp, ref, "k4")  # type: ignore[arg-type]


def test_entropy_from_logits_uniform_peaked_and_banned_tokens() -> None:
    logits = torch.zeros(2, 3, 5, dtype=F64)
    logits[1, 0] = t([1000.0, 0, 0, 0, 0])
    logits[1, 1] = t([0.0, 0, float("-inf"), float("-inf"), float("-inf")])
    ent = entropy_from_logits(logits)
    assert ent[0].tolist() == pytest.approx([math.log(5)] * 3)
    assert ent[1, 0].item() == pytest.approx(0.0, abs=1e-12)
    assert ent[1, 1].item() == pytest.approx(math.log(2))
    random = torch.randn(4, 7, generator=torch.Generator().manual_seed(1), dtype=F64)
    expected = torch.distributions.Categorical(logits=random).entropy()
    assert torch.allclose(entropy_from_logits(random), expected)


def test_seed004_dpo_gap_two_beta_point_two_is_0_513() -> None:
    # delta_w = -1 - (-2) = 1, delta_l = -3 - (-2) = -1: relative gap 2.
    losses, chosen, rejected = dpo_loss(t([-1.0]), t([-3.0]), t([-2.0]), t([-2.0]), beta=0.2)
    assert losses.item() == pytest.approx(-math.log(1 / (1 + math.exp(-0.4))), abs=1e-12)
    assert round(losses.item(), 3) == 0.513
    assert (chosen.item(), rejected.item()) == pytest.approx((0.2, -0.2))


def test_seed004_dpo_table_loss_falls_while_chosen_gets_less_likely() -> None:
    ref_w, ref_l = math.log(0.4), math.log(0.3)
    at_ref, _, _ = dpo_loss(t([ref_w]), t([ref_l]), t([ref_w]), t([ref_l]), beta=1.0)
    assert at_ref.item() == pytest.approx(math.log(2), abs=1e-12)
    assert round(at_ref.item(), 4) == 0.6931
    now, chosen, rejected = dpo_loss(
        t([math.log(0.3)]), t([math.log(0.1)]), t([ref_w]), t([ref_l]), beta=1.0
    )
    assert now.item() == pytest.approx(math.log(1 + 1 / 2.25), abs=1e-12)
    assert round(now.item(), 4) == 0.3677
    assert chosen.item() < 0  # chosen fell from 0.4 to 0.3 ...
    assert rejected.item() < chosen.item()  # ... but rejected fell further


def test_dpo_gradient_raises_chosen_and_lowers_rejected() -> None:
    w = t([-2.0]).requires_grad_(True)
    lo = t([-2.0]).requires_grad_(True)
    losses, _, _ = dpo_loss(w, lo, t([-2.0]), t([-2.0]), beta=0.5)
    losses.sum().backward()
    assert w.grad.item() == pytest.approx(-0.25)  # -beta * sigmoid(-0) = -0.5 * 0.5
    assert lo.grad.item() == pytest.approx(0.25)


def test_value_loss_clipped_by_hand_and_its_gradient() -> None:
    values = t([[1.5, 1.1, 9.0]]).requires_grad_(True)
    old, returns = t([[1.0, 1.0, 0.0]]), t([[2.0, 2.0, 0.0]])
    mask = torch.tensor([[True, True, False]])
    loss = value_loss(values, old, returns, mask, clip=0.2)
    # token 0: unclipped (1.5-2)^2 = 0.25, clipped (1.2-2)^2 = 0.64 -> 0.5 * 0.64
    # token 1: inside the clip, 0.5 * (1.1-2)^2
    assert loss[0].tolist() == pytest.approx([0.32, 0.405, 0.0])
    loss.sum().backward()
    assert values.grad[0].tolist() == pytest.approx([0.0, -0.9, 0.0])
    plain = value_loss(values, old, returns, mask, clip=None)
    assert plain[0, 0].item() == pytest.approx(0.125)
