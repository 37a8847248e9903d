"""Where a sampled row ends: stop strings, EOS, and the end of its first closed fenced block.

The fence stop ends a completion after its first closed fenced block, never at an opening fence.
An environment whose template asks for one fenced block (`[prompt] stop_at_closed_fence`)
grades that block and nothing after it, and instruct models follow it with "Example usage" and
explanations: on synth-python's validation slice 22-50% of the generated tokens came after the
first closed fence (bench/README.md, "Which block to grade"). A plain stop string cannot do
this: "```" also opens the block. So each row's text is checked, with the graders' own fence
rule (`first_fence_end`), only on steps whose new token holds a backtick or tilde.
"""

from __future__ import annotations

from typing import Any

import torch
from transformers import PreTrainedTokenizerBase, StoppingCriteria

from rlvr.fences import first_fence_end


def fence_token_ids(tokenizer: PreTrainedTokenizerBase) -> torch.Tensor:
    """The ids of every vocabulary token whose text holds a backtick or a tilde."""
    vocab = tokenizer.get_vocab()
    ids = [
        i
        for tok, i in vocab.items()
        if any(c in tokenizer.convert_tokens_to_string([tok]) for c in "`~")
    ]
    return torch.tensor(sorted(ids), dtype=torch.long)


class FenceStop(StoppingCriteria):
    """Per-row stop once the generated text holds a closed fenced block."""

    def __init__(
        self, tokenizer: PreTrainedTokenizerBase, prompt_len: int, fence_ids: torch.Tensor
    ) -> None:
        self.tokenizer = tokenizer
        self.prompt_len = prompt_len
        self.fence_ids = fence_ids
        self._done: torch.Tensor | None = None

    def __call__(self, input_ids: torch.LongTensor, scores: Any, **kw: Any) -> torch.BoolTensor:
        rows = input_ids.shape[0]
        if self._done is None or self._done.shape[0] != rows:
            self._done = torch.zeros(rows, dtype=torch.bool)
        last = input_ids[:, -1].cpu()
        maybe = torch.isin(last, self.fence_ids) & ~self._done
        for row in maybe.nonzero().flatten().tolist():
            ids = input_ids[row, self.prompt_len :].tolist()
            if first_fence_end(self.tokenizer.decode(ids, skip_special_tokens=True)) is not None:
                self._done[row] = True
        return self._done.to(input_ids.device)  # type: ignore[return-value]


class AnyStop(StoppingCriteria):
    """Per-row OR of several stopping criteria (stop strings and the fence stop)."""

    def __init__(self, parts: list[StoppingCriteria]) -> None:
        self.parts = parts

    def __call__(self, input_ids: torch.LongTensor, scores: Any, **kw: Any) -> torch.BoolTensor:
        hit = self.parts[0](input_ids, scores, **kw).to(input_ids.device)
        for part in self.parts[1:]:
            hit = hit | part(input_ids, scores, **kw).to(input_ids.device)
        return hit  # type: ignore[return-value]


class StopTracker(StoppingCriteria):
    """Stops rows at a stop string and remembers, per row, the generated position where it did.

    Everything stays on the model's device: a host read here would stall every decoding step.
    EOS needs no tracking: `generate` stops at it itself, and `finish_positions` finds it after.
    """

    def __init__(self, prompt_len: int, rows: int, stop: StoppingCriteria):
        self.prompt_len = prompt_len
        self.done_at = torch.full((rows,), -1, dtype=torch.long)
        self.stop = stop

    def __call__(self, input_ids: torch.LongTensor, scores: Any, **kw: Any) -> torch.BoolTensor:
        if self.done_at.device != input_ids.device:
            self.done_at = self.done_at.to(input_ids.device)
        hit = self.stop(input_ids, scores).to(input_ids.device)
        step = input_ids.shape[1] - self.prompt_len - 1
        self.done_at = torch.where(hit & (self.done_at < 0), step, self.done_at)
        return hit  # type: ignore[return-value]


def finish_positions(
    generated: torch.Tensor, eos: list[int], stopped_at: torch.Tensor | None
) -> torch.Tensor:
    """Per row, the position of the first EOS or of the stop string that ended it, else -1."""
    hit = torch.isin(generated, torch.tensor(eos, dtype=generated.dtype, device=generated.device))
    first = hit.int().argmax(1) if generated.shape[1] else hit.new_zeros(len(hit), dtype=torch.long)
    at = torch.where(hit.any(1), first, -1)
    if stopped_at is None:
        return at
    both = torch.where(at < 0, stopped_at, torch.minimum(at, stopped_at))
    return torch.where(stopped_at < 0, at, both)
