"""PPO: the value head learns, the policy moves, shared and separate critics, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from learner_env import FAST, digit_env

from rlvr.learners.batch import from_samples
from rlvr.learners.config import PPOConfig
from rlvr.learners.ppo import Critic, advantages_and_returns, train
from rlvr.types import Sample


def rows(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]


def config(**kw: object) -> PPOConfig:
    return PPOConfig.model_validate({**FAST, "algo": "ppo", "lr": 3e-3, **kw})


def test_terminal_score_minus_critic_value_is_the_seed_advantage() -> None:
    # One token, reward 0, critic predicts 0.6 -> A = R - V = -0.6 (gamma = lam = 1).
    sample = Sample(
        task_id="t", index=0, text="388", token_ids=[5], logprobs=[-1.0], prompt_token_ids=[1, 2]
    )
    batch = from_samples([sample], [0.0], pad_id=0)
    cfg = config(gamma=1.0, lam=1.0, whiten_advantages=False)
    adv, ret = advantages_and_returns(batch, torch.tensor([0.0]), torch.tensor([[0.6]]), cfg)
    assert adv.item() == pytest.approx(-0.6) and ret.item() == pytest.approx(0.0)


def test_kl_in_the_reward_lowers_the_return_of_drifted_tokens() -> None:
    sample = Sample(
        task_id="t",
        index=0,
        text="ab",
        token_ids=[5, 6],
        logprobs=[-1.0, -1.0],
        prompt_token_ids=[1],
    )
    batch = from_samples([sample], [0.0], pad_id=0)
    batch.ref_logp = torch.tensor([[-2.0, -1.0]])  # the policy likes token 0 more than ref does
    cfg = config(gamma=1.0, lam=1.0, whiten_advantages=False, beta=0.5)
    _, ret = advantages_and_returns(batch, torch.tensor([1.0]), torch.zeros(1, 2), cfg)
    assert ret[0].tolist() == pytest.approx([1.0 - 0.5, 1.0])


@pytest.mark.parametrize("critic", ["shared", "separate"])
def test_ppo_trains_policy_and_value_head(tmp_path: Path, critic: str) -> None:
    run = train(
        config(steps=4, critic=critic, inner_epochs=2, beta=0.05),
        tmp_path / critic,
        env=digit_env(),
    )
    got = rows(run)
    assert [r["step"] for r in got] == [1, 2, 3, 4]
    assert got[0]["value_mean"] == 0.0  # zero-initialised head
    assert abs(got[-1]["value_mean"]) > 0.01  # the head learned to predict the reward
    assert all(r["value_loss"] is not None and r["grad_norm"] > 0 for r in got)
    assert got[-1]["value_loss"] < got[0]["value_loss"]
    state = torch.load(run / "checkpoints" / "step-000004" / "trainer.pt", weights_only=False)
    assert state["value_head"]["head.weight"].abs().sum() > 0
    assert (run / "checkpoints" / "step-000004" / "critic").is_dir() == (critic == "separate")


def test_ppo_resume_restores_the_value_head(tmp_path: Path) -> None:
    run = tmp_path / "run"
    train(config(steps=2, save_every=1), run, env=digit_env())
    train(config(steps=3, save_every=1), run, env=digit_env())
    got = rows(run)
    assert [r["step"] for r in got] == [1, 2, 3]
    assert got[2]["value_mean"] != 0.0  # a fresh head would start at exactly 0


def test_critic_head_maps_hidden_states_to_one_value_per_token() -> None:
    head = Critic(8)
    assert head(torch.randn(3, 5, 8)).shape == (3, 5)
    assert torch.equal(head(torch.randn(2, 4, 8)), torch.zeros(2, 4))
