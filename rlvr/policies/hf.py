"""A local transformers causal LM as a policy: batched sampling with per-token log-probabilities.

Log-probabilities are those of the sampled tokens under the distribution actually sampled
from: after the model's own logits processors (e.g. a repetition penalty in its generation
config), temperature scaling and top-p truncation. rlvr applies temperature and top-p itself and
records the log-softmax after them, so `Sample.logprobs` is exactly the `old_logp` of the
sampling policy (TRL and verl recompute it as logits / temperature, which equals this when
top_p = 1). With temperature 0 (greedy) they are the model's plain log-softmax.

Prompts are left-padded into one batch; chat messages go through the tokenizer's chat template
when it has one. A hub name loads through `from_pretrained` (the user's path to a real model);
tests only use local folders.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import torch
from transformers import (
    LogitsProcessor,
    LogitsProcessorList,
    PreTrainedModel,
    PreTrainedTokenizerBase,
    StoppingCriteria,
    StoppingCriteriaList,
    StopStringCriteria,
    TemperatureLogitsWarper,
    TopPLogitsWarper,
)

from rlvr.errors import PolicyError
from rlvr.policies.base import Prompt, SamplingConfig, TokenPrompt, check_g, label_ids
from rlvr.policies.decode import decode, loop_supports
from rlvr.policies.static_cache import dtype_error, static_cache_default, static_kv
from rlvr.policies.stopping import (
    AnyStop,
    FenceStop,
    StopTracker,
    fence_token_ids,
    finish_positions,
)
from rlvr.types import Sample

_PLAIN_TOKENIZERS = {"PreTrainedTokenizerFast", "TokenizersBackend"}


def load_tokenizer(name_or_path: str) -> PreTrainedTokenizerBase:
    """A folder's tokenizer by its saved class when that is the plain fast tokenizer.

    The Auto loaders pick a class from the model type in config.json and can replace a locally
    built tokenizer with a different one, so plain tokenizers are loaded explicitly.
    """
    from transformers import AutoTokenizer, PreTrainedTokenizerFast

    cfg = Path(name_or_path) / "tokenizer_config.json"
    if cfg.is_file():
        saved = json.loads(cfg.read_text(encoding="utf-8")).get("tokenizer_class")
        if saved in _PLAIN_TOKENIZERS:
            return PreTrainedTokenizerFast.from_pretrained(name_or_path)
    return AutoTokenizer.from_pretrained(name_or_path)


@contextlib.contextmanager
def torch_threads(n: int | None) -> Iterator[None]:
    """Run a block with n intra-op CPU threads, then restore the previous number.

    Small models gain nothing from several threads, and on a busy machine the threads spin
    against each other: one thread was about 5x cheaper in CPU time for the tiny model.
    """
    if not n:
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def default_device() -> str:
    return "cuda" if torch.cuda.is_available() else "cpu"


def load_pretrained(
    name_or_path: str, device: str | None = None, dtype: torch.dtype | None = None
) -> tuple[PreTrainedModel, PreTrainedTokenizerBase]:
    """Load a causal LM and its tokenizer from a folder or a hub name."""
    from transformers import AutoModelForCausalLM

    device = device or default_device()
    if dtype is None:
        bf16 = device.startswith("cuda") and torch.cuda.is_bf16_supported()
        dtype = torch.bfloat16 if bf16 else torch.float32
    try:
        tokenizer = load_tokenizer(name_or_path)
        model = AutoModelForCausalLM.from_pretrained(name_or_path, dtype=dtype)
    except (OSError, ValueError) as e:
        raise PolicyError(
            f"could not load model {name_or_path!r}: {str(e).splitlines()[0]}",
            "give a folder with config.json and tokenizer files, a hub name that is cached or "
            "reachable (unset HF_HUB_OFFLINE), or 'tiny' / 'tiny-sft'",
        ) from None
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return model.to(device).eval(), tokenizer


def render_prompt(tokenizer: PreTrainedTokenizerBase, prompt: Prompt) -> tuple[str, bool]:
    """(text, templated): chat messages through the chat template when there is one."""
    if isinstance(prompt, TokenPrompt):
        prompt = prompt.messages
    if isinstance(prompt, str):
        return prompt, False
    if tokenizer.chat_template:
        text = tokenizer.apply_chat_template(prompt, tokenize=False, add_generation_prompt=True)
        return str(text), True
    return "\n\n".join(m["content"] for m in prompt) + "\n", False


def encode_prompt(tokenizer: PreTrainedTokenizerBase, prompt: Prompt) -> list[int]:
    """Token ids of a prompt; templated text already holds its special tokens."""
    if isinstance(prompt, TokenPrompt):
        return list(prompt.ids)
    text, templated = render_prompt(tokenizer, prompt)
    return list(tokenizer(text, add_special_tokens=not templated)["input_ids"])


class _LogprobRecorder(LogitsProcessor):
    """Records log p(sampled token) from the final processed scores, one step behind.

    Per step it keeps the scores and their logsumexp and picks the sampled token's entry on the
    next call: no (batch, vocab) log-softmax is written and nothing waits for the device.
    """

    def __init__(self, prompt_len: int) -> None:
        self.prompt_len = prompt_len
        self.steps: list[torch.Tensor] = []
        self.pending: torch.Tensor | None = None
        self.lse: torch.Tensor | None = None

    def _pick(self, tokens: torch.Tensor) -> torch.Tensor:
        assert self.pending is not None and self.lse is not None
        return self.pending.float().gather(-1, tokens[:, None]).squeeze(-1) - self.lse

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.Tensor:
        n_generated = input_ids.shape[1] - self.prompt_len
        if self.pending is not None and n_generated > len(self.steps):
            self.steps.append(self._pick(input_ids[:, -1]))
        self.pending, self.lse = scores, scores.float().logsumexp(-1)
        return scores

    def finish(self, sequences: torch.Tensor) -> torch.Tensor:
        """(rows, T) log-probabilities of the T generated tokens, on the model's device."""
        total = sequences.shape[1] - self.prompt_len
        if len(self.steps) < total and self.pending is not None:
            self.steps.append(self._pick(sequences[:, -1]))
        self.pending = self.lse = None
        if total == 0:
            return torch.zeros(sequences.shape[0], 0, device=sequences.device)
        return torch.stack(self.steps[:total], dim=1)


