"""Batching for the clipped-surrogate learners: packing, exact micro-batch accumulation,
skipping answers that cannot move the weights, reward shaping and task order."""

from __future__ import annotations

import contextlib

import pytest
import torch
from transformers import LlamaConfig, LlamaForCausalLM

from rlvr.learners.batch import forward, from_samples, micro_weight
from rlvr.learners.config import LearnerConfig
from rlvr.learners.groups import overlong_penalty
from rlvr.learners.losses import aggregate, clipped_surrogate
from rlvr.types import Sample


def small_model() -> LlamaForCausalLM:
    torch.manual_seed(0)
    cfg = LlamaConfig(
        vocab_size=32,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=2,
        pad_token_id=0,
    )
    return LlamaForCausalLM(cfg).double()


def random_samples(n: int) -> list[Sample]:
    gen = torch.Generator().manual_seed(1)
    out = []
    for i in range(n):
        p = int(torch.randint(2, 6, (1,), generator=gen))
        t = int(torch.randint(1, 7, (1,), generator=gen))
        out.append(
            Sample(
                task_id="t",
                index=i,
                text="x",
                prompt_token_ids=torch.randint(1, 32, (p,), generator=gen).tolist(),
                token_ids=torch.randint(1, 32, (t,), generator=gen).tolist(),
                logprobs=(-torch.rand(t, generator=gen) * 3).tolist(),
            )
        )
    return out


def grads(model: torch.nn.Module) -> torch.Tensor:
    return torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None])


@pytest.mark.parametrize("mode", ["seq_mean_token_mean", "token_mean", "seq_mean_token_sum_norm"])
def test_micro_batches_accumulate_to_the_full_batch_gradient(mode: str) -> None:
    model = small_model()
    batch = from_samples(random_samples(6), [1.0, -0.5, 0.3, -1.2, 0.8, 0.1], pad_id=0)
    batch.old_logp = batch.old_logp.double()
    batch.advantages = batch.advantages.double()

    def loss_of(mb):
        logp = forward(model, mb, entropy="none").logp
        per_tok = clipped_surrogate(logp, mb.old_logp, mb.advantages, mb.completion_mask)
        max_len = 6 if mode == "seq_mean_token_sum_norm" else None
        return aggregate(per_tok, mb.completion_mask, mode, max_len)

    model.zero_grad()
    loss_of(batch).backward()
    full = grads(model).clone()
    model.zero_grad()
    for mb in batch.chunks(4):  # micro-batches of 4 and 2 rows, unequal token counts
        (loss_of(mb) * micro_weight(mode, mb.completion_mask, batch.completion_mask)).backward()
    assert torch.allclose(grads(model), full, atol=1e-12)


def test_skipping_zero_advantage_answers_leaves_the_update_unchanged() -> None:
    from rlvr.learners.update import UpdateStats, contributing, policy_update

    model = small_model()
    batch = from_samples(random_samples(6), [0.0, 1.0, 0.0, -1.0, 0.0, 0.5], pad_id=0)
    batch.old_logp, batch.advantages = batch.old_logp.double(), batch.advantages.double()
    cfg = LearnerConfig(micro_batch_size=2, max_grad_norm=1e9, loss_agg="token_mean")
    assert len(contributing(batch, cfg, policy_only=True)) == 3
    assert len(contributing(batch, cfg.model_copy(update={"beta": 0.1}), True)) == 6

    model.zero_grad()
    logp = forward(model, batch, entropy="none").logp
    per_tok = clipped_surrogate(logp, batch.old_logp, batch.advantages, batch.completion_mask)
    aggregate(per_tok, batch.completion_mask, "token_mean").backward()
    full = grads(model).clone()
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    policy_update(model, opt, batch, cfg, UpdateStats(), contextlib.nullcontext)
    assert torch.allclose(grads(model), full, atol=1e-12)


def test_a_non_finite_gradient_skips_the_update_and_keeps_the_weights() -> None:
    """One NaN gradient stepped by Adam turns every weight NaN (a bf16 GRPO run on a GPU did
    this at its fourth step); the update is dropped and counted instead."""
    from rlvr.learners.update import UpdateStats, policy_update

    model = small_model()
    batch = from_samples(random_samples(4), [1.0, -1.0, 0.5, -0.5], pad_id=0)
    batch.old_logp, batch.advantages = batch.old_logp.double(), batch.advantages.double()
    cfg = LearnerConfig(micro_batch_size=4)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in model.parameters()]
    poison = next(model.parameters()).register_hook(lambda g: g * float("nan"))
    stats = UpdateStats()
    norm = policy_update(model, opt, batch, cfg, stats, contextlib.nullcontext)
    assert norm != norm  # NaN
    assert all(torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))
    assert stats.counts.get("skipped_updates") == 1 and "grad_norm" not in stats.counts
    poison.remove()
    norm = policy_update(model, opt, batch, cfg, stats, contextlib.nullcontext)
    assert norm == norm and stats.counts["grad_norm"] == 1
    assert not all(torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))
    assert all(bool(torch.isfinite(p).all()) for p in model.parameters())


