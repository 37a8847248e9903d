"""rlvr's own decoding loop: prefill once per prompt, then one cached forward per new token.

`generate` keeps every row of the batch in each forward until the last row ends, and pays its
per-step machinery (processor lists, stopping-criteria lists, cache bookkeeping) on every
token. With answers of uneven length (a fence stop at 40 tokens beside a ramble to the cap)
most of a batch's late forwards then compute rows that already ended. This loop:

- prefills each distinct prompt once and repeats its KV cache G times;
- drops a row from the batch (its cache, mask and position) as soon as it ends at EOS or a
  stop, so finished rows cost nothing;
- samples as `HFPolicy`'s `generate` path does (temperature, then top-p, then a draw from the
  softmax, or the argmax when greedy) and records the log-softmax of the processed scores at
  the chosen token.

Greedy decoding gives the tokens `generate` gives (tests/test_decode_loop.py). Prompts are
left-padded; positions count only real tokens, as `generate` counts them from the mask.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

import torch
from transformers import PreTrainedModel, StoppingCriteria, TopPLogitsWarper
from transformers.cache_utils import DynamicCache

# generation-config fields that add logits processors this loop does not apply
_PROCESSOR_FIELDS = {
    "repetition_penalty": 1.0,
    "encoder_repetition_penalty": 1.0,
    "no_repeat_ngram_size": 0,
    "bad_words_ids": None,
    "min_new_tokens": None,
    "suppress_tokens": None,
    "begin_suppress_tokens": None,
    "forced_bos_token_id": None,
    "forced_eos_token_id": None,
    "sequence_bias": None,
}


def loop_supports(model: PreTrainedModel) -> bool:
    """Whether the model's generation config adds no processor of its own (else use generate)."""
    gc = model.generation_config
    if (getattr(gc, "min_length", 0) or 0) > 0:
        return False
    return all(getattr(gc, f, d) in (d, None, 0, 1.0) for f, d in _PROCESSOR_FIELDS.items())


@dataclass
class Decoded:
    """Generated ids, their log-probs (rows, T) and the step a stop criterion ended each row."""

    tokens: torch.Tensor
    logprobs: torch.Tensor
    stopped_at: torch.Tensor | None


def cache_arg(model: PreTrainedModel) -> str:
    """The forward's keyword for the KV cache (bench/cpu_decode_options.py calls it too)."""
    # transformers 5.24 renamed the forward's `past_key_values` to `cache`
    return "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"


def _pick(
    logits: torch.Tensor, temperature: float, top_p: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """(token, its log-prob) per row from the last position's logits, as generate would pick."""
    scores = logits.float()
    if temperature > 0:
        if temperature != 1.0:
            scores = scores / temperature
        if top_p < 1.0:
            scores = TopPLogitsWarper(top_p)(None, scores)  # type: ignore[arg-type]
        token = torch.multinomial(scores.softmax(-1), 1).squeeze(1)
    else:
        token = scores.argmax(-1)
    logp = scores.gather(-1, token[:, None]).squeeze(-1) - scores.logsumexp(-1)
    return token, logp


def decode(
    model: PreTrainedModel,
    input_ids: torch.Tensor,
    mask: torch.Tensor,
    g: int,
    *,
    temperature: float,
    top_p: float,
    max_new: int,
    eos_ids: list[int],
    pad_id: int,
    stop: StoppingCriteria | None = None,
) -> Decoded:
    """Decode G rows per left-padded prompt (prompt p's rows are p*G .. p*G+G-1), on the CPU.

    `stop` sees every row's ids so far (prompt, then new tokens, pad after its end), as
    `generate`'s stopping criteria do; a row ends at its first EOS or stop hit.
    """
    device = model.device
    prompts, width = input_ids.shape
    rows = prompts * g
    cache_kw = cache_arg(model)
    ids = input_ids.to(device)
    mask = mask.to(device)
    pos = (mask.long().cumsum(-1) - 1).clamp(min=0)
    cache = DynamicCache(config=model.config)
    out = model(
        input_ids=ids, attention_mask=mask, position_ids=pos, use_cache=True, logits_to_keep=1,
        **{cache_kw: cache},
    )  # fmt: skip
    logits = out.logits[:, -1].repeat_interleave(g, dim=0)
    if g > 1:
        cache.batch_repeat_interleave(g)
        mask = mask.repeat_interleave(g, dim=0)
    pos = pos[:, -1:].repeat_interleave(g, dim=0)
    full = torch.full((rows, width + max_new), pad_id, dtype=torch.long, device=device)
    full[:, :width] = ids.repeat_interleave(g, dim=0)
    logprobs = torch.zeros(rows, max_new, device=device)
    eos = torch.tensor(eos_ids, dtype=torch.long, device=device)
    active = torch.arange(rows, device=device)
    steps = 0
    for step in range(max_new):
        token, logp = _pick(logits, temperature, top_p)
        full[active, width + step] = token
        logprobs[active, step] = logp
        steps = step + 1
        ended = torch.isin(token, eos)
        if stop is not None:
            ended |= stop(full[:, : width + steps], None)[active].to(device)  # type: ignore[arg-type]
        if steps == max_new:
            break
        if bool(ended.any()):
            keep = (~ended).nonzero().squeeze(1)
            if keep.numel() == 0:
                break
            active, token, pos, mask = active[keep], token[keep], pos[keep], mask[keep]
            cache.batch_select_indices(keep)
        mask = torch.cat([mask, mask.new_ones(len(active), 1)], dim=1)
        pos = pos + 1
        out = model(
            input_ids=token[:, None], attention_mask=mask, position_ids=pos, use_cache=True,
            **{cache_kw: cache},
        )  # fmt: skip
        logits = out.logits[:, -1]
    tracker_at = getattr(stop, "done_at", None)
    return Decoded(
        tokens=full[:, width : width + steps].cpu(),
        logprobs=logprobs[:, :steps].float().cpu(),
        stopped_at=tracker_at.cpu() if isinstance(tracker_at, torch.Tensor) else None,
    )