class HFPolicy:
    """Samples from a transformers causal LM (CPU or GPU) in left-padded batches.

    `static_cache` (default: on CUDA with transformers 5.24 or later) decodes with
    transformers' static KV cache, whose fixed shapes let `generate` compile the forward pass
    and replay it as a CUDA graph (plain
    `generate` on an H200, 0.5B shape, batch 64: about 4x the tokens/s of the dynamic cache).
    Prompts are then padded to a multiple of `PAD_MULTIPLE`, and one cache is reused while the
    shape holds, so that steps with different prompt lengths replay one graph.
    """

    PAD_MULTIPLE = 32

    def __init__(
        self,
        model: PreTrainedModel,
        tokenizer: PreTrainedTokenizerBase,
        name: str = "hf",
        batch_size: int = 64,
        threads: int | None = None,
        static_cache: bool | None = None,
    ) -> None:
        self.model = model
        self.threads = threads
        self.tokenizer = tokenizer
        self.name = name
        self.batch_size = batch_size
        self.static_cache = (
            static_cache_default(model.device) if static_cache is None else static_cache
        )
        eos = model.generation_config.eos_token_id
        eos = list(eos) if isinstance(eos, list) else [eos] if eos is not None else []
        if tokenizer.eos_token_id is not None and tokenizer.eos_token_id not in eos:
            eos.append(tokenizer.eos_token_id)
        self.eos_ids: list[int] = eos
        self._stop_cache: dict[tuple[str, ...], StopStringCriteria] = {}
        self._fence_ids: torch.Tensor | None = None
        self._kv: tuple[tuple[int, int], Any] | None = None

    @classmethod
    def from_pretrained(
        cls,
        name_or_path: str,
        device: str | None = None,
        batch_size: int = 64,
        threads: int | None = None,
        dtype: torch.dtype | None = None,
        static_cache: bool | None = None,
    ) -> HFPolicy:
        """Load a folder or hub name; `threads` caps CPU threads while generating."""
        model, tokenizer = load_pretrained(name_or_path, device=device, dtype=dtype)
        return cls(model, tokenizer, str(name_or_path), batch_size, threads, static_cache)

    def sample(
        self,
        prompts: Sequence[Prompt],
        g: int,
        sampling: SamplingConfig,
        task_ids: Sequence[str] | None = None,
    ) -> list[list[Sample]]:
        """G samples per prompt; prompts are generated `batch_size // G` at a time."""
        check_g(g)
        ids = label_ids(prompts, task_ids)
        if sampling.seed is not None:
            torch.manual_seed(sampling.seed)
        per_call = max(1, self.batch_size // g)
        out: list[list[Sample]] = []
        with torch_threads(self.threads):
            for start in range(0, len(prompts), per_call):
                chunk = slice(start, start + per_call)
                out.extend(self._generate(list(prompts[chunk]), ids[chunk], g, sampling))
        return out

    def max_new_tokens(self, sampling: SamplingConfig) -> int:
        """The sampling limit, else the model's generation config, else 256."""
        return sampling.max_new_tokens or self.model.generation_config.max_new_tokens or 256

    def _stop_criteria(self, sampling: SamplingConfig, prompt_len: int) -> StoppingCriteria | None:
        """Stop strings and the closed-fence stop, as one per-row criterion (None: neither)."""
        parts: list[StoppingCriteria] = []
        if sampling.stop:
            key = tuple(sampling.stop)
            if key not in self._stop_cache:
                self._stop_cache[key] = StopStringCriteria(self.tokenizer, list(sampling.stop))
            parts.append(self._stop_cache[key])
        if sampling.stop_at_closed_fence:
            if self._fence_ids is None:
                self._fence_ids = fence_token_ids(self.tokenizer)
            parts.append(FenceStop(self.tokenizer, prompt_len, self._fence_ids))
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else AnyStop(parts)

    def _processors(self, sampling: SamplingConfig, recorder: _LogprobRecorder) -> list[Any]:
        procs: list[Any] = []
        if sampling.temperature > 0:
            if sampling.temperature != 1.0:
                procs.append(TemperatureLogitsWarper(sampling.temperature))
            if sampling.top_p < 1.0:
                procs.append(TopPLogitsWarper(sampling.top_p))
        return [*procs, recorder]

    def _batch(self, prompts: list[Prompt]) -> tuple[torch.Tensor, torch.Tensor, list[list[int]]]:
        encoded = [encode_prompt(self.tokenizer, p) for p in prompts]
        width = max(len(e) for e in encoded)
        if self.static_cache:
            width = -(-width // self.PAD_MULTIPLE) * self.PAD_MULTIPLE
        pad = self.tokenizer.pad_token_id
        input_ids = torch.tensor([[pad] * (width - len(e)) + e for e in encoded])
        mask = torch.tensor([[0] * (width - len(e)) + [1] * len(e) for e in encoded])
        return input_ids, mask, encoded

    def _decode(
        self, input_ids: torch.Tensor, mask: torch.Tensor, g: int, sampling: SamplingConfig
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(generated ids, their log-probs, per-row end position or -1), all on the CPU."""
        if sampling.decoder == "rlvr" and not self.static_cache and loop_supports(self.model):
            with torch.inference_mode():
                return self._loop_rows(input_ids, mask, g, sampling)
        # the compiled static-cache path runs as transformers runs it (no_grad, not inference
        # mode: its cache and graph tensors then need no special handling)
        with torch.no_grad() if self.static_cache else torch.inference_mode():
            try:
                return self._decode_rows(input_ids, mask, g, sampling)
            except RuntimeError as err:
                fix = dtype_error(err) if self.static_cache else None
                if fix is None:
                    raise
                raise fix from err

    def _loop_rows(
        self, input_ids: torch.Tensor, mask: torch.Tensor, g: int, sampling: SamplingConfig
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """rlvr's own loop (rlvr/policies/decode.py): finished rows leave the batch."""
        prompt_len = input_ids.shape[1]
        stop = self._stop_criteria(sampling, prompt_len)
        out = decode(
            self.model,
            input_ids,
            mask,
            g,
            temperature=sampling.temperature,
            top_p=sampling.top_p,
            max_new=self.max_new_tokens(sampling),
            eos_ids=self.eos_ids,
            pad_id=self.tokenizer.pad_token_id,
            stop=StopTracker(prompt_len, input_ids.shape[0] * g, stop) if stop else None,
        )
        return out.tokens, out.logprobs, finish_positions(out.tokens, self.eos_ids, out.stopped_at)

    def _decode_rows(
        self, input_ids: torch.Tensor, mask: torch.Tensor, g: int, sampling: SamplingConfig
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        prompt_len = input_ids.shape[1]
        recorder = _LogprobRecorder(prompt_len)
        rows = input_ids.shape[0] * g
        stop = self._stop_criteria(sampling, prompt_len)
        tracker = StopTracker(prompt_len, rows, stop) if stop is not None else None
        device = self.model.device
        max_new = self.max_new_tokens(sampling)
        extra: dict[str, Any] = {}
        if self.static_cache:
            if self._kv is not None and self._kv[0] != (rows, prompt_len + max_new):
                self._kv = None  # drop the old shape's tensors before allocating the new
            self._kv, extra = static_kv(self.model, self._kv, rows, prompt_len + max_new)
        sequences = self.model.generate(
            # rows repeated here rather than num_return_sequences, which greedy decoding refuses
            input_ids=input_ids.repeat_interleave(g, dim=0).to(device),
            attention_mask=mask.repeat_interleave(g, dim=0).to(device),
            do_sample=sampling.temperature > 0,
            temperature=1.0,  # applied by our own processors, before the recorder
            top_p=1.0,
            top_k=0,
            min_p=None,
            typical_p=None,
            max_new_tokens=max_new,
            pad_token_id=self.tokenizer.pad_token_id,
            eos_token_id=self.eos_ids or None,
            logits_processor=LogitsProcessorList(self._processors(sampling, recorder)),
            stopping_criteria=StoppingCriteriaList([tracker] if tracker else []),
            **extra,
        )
        logprobs = recorder.finish(sequences)
        # read back once: nothing of ours in the decoding loop waits on the device (the one
        # per-token host read left is transformers' own stop check)
        generated = sequences[:, prompt_len:].cpu()
        stopped_at = tracker.done_at.cpu() if tracker else None
        return (
            generated,
            logprobs.float().cpu(),
            finish_positions(generated, self.eos_ids, stopped_at),
        )

    def _generate(
        self, prompts: list[Prompt], ids: list[str], g: int, sampling: SamplingConfig
    ) -> list[list[Sample]]:
        input_ids, mask, encoded = self._batch(prompts)
        generated, logprobs, done_at = self._decode(input_ids, mask, g, sampling)
        groups: list[list[Sample]] = []
        for p, task_id in enumerate(ids):
            group = []
            for j in range(g):
                row = p * g + j
                end = int(done_at[row])
                length = end + 1 if 0 <= end < generated.shape[1] else generated.shape[1]
                tokens = generated[row, :length].tolist()
                group.append(
                    Sample(
                        task_id=task_id,
                        index=j,
                        text=self.tokenizer.decode(tokens, skip_special_tokens=True),
                        token_ids=tokens,
                        logprobs=logprobs[row, :length].tolist(),
                        prompt_token_ids=encoded[p],
                        finish_reason="stop" if end >= 0 else "length",
                    )
                )
            groups.append(group)
        return groups