def test_steps_that_only_skip_updates_stop_the_run_with_a_fix() -> None:
    from rlvr.errors import TrainingError
    from rlvr.learners.update import NonFiniteStreak

    streak = NonFiniteStreak(limit=3)
    streak.check({"step": 1, "updates": 0, "skipped_updates": 1})
    streak.check({"step": 2, "updates": 0, "skipped_updates": 1})
    streak.check({"step": 3, "updates": 1, "skipped_updates": 1})  # one update still applied
    streak.check({"step": 4, "updates": 0, "skipped_updates": 2})
    streak.check({"step": 5, "updates": 0, "skipped_updates": 1})
    with pytest.raises(TrainingError, match="step 6: 3 steps in a row.*bf16 = false"):
        streak.check({"step": 6, "updates": 0, "skipped_updates": 1})


def test_select_trims_padding_and_keeps_log_probs_aligned() -> None:
    model = small_model()
    batch = from_samples(random_samples(5), [0.0] * 5, pad_id=0)
    full = forward(model, batch, entropy="none").logp
    sub = batch.select([1, 3])
    part = forward(model, sub, entropy="none").logp
    assert sub.input_ids.shape[1] <= batch.input_ids.shape[1]
    assert torch.allclose(part, full[[1, 3], : part.shape[1]], atol=1e-10)


def test_forward_scores_completion_tokens_at_the_sampling_temperature() -> None:
    from rlvr.learners.losses import entropy_from_logits

    model = small_model()
    batch = from_samples(random_samples(3), [0.0] * 3, pad_id=0)
    out = forward(model, batch, temperature=0.7, entropy="value")
    full = (
        model(
            input_ids=batch.input_ids,
            attention_mask=batch.attention_mask,
            position_ids=batch.position_ids,
        ).logits
        / 0.7
    )
    p = batch.prompt_width
    pred = full[:, p - 1 : -1]  # position p-1+j predicts completion token j
    want = pred.log_softmax(-1).gather(-1, batch.completion_ids.unsqueeze(-1)).squeeze(-1)
    mask = batch.completion_mask
    assert torch.allclose(out.logp[mask], want[mask].float(), atol=1e-6)
    assert torch.allclose(out.entropy[mask], entropy_from_logits(pred)[mask].float(), atol=1e-6)
    assert (out.logp[~mask] == 0).all() and (out.entropy[~mask] == 0).all()


def test_overlong_penalty_is_dapo_soft_punishment() -> None:
    assert overlong_penalty(48, 64, 16) == 0.0
    assert overlong_penalty(56, 64, 16) == -0.5
    assert overlong_penalty(64, 64, 16) == -1.0
    assert overlong_penalty(64, 64, 16, factor=0.5) == -0.5
    assert overlong_penalty(64, 64, 0) == 0.0


def test_shaped_rewards_penalise_long_scored_answers_and_keep_masked_ones() -> None:
    from rlvr.learners.groups import shaped_rewards
    from rlvr.types import ScoredGroup, Verdict

    samples = [
        Sample(task_id="t", index=i, text="x", token_ids=[1] * n) for i, n in enumerate((4, 14, 16))
    ]
    verdicts = [Verdict.score(1.0), Verdict.score(1.0), Verdict.error("timeout", "slow")]
    group = ScoredGroup(env="e", task_id="t", samples=samples, verdicts=verdicts)
    cfg = LearnerConfig(max_new_tokens=16, overlong_buffer=4)
    assert shaped_rewards(group, cfg) == [1.0, 0.5, None]
    assert shaped_rewards(group, LearnerConfig(max_new_tokens=16)) == [1.0, 1.0, None]


def test_task_cycler_gives_distinct_tasks_and_resumes_in_place() -> None:
    from rlvr.learners.common import TaskCycler
    from rlvr.types import Task

    tasks = [Task(id=str(i), prompt="p") for i in range(5)]
    a = TaskCycler(tasks, seed=3)
    first = [t.id for t in a.take(3)]
    state = a.state()
    nxt = [t.id for t in a.take(4)]  # wraps into the next pass, still no repeat within a call
    assert len(set(first)) == 3 and len(set(nxt)) == 4
    b = TaskCycler(tasks, seed=3)
    b.restore(state)
    assert [t.id for t in b.take(4)] == nxt
    assert TaskCycler(tasks, seed=3).take(2, exclude={first[0]})[0].id == first[1]
