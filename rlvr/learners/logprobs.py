"""Log-probabilities of chosen tokens without a full-vocabulary float32 copy of the logits.

`log_softmax(logits / T).gather(tokens)` keeps a (B, T, V) float32 tensor alive for the
backward pass, and the entropy beside it another: with Qwen2's 151,936-token vocabulary, 16
answers of 256 tokens that is 2.5 GB each. Here the forward works through the rows a chunk at a
time (upcast, logsumexp, gather, optionally the entropy) and keeps only the logits, in their own
dtype, and one float per position; the backward rebuilds the softmax chunk by chunk. Values are
`x[token] - logsumexp(x)` with x = logits / T in float32 (or float64 for float64 logits): equal to
the log-softmax route up to rounding (tests/test_logprobs.py). TRL's `selective_log_softmax`
does the same for its loss.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import Tensor

CHUNK_ELEMENTS = 1 << 25
"""Logit elements upcast at once (128 MB of float32): small models take one chunk."""


def _compute_dtype(logits: Tensor) -> torch.dtype:
    return torch.promote_types(logits.dtype, torch.float32)


def _row_chunks(logits: Tensor, budget: int) -> list[slice]:
    per_row = max(1, logits[0].numel()) if logits.shape[0] else 1
    rows = max(1, budget // per_row)
    return [slice(s, min(s + rows, logits.shape[0])) for s in range(0, logits.shape[0], rows)]


class _SelectedLogSoftmax(torch.autograd.Function):
    """(logp, entropy) of `tokens` under softmax(logits / T); entropy carries no gradient."""

    @staticmethod
    def forward(  # type: ignore[override]
        ctx: Any, logits: Tensor, tokens: Tensor, temperature: float, entropy: bool, budget: int
    ) -> tuple[Tensor, Tensor]:
        dtype = _compute_dtype(logits)
        logp = torch.empty(tokens.shape, dtype=dtype, device=logits.device)
        lse = torch.empty_like(logp)
        ent = torch.empty(tokens.shape if entropy else (0,), dtype=dtype, device=logits.device)
        for rows in _row_chunks(logits, budget):
            x = logits[rows].to(dtype) / temperature
            lse[rows] = x.logsumexp(-1)
            logp[rows] = x.gather(-1, tokens[rows].unsqueeze(-1)).squeeze(-1) - lse[rows]
            if entropy:
                # H = lse - sum p x; -inf logits (banned tokens) contribute 0
                p = (x - lse[rows].unsqueeze(-1)).exp_()
                ent[rows] = lse[rows] - (p * x.clamp(min=torch.finfo(dtype).min)).sum(-1)
        ctx.save_for_backward(logits, tokens, lse)
        ctx.temperature, ctx.budget = temperature, budget
        ctx.mark_non_differentiable(ent)
        return logp, ent

    @staticmethod
    def backward(ctx: Any, grad_logp: Tensor, _grad_ent: Tensor) -> tuple[Tensor | None, ...]:
        logits, tokens, lse = ctx.saved_tensors
        dtype, t = lse.dtype, ctx.temperature
        grad = torch.empty_like(logits)
        for rows in _row_chunks(logits, ctx.budget):
            g = grad_logp[rows].to(dtype).unsqueeze(-1)
            # d logp / d x = onehot(token) - softmax(x), and x = logits / T
            p = (logits[rows].to(dtype) / t - lse[rows].unsqueeze(-1)).exp_()
            chunk = (p.mul_(g)).neg_()
            chunk.scatter_add_(-1, tokens[rows].unsqueeze(-1), g)
            grad[rows] = chunk.div_(t)
        return grad, None, None, None, None


def token_logprobs(
    logits: Tensor,
    tokens: Tensor,
    temperature: float = 1.0,
    entropy: bool = False,
    chunk_elements: int | None = None,
) -> tuple[Tensor, Tensor | None]:
    """log softmax(logits / T) at `tokens`, and the detached entropy when asked.

    logits (B, T, V) in any float dtype; tokens (B, T) long. Returns float32 (B, T) tensors
    (computed in float64 for float64 logits), as `logits.float().log_softmax(-1)` would.
    Differentiable in `logits` through the log-probabilities.
    """
    budget = chunk_elements or CHUNK_ELEMENTS
    logp, ent = _SelectedLogSoftmax.apply(logits, tokens, temperature, entropy, budget)
    return logp.float(), (ent.float() if entropy else None)


class _HeadLogSoftmax(torch.autograd.Function):
    """The output head and the selective log-softmax in one: logits exist a few rows at a time.

    Forward and backward compute `hidden @ weight.T` per chunk of rows (under the caller's
    autocast, restored in backward), so neither the (B, T, V) logits nor their gradient is ever
    whole; the price is the head's matmul once more in backward.
    """

    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda")
    def forward(  # type: ignore[override]
        ctx: Any,
        hidden: Tensor,
        weight: Tensor,
        tokens: Tensor,
        temperature: float,
        entropy: bool,
        budget: int,
    ) -> tuple[Tensor, Tensor]:
        n, t = tokens.shape
        rows_per = max(1, budget // max(1, t * weight.shape[0]))
        dtype = torch.promote_types(hidden.dtype, torch.float32)
        logp = torch.empty((n, t), dtype=dtype, device=hidden.device)
        lse = torch.empty_like(logp)
        ent = torch.empty((n, t) if entropy else (0,), dtype=dtype, device=hidden.device)
        for start in range(0, n, rows_per):
            rows = slice(start, min(start + rows_per, n))
            x = torch.nn.functional.linear(hidden[rows], weight).to(dtype) / temperature
            lse[rows] = x.logsumexp(-1)
            logp[rows] = x.gather(-1, tokens[rows].unsqueeze(-1)).squeeze(-1) - lse[rows]
            if entropy:
                p = (x - lse[rows].unsqueeze(-1)).exp_()
                ent[rows] = lse[rows] - (p * x.clamp(min=torch.finfo(dtype).min)).sum(-1)
        ctx.save_for_backward(hidden, weight, tokens, lse)
        ctx.temperature, ctx.rows_per = temperature, rows_per
        ctx.mark_non_differentiable(ent)
        return logp, ent

    @staticmethod
    @torch.amp.custom_bwd(device_type="cuda")
    def backward(ctx: Any, grad_logp: Tensor, _grad_ent: Tensor) -> tuple[Tensor | None, ...]:
        hidden, weight, tokens, lse = ctx.saved_tensors
        t, dtype = ctx.temperature, lse.dtype
        grad_h = torch.zeros_like(hidden)
        grad_w = torch.zeros(weight.shape, dtype=dtype, device=weight.device)
        for start in range(0, tokens.shape[0], ctx.rows_per):
            rows = slice(start, min(start + ctx.rows_per, tokens.shape[0]))
            h = hidden[rows]
            logits = torch.nn.functional.linear(h, weight)
            g = grad_logp[rows].to(dtype).unsqueeze(-1)
            # d logp / d logits = (onehot(token) - softmax(logits / T)) / T
            p = (logits.to(dtype) / t - lse[rows].unsqueeze(-1)).exp_()
            gl = p.mul_(g).neg_()
            gl.scatter_add_(-1, tokens[rows].unsqueeze(-1), g)
            gl = gl.div_(t).to(logits.dtype)
            grad_h[rows] = gl @ weight
            grad_w += (gl.flatten(0, 1).transpose(0, 1) @ h.flatten(0, 1)).to(dtype)
        return grad_h, grad_w.to(weight.dtype), None, None, None, None


PLAIN_HEADS = {"LlamaForCausalLM", "MistralForCausalLM", "Qwen2ForCausalLM", "Qwen3ForCausalLM"}
"""Models whose logits are exactly `model.model(...)` states times `lm_head.weight` (no bias,
scaling or soft-capping), checked in their transformers source."""


def plain_head(model: torch.nn.Module) -> tuple[torch.nn.Module, Tensor] | None:
    """(decoder, output weight) when the fused head applies to `model`, else None."""
    head = getattr(model, "lm_head", None)
    base = getattr(model, "model", None)
    if type(model).__name__ not in PLAIN_HEADS or base is None:
        return None
    if not isinstance(head, torch.nn.Linear) or head.bias is not None:
        return None
    return base, head.weight


def head_token_logprobs(
    hidden: Tensor,
    weight: Tensor,
    tokens: Tensor,
    temperature: float = 1.0,
    entropy: bool = False,
    chunk_elements: int | None = None,
) -> tuple[Tensor, Tensor | None]:
    """`token_logprobs(hidden @ weight.T, ...)` without the logits: hidden (B, T, H), weight
    (V, H), tokens (B, T). Differentiable in `hidden` and `weight`."""
    budget = chunk_elements or CHUNK_ELEMENTS
    logp, ent = _HeadLogSoftmax.apply(hidden, weight, tokens, temperature, entropy, budget)
    return logp.float(), (ent.float() if entropy else None)
