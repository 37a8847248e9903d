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
    chunk_elements: int = CHUNK_ELEMENTS,
) -> tuple[Tensor, Tensor | None]:
    """log softmax(logits / T) at `tokens`, and the detached entropy when asked.

    logits (B, T, V) in any float dtype; tokens (B, T) long. Returns float32 (B, T) tensors
    (computed in float64 for float64 logits), as `logits.float().log_softmax(-1)` would.
    Differentiable in `logits` through the log-probabilities.
    """
    logp, ent = _SelectedLogSoftmax.apply(logits, tokens, temperature, entropy, chunk_elements)
    return logp.float(), (ent.float() if entropy else None)
