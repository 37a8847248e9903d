"""Selective log-softmax: the chunked path equals the full log-softmax in value and gradient."""

from __future__ import annotations

import pytest
import torch

from rlvr.learners.logprobs import token_logprobs
from rlvr.learners.losses import entropy_from_logits


def full_route(logits: torch.Tensor, tokens: torch.Tensor, t: float) -> torch.Tensor:
    return (logits.float() / t).log_softmax(-1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1)


@pytest.mark.parametrize("chunk", [1, 7 * 50, 1 << 25])  # one row's slice, a few rows, all
@pytest.mark.parametrize("temperature", [1.0, 0.7])
def test_selected_log_softmax_equals_the_full_one_in_value_and_gradient(
    chunk: int, temperature: float
) -> None:
    gen = torch.Generator().manual_seed(0)
    logits = (torch.randn(5, 7, 50, generator=gen, dtype=torch.float64) * 3).requires_grad_()
    tokens = torch.randint(0, 50, (5, 7), generator=gen)
    weights = torch.randn(5, 7, generator=gen, dtype=torch.float64)

    want = (logits / temperature).log_softmax(-1).gather(-1, tokens.unsqueeze(-1)).squeeze(-1)
    (want * weights).sum().backward()
    want_grad = logits.grad.clone()
    logits.grad = None

    got, ent = token_logprobs(logits, tokens, temperature, entropy=True, chunk_elements=chunk)
    assert got.dtype == torch.float32
    assert torch.allclose(got.double(), want, atol=1e-6)
    assert torch.allclose(ent.double(), entropy_from_logits(logits.detach() / temperature))
    (got * weights).sum().backward()
    assert torch.allclose(logits.grad, want_grad, atol=1e-6)


def test_bf16_logits_are_scored_in_float32_and_banned_tokens_add_no_entropy() -> None:
    gen = torch.Generator().manual_seed(1)
    logits = torch.randn(3, 4, 11, generator=gen).bfloat16()
    logits[..., 10] = float("-inf")
    tokens = torch.randint(0, 10, (3, 4), generator=gen)
    got, ent = token_logprobs(logits, tokens, entropy=True)
    assert got.dtype == torch.float32
    assert torch.allclose(got, full_route(logits, tokens, 1.0), atol=1e-6)
    assert torch.isfinite(ent).all()
    assert torch.allclose(ent, entropy_from_logits(logits.float()), atol=1e-6)


def test_gradient_flows_in_the_logits_dtype_and_only_through_log_probs() -> None:
    logits = torch.randn(2, 3, 9, dtype=torch.bfloat16, requires_grad=True)
    tokens = torch.randint(0, 9, (2, 3))
    logp, ent = token_logprobs(logits, tokens, entropy=True)
    assert not ent.requires_grad
    logp.sum().backward()
    assert logits.grad.dtype == torch.bfloat16
    # each position's gradient sums to zero over the vocabulary (onehot - softmax)
    assert torch.allclose(logits.grad.float().sum(-1), torch.zeros(2, 3), atol=1e-2)


def test_gradient_checkpointing_leaves_the_policy_gradient_unchanged() -> None:
    from transformers import LlamaConfig, LlamaForCausalLM

    from rlvr.learners.batch import forward as score_forward
    from rlvr.learners.batch import from_samples
    from rlvr.types import Sample

    torch.manual_seed(0)
    cfg = LlamaConfig(
        vocab_size=40,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        pad_token_id=0,
    )
    model = LlamaForCausalLM(cfg).double()
    samples = [
        Sample(task_id="t", index=i, text="x", prompt_token_ids=[3, 4 + i], token_ids=[5, 6, 7 + i])
        for i in range(3)
    ]
    batch = from_samples(samples, [1.0, -1.0, 0.5], pad_id=0)

    def grad_vector() -> torch.Tensor:
        model.zero_grad()
        model.train()
        out = score_forward(model, batch, temperature=0.9, entropy="value")
        (out.logp * batch.advantages[:, None]).sum().backward()
        return torch.cat([p.grad.flatten() for p in model.parameters() if p.grad is not None])

    plain = grad_vector()
    model.gradient_checkpointing_enable()
    assert plain.abs().sum() > 0
    assert torch.allclose(grad_vector(), plain, atol=1e-12)


@pytest.mark.parametrize("tied", [True, False])
def test_fused_head_equals_logits_then_log_softmax_in_value_and_every_gradient(
    tied: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from rlvr.learners.batch import forward as score_forward
    from rlvr.learners.batch import from_samples
    from rlvr.learners.logprobs import plain_head
    from rlvr.types import Sample

    torch.manual_seed(0)
    cfg = Qwen2Config(
        vocab_size=50,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        tie_word_embeddings=tied,
        pad_token_id=0,
    )
    model = Qwen2ForCausalLM(cfg).double()
    assert plain_head(model) is not None
    samples = [
        Sample(task_id="t", index=i, text="x", prompt_token_ids=[3] * (i + 1), token_ids=[5, 9 + i])
        for i in range(3)
    ]
    batch = from_samples(samples, [1.0, -1.0, 0.5], pad_id=0)
    weights = torch.randn(batch.completion_mask.shape, dtype=torch.float64)

    def grads() -> list[torch.Tensor]:
        return [p.grad.clone() for p in model.parameters()]

    monkeypatch.setattr("rlvr.learners.logprobs.CHUNK_ELEMENTS", 50)  # one row per chunk
    out = score_forward(model, batch, temperature=0.8, entropy="value")
    (out.logp * weights).sum().backward()
    fused = grads()
    model.zero_grad()

    p = batch.prompt_width
    logits = model(
        input_ids=batch.input_ids,
        attention_mask=batch.attention_mask,
        position_ids=batch.position_ids,
    ).logits[:, p - 1 : -1]
    want = (logits / 0.8).log_softmax(-1).gather(-1, batch.completion_ids[..., None])[..., 0]
    want = torch.where(batch.completion_mask, want, torch.zeros_like(want))
    (want * weights).sum().backward()
    assert torch.allclose(out.logp.double(), want, atol=1e-6)
    mask = batch.completion_mask
    want_ent = entropy_from_logits(logits.detach() / 0.8)[mask]
    assert torch.allclose(out.entropy[mask].double(), want_ent, atol=1e-6)
    for a, b in zip(fused, grads(), strict=True):  # logp is float32, hence the tolerance
        assert torch.allclose(a, b, atol=1e-6)
