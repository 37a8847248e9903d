"""Policies: the models that answer prompts, behind one `sample` call.

Backends: `hf` (a local transformers model), `openai` (any OpenAI-compatible server), `replay`
(completions read from a file). Which backend a `--model` value names is `rlvr.models`' job.
"""

from rlvr.policies.base import Message, Policy, Prompt, SamplingConfig

__all__ = ["Message", "Policy", "Prompt", "SamplingConfig"]
