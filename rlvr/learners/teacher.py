"""On-policy distillation: a teacher scores the student's own samples, token by token.

The student samples as in GRPO (single answers or whole episodes); a teacher that shares its
tokenizer scores every sampled token, and each token's advantage becomes

    A_t = reward_weight * A_group + teacher_weight * (log p_teacher(x_t) - log p_student(x_t))

where the second term is minus the per-token reverse KL, estimated on the student's own
sample (on-policy distillation: Agarwal et al., "On-Policy Distillation of Language Models:
Learning from Self-Generated Mistakes" (GKD), 2024; Thinking Machines, "On-Policy Distillation",
2025). The clipped surrogate then pushes up the tokens the teacher likes more than the
student does and pushes down the rest; the environment's tokens of an episode stay masked.
`reward_weight = 0` is pure distillation (every group trains, even one of equal rewards);
both weights mix the teacher's signal with the verifiable reward.

When to use which: SFT on verified episodes (`rlvr sft --episodes`) teaches a format the
student never produces (it trains on the teacher's tokens); on-policy distillation corrects the
student where it actually goes (its own samples), with a dense per-token signal, once it
produces something the teacher can score; GRPO alone needs rewards that vary within a group.
"""

from __future__ import annotations

from typing import Any

import httpx
import torch

from rlvr.errors import RlvrError
from rlvr.learners.batch import TokenBatch, score
from rlvr.learners.common import frozen_copy
from rlvr.learners.config import LearnerConfig
from rlvr.models import resolve_model
from rlvr.policies.hf import load_tokenizer


class ServedTeacher:
    """A teacher behind an OpenAI-compatible completions endpoint that echoes the prompt's
    log-probabilities (`echo` with `logprobs`, as vLLM serves them): the student's ids go as the
    prompt, and the server must share the student's tokenizer (rlvr checks that it echoes as
    many tokens as it was sent). The log-probabilities are the server's raw ones (temperature
    1): sample the student at temperature 1 to compare like with like."""

    def __init__(self, url: str, timeout_s: float = 300.0) -> None:
        self.url = url.rstrip("/")
        self.client = httpx.Client(timeout=timeout_s)
        try:
            models = self.client.get(f"{self.url}/models").json().get("data") or []
            self.model = str(models[0]["id"])
        except (httpx.HTTPError, ValueError, LookupError, TypeError, AttributeError) as e:
            raise RlvrError(f"teacher server {self.url} did not list a model ({e})",
                            "start it (vllm serve MODEL) or check the URL") from None  # fmt: skip

    def logprobs(self, ids: list[int]) -> list[float]:
        """Each token's log-probability given the ones before it (the first has none: 0.0)."""
        body = {"model": self.model, "prompt": ids, "max_tokens": 0, "echo": True, "logprobs": 0}
        try:
            reply = self.client.post(f"{self.url}/completions", json=body)
            reply.raise_for_status()
            got = reply.json()["choices"][0]["logprobs"]["token_logprobs"]
        except (httpx.HTTPError, ValueError, LookupError, TypeError) as e:
            raise RlvrError(f"teacher server {self.url} gave no prompt log-probabilities ({e})",
                            "serve a model that echoes them (vLLM's completions endpoint)"
                            ) from None  # fmt: skip
        if len(got) != len(ids):
            raise RlvrError(
                f"teacher server {self.url} echoed {len(got)} tokens for {len(ids)} sent: it "
                "does not share the student's tokenizer",
                "serve a teacher of the student's family, or distil with `rlvr sft --episodes`",
            )
        return [0.0 if x is None else float(x) for x in got]

    def score(self, batch: TokenBatch) -> torch.Tensor:
        """The (N, T) log-probabilities of every row's completion tokens."""
        out = torch.zeros(batch.completion_mask.shape)
        p = batch.prompt_width
        for i in range(len(batch)):
            keep = batch.attention_mask[i].bool()
            ids = batch.input_ids[i][keep].tolist()
            n = int(batch.attention_mask[i, p:].sum())
            if n:
                out[i, :n] = torch.tensor(self.logprobs(ids)[-n:])
        return out.to(batch.input_ids.device)


def load_teacher(cfg: LearnerConfig, tokenizer: Any, device: torch.device) -> Any:
    """The frozen teacher (a local model, or a served one for an http URL); a local one is
    refused unless it reads the student's token ids the same way."""
    assert cfg.teacher is not None
    if cfg.teacher.startswith(("http://", "https://")):
        return ServedTeacher(cfg.teacher)
    theirs = load_tokenizer(resolve_model(cfg.teacher)).get_vocab()
    if theirs != tokenizer.get_vocab():
        raise RlvrError(
            f"teacher {cfg.teacher!r} does not share the student's tokenizer ({len(theirs)} vs "
            f"{len(tokenizer.get_vocab())} tokens): it cannot score the student's token ids",
            "pick a teacher of the student's family (same tokenizer), or distil from its "
            "episodes with `rlvr sft --episodes`",
        )
    return frozen_copy(cfg.teacher, cfg, device)


def distil_advantages(batch: TokenBatch, teacher_logp: torch.Tensor, cfg: LearnerConfig) -> None:
    """Replace the batch's advantages with the mix above (per token, masked), and keep the
    per-token reverse KL estimate for the metrics (`per_token["reverse_kl"]`)."""
    mask = batch.completion_mask
    rkl = torch.where(mask, batch.old_logp - teacher_logp, torch.zeros_like(teacher_logp))
    group = batch.advantages
    if group.dim() == 1:
        group = group[:, None].expand_as(rkl)
    mixed = cfg.reward_weight * group - cfg.teacher_weight * rkl
    batch.advantages = torch.where(mask, mixed, torch.zeros_like(mixed))
    batch.per_token["reverse_kl"] = rkl


def mean_reverse_kl(batch: TokenBatch) -> float | None:
    """The step's mean per-token reverse KL to the teacher (None without a teacher)."""
    rkl = batch.per_token.get("reverse_kl")
    if rkl is None:
        return None
    n = batch.completion_mask.sum()
    return float(rkl.sum() / n.clamp(min=1))


def teacher_scores(teacher: Any, batch: TokenBatch, cfg: LearnerConfig) -> torch.Tensor:
    """The teacher's log-probabilities of the student's sampled tokens (no gradient)."""
    if isinstance(teacher, ServedTeacher):
        return teacher.score(batch)
    with torch.no_grad():
        return score(teacher, batch, cfg.temperature, cfg.micro_batch_size)
