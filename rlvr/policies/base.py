"""The policy contract: prompts in, G samples per prompt out, with token log-probabilities.

Every backend (a local transformers model, an OpenAI-compatible server, a replay file) answers
the same call, so rollouts, frontier estimation and training never ask which one they hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rlvr.types import Sample

Message = dict[str, str]


class TokenPrompt(BaseModel):
    """A prompt given as token ids: an episode's exact context, for a policy that can read it.

    `messages` is the same context as chat messages, for policies that cannot (a server, a
    replay file)."""

    model_config = ConfigDict(extra="forbid")

    ids: list[int]
    messages: list[Message] = Field(default_factory=list)


Prompt = str | list[Message] | TokenPrompt
"""A raw text prompt, chat messages (`[{"role": "user", "content": ...}, ...]`), or token ids."""


class SamplingConfig(BaseModel):
    """How to sample completions; the same fields mean the same thing for every backend."""

    model_config = ConfigDict(extra="forbid")

    temperature: float = Field(
        default=1.0, ge=0.0, description="Softmax temperature; 0 means greedy decoding."
    )
    top_p: float = Field(default=1.0, gt=0.0, le=1.0, description="Nucleus sampling mass.")
    max_new_tokens: int | None = Field(
        default=None,
        ge=1,
        description="Completion length limit; None: the model's own default (a local model's "
        "generation_config.max_new_tokens, else 256; a server's default).",
    )
    seed: int | None = Field(
        default=None, description="Seed for reproducible sampling (None: not seeded)."
    )
    stop: list[str] = Field(
        default_factory=list, description="Strings that end a completion when generated."
    )
    stop_at_closed_fence: bool = Field(
        default=False,
        description="End a completion after its first closed fenced block (its closing fence "
        "line), never at the opening fence. Set by environments whose answer is one block.",
    )
    tools: list[dict[str, Any]] | None = Field(
        default=None,
        description="An episode's offered tools (name, description, JSON Schema parameters). A "
        "server gets them as the OpenAI `tools` list; a local model reads them in the prompt.",
    )
    decoder: Literal["rlvr", "generate"] = Field(
        default="rlvr",
        description="A local model's decoding loop: 'rlvr' (prefill once per prompt, finished "
        "rows leave the batch) or transformers' 'generate'. The static-cache (GPU) path always "
        "uses generate; other backends ignore this.",
    )

    @model_validator(mode="after")
    def _stop_not_empty(self) -> SamplingConfig:
        if any(s == "" for s in self.stop):
            raise ValueError("stop strings must not be empty; remove the empty entry")
        return self


@runtime_checkable
class Policy(Protocol):
    """Answers prompts. `sample` returns, per prompt and in order, a list of G samples.

    `task_ids` label the samples (a replay policy also uses them to find its completions);
    when omitted, samples are labelled with the prompt's position ("0", "1", ...).
    Each sample carries `finish_reason` ("stop" or "length") and, where the backend can give
    them, `token_ids` and per-token `logprobs` of the sampled tokens.
    """

    name: str

    def sample(
        self,
        prompts: Sequence[Prompt],
        g: int,
        sampling: SamplingConfig,
        task_ids: Sequence[str] | None = None,
    ) -> list[list[Sample]]: ...


def label_ids(prompts: Sequence[Prompt], task_ids: Sequence[str] | None) -> list[str]:
    """The task id of each prompt: the given ids, or positions; checks the lengths agree."""
    if task_ids is None:
        return [str(i) for i in range(len(prompts))]
    if len(task_ids) != len(prompts):
        raise ValueError(
            f"got {len(prompts)} prompts but {len(task_ids)} task ids; give one id per prompt"
        )
    return list(task_ids)


def check_g(g: int) -> None:
    if g < 1:
        raise ValueError(f"group size G must be at least 1, got {g}")
