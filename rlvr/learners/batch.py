"""Scored samples as padded token tensors, and the forward pass that scores them again.

Layout: prompts are left-padded to a common width P and completions right-padded to T, so every
completion starts at column P. Position ids count real tokens only (cumsum of the attention
mask, as `generate` does), so a forward pass here reproduces the sampling-time log-probabilities
exactly; the first update's ratio is 1 up to float error.

The one decision a reader would question: gradient accumulation rescales each micro-batch's
loss by its share of the minibatch's denominator (valid tokens for token_mean, answers for the
per-answer modes), so that accumulated gradients equal one pass over the whole minibatch.
`aggregate` alone divides by the count in the tensors it is given.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Literal

import torch
from torch import Tensor

from rlvr.learners.logprobs import head_token_logprobs, plain_head, token_logprobs
from rlvr.learners.losses import AGGREGATION_UNITS
from rlvr.types import Sample


@dataclass
class TokenBatch:
    """N answers as tensors. Sequence columns: P prompt then T completion positions."""

    input_ids: Tensor  # (N, P + T) long
    attention_mask: Tensor  # (N, P + T) long
    completion_mask: Tensor  # (N, T) bool: valid completion tokens
    old_logp: Tensor  # (N, T): log-probabilities at sampling time
    advantages: Tensor  # (N,) or (N, T)
    prompt_width: int
    ref_logp: Tensor | None = None  # (N, T)
    per_token: dict[str, Tensor] = field(default_factory=dict)  # (N, T) extras (values, returns)

    def __len__(self) -> int:
        return self.input_ids.shape[0]

    @property
    def position_ids(self) -> Tensor:
        return (self.attention_mask.cumsum(-1) - 1).clamp(min=0)

    @property
    def completion_ids(self) -> Tensor:
        return self.input_ids[:, self.prompt_width :]

    def select(self, rows: Tensor | Sequence[int]) -> TokenBatch:
        """The given rows, with all-padding columns trimmed at both ends."""
        rows = torch.as_tensor(rows, dtype=torch.long, device=self.input_ids.device)
        attn = self.attention_mask[rows]
        prompt_attn = attn[:, : self.prompt_width]
        lead = int((prompt_attn.sum(0) == 0).cumprod(0).sum())  # leading all-pad columns
        cmask = self.completion_mask[rows]
        used = cmask.any(0).nonzero()
        t = int(used.max()) + 1 if used.numel() else 0
        end = self.prompt_width + t

        def cut_tokens(x: Tensor) -> Tensor:
            return x[rows][:, :t] if x.dim() == 2 else x[rows]

        return TokenBatch(
            input_ids=self.input_ids[rows][:, lead:end],
            attention_mask=attn[:, lead:end],
            completion_mask=cmask[:, :t],
            old_logp=cut_tokens(self.old_logp),
            advantages=cut_tokens(self.advantages),
            prompt_width=self.prompt_width - lead,
            ref_logp=None if self.ref_logp is None else cut_tokens(self.ref_logp),
            per_token={k: cut_tokens(v) for k, v in self.per_token.items()},
        )

    def to(self, device: torch.device | str) -> TokenBatch:
        moved = {
            f.name: getattr(self, f.name).to(device)
            for f in fields(self)
            if isinstance(getattr(self, f.name), Tensor)
        }
        return replace(
            self, **moved, per_token={k: v.to(device) for k, v in self.per_token.items()}
        )

    def chunks(self, size: int) -> Iterator[TokenBatch]:
        """Consecutive micro-batches of at most `size` rows."""
        for start in range(0, len(self), size):
            yield self.select(range(start, min(start + size, len(self))))


def from_samples(samples: Sequence[Sample], advantages: Sequence[float], pad_id: int) -> TokenBatch:
    """Pack samples that carry prompt_token_ids, token_ids and logprobs into a TokenBatch.

    Samples without logprobs get NaN old_logp; call `fill_old_logp` before training on them.
    """
    for s in samples:
        if s.token_ids is None or s.prompt_token_ids is None:
            raise ValueError(
                f"sample {s.task_id}#{s.index} has no token ids; train from a local model's "
                "samples, or re-tokenise stored groups with `retokenize`"
            )
    p = max(len(s.prompt_token_ids or []) for s in samples)
    t = max((len(s.token_ids or []) for s in samples), default=0)
    n = len(samples)
    input_ids = torch.full((n, p + t), pad_id, dtype=torch.long)
    attn = torch.zeros((n, p + t), dtype=torch.long)
    cmask = torch.zeros((n, t), dtype=torch.bool)
    old = torch.full((n, t), float("nan"))
    for i, s in enumerate(samples):
        prompt, comp = s.prompt_token_ids or [], s.token_ids or []
        input_ids[i, p - len(prompt) : p] = torch.tensor(prompt, dtype=torch.long)
        input_ids[i, p : p + len(comp)] = torch.tensor(comp, dtype=torch.long)
        attn[i, p - len(prompt) : p + len(comp)] = 1
        if s.token_mask is None:
            cmask[i, : len(comp)] = True
        else:  # an episode: the environment's tokens are context, never trained on
            cmask[i, : len(comp)] = torch.tensor(s.token_mask, dtype=torch.bool)
        if s.logprobs is not None:
            old[i, : len(comp)] = torch.tensor(s.logprobs)
    old = torch.where(cmask, old, torch.zeros_like(old))
    if any(s.logprobs is None for s in samples):
        missing = torch.tensor([s.logprobs is None for s in samples])
        old[missing] = float("nan")
    return TokenBatch(
        input_ids=input_ids,
        attention_mask=attn,
        completion_mask=cmask,
        old_logp=old,
        advantages=torch.tensor(list(advantages), dtype=torch.float32),
        prompt_width=p,
    )


@dataclass
class Forward:
    """One forward pass over a micro-batch: per completion token, (n, T)."""

    logp: Tensor
    entropy: Tensor | None
    hidden: Tensor | None  # (n, T, H) last-layer states that predict each completion token


def forward(
    model: torch.nn.Module,
    batch: TokenBatch,
    temperature: float = 1.0,
    entropy: Literal["none", "value", "grad"] = "value",
    hidden: bool = False,
) -> Forward:
    """Log-probabilities (and entropy) of the completion tokens under `model`, at `temperature`.

    Only the T + 1 last positions go through the output head (`logits_to_keep`). entropy:
    "value" computes it detached (a metric), "grad" keeps its graph (an entropy bonus). Without
    an entropy gradient no full-vocabulary float32 tensor is kept (`token_logprobs`), and for
    the plain-head models of `logprobs.PLAIN_HEADS` no logits tensor at all: the head's matmul
    runs inside the log-softmax, a few rows at a time (`head_token_logprobs`).
    """
    t = batch.completion_mask.shape[1]
    fused = plain_head(model) if entropy != "grad" and not hidden else None
    if fused is not None:
        # the head's matmul happens inside the log-softmax, a few rows at a time
        decoder, weight = fused
        states = decoder(
            input_ids=batch.input_ids,
            attention_mask=batch.attention_mask,
            position_ids=batch.position_ids,
            use_cache=False,
        ).last_hidden_state[:, -(t + 1) : -1]
        logp, ent = head_token_logprobs(
            states, weight, batch.completion_ids, temperature, entropy == "value"
        )
        return _masked(Forward(logp=logp, entropy=ent, hidden=None), batch.completion_mask)
    out = model(
        input_ids=batch.input_ids,
        attention_mask=batch.attention_mask,
        position_ids=batch.position_ids,
        logits_to_keep=t + 1,
        output_hidden_states=hidden,
        use_cache=False,
    )
    # Position P-1+j predicts completion token j; the last position predicts nothing and gets
    # token 0, so the gradient reaches the logits whole (a slice would copy them in backward).
    ids = torch.cat([batch.completion_ids, batch.completion_ids.new_zeros(len(batch), 1)], 1)
    if entropy == "grad":
        logp_all = (out.logits[:, :-1].float() / temperature).log_softmax(-1)
        logp = logp_all.gather(-1, batch.completion_ids.unsqueeze(-1)).squeeze(-1)
        ent: Tensor | None = -(logp_all.exp() * logp_all).sum(-1)
    else:
        logp, ent = token_logprobs(out.logits, ids, temperature, entropy == "value")
        logp, ent = logp[:, :-1], None if ent is None else ent[:, :-1]
    states = None
    if hidden:
        p = batch.prompt_width
        states = out.hidden_states[-1][:, p - 1 : p - 1 + t]
    return _masked(Forward(logp=logp, entropy=ent, hidden=states), batch.completion_mask)


def _masked(out: Forward, mask: Tensor) -> Forward:
    """Exact zeros at padding positions."""
    out.logp = torch.where(mask, out.logp, torch.zeros_like(out.logp))
    if out.entropy is not None:
        out.entropy = torch.where(mask, out.entropy, torch.zeros_like(out.entropy))
    return out


@torch.no_grad()
def score(
    model: torch.nn.Module, batch: TokenBatch, temperature: float, micro_batch_size: int
) -> Tensor:
    """Per-token log-probabilities (N, T) of every row, without gradient, in micro-batches."""
    out = torch.zeros(batch.completion_mask.shape, device=batch.input_ids.device)
    for start in range(0, len(batch), micro_batch_size):
        rows = list(range(start, min(start + micro_batch_size, len(batch))))
        mb = batch.select(rows)
        logp = forward(model, mb, temperature, entropy="none").logp
        out[start : start + len(rows), : logp.shape[1]] = logp
    return out


def fill_old_logp(model: torch.nn.Module, batch: TokenBatch, temperature: float, mbs: int) -> int:
    """Score rows whose old_logp is unknown (stored groups without logprobs); returns how many.

    Those rows become on-policy for this step: their ratio starts at 1 under the current model.
    """
    missing = torch.isnan(batch.old_logp).any(-1)
    if not bool(missing.any()):
        return 0
    rows = missing.nonzero().squeeze(-1)
    sub = batch.select(rows)
    logp = score(model, sub, temperature, mbs)
    batch.old_logp[rows] = 0.0
    batch.old_logp[rows, : logp.shape[1]] = logp
    return int(rows.numel())


def micro_weight(mode: str, micro_mask: Tensor, mini_mask: Tensor) -> float:
    """Share of the minibatch's loss denominator that one micro-batch holds.

    Counted in the units the mode averages over (`AGGREGATION_UNITS`: token_mean valid tokens,
    seq_mean_token_mean answers with a valid token, seq_mean_token_sum_norm answers). Multiply
    the micro-batch's aggregated loss by it.
    """
    units = AGGREGATION_UNITS[mode]
    return float(units(micro_mask)) / max(float(units(mini_mask)), 1.0)


def minibatches(batch: TokenBatch, k: int, gen: torch.Generator) -> list[TokenBatch]:
    """A fresh random split of the batch into k minibatches (one optimiser update each)."""
    perm = torch.randperm(len(batch), generator=gen)
    return [batch.select(idx) for idx in perm.tensor_split(k) if len(idx)]
