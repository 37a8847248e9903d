"""Policies: the models that answer prompts, behind one `sample` call.

`make_policy(spec)` understands:

| spec | policy |
| --- | --- |
| `tiny` | the embedded untrained tiny model (built locally, cached) |
| `tiny-sft` | tiny warm-started on the math env's easy train-split tasks (built, cached) |
| `tiny-code` | tiny with a byte-level BPE tokenizer and 2,048 positions, for code (cached) |
| `tiny-code-sft` | tiny-code warm-started on the code stacks' train-split references |
| a folder | a transformers checkpoint saved with `save_pretrained` |
| a run folder | the policy of its newest checkpoint (`rlvr train --out RUN`) |
| `http(s)://host:port/v1` | an OpenAI-compatible server (vLLM, SGLang, llama.cpp) |
| `replay:FILE` | completions read from a JSONL file of `{"task_id", "completion"}` |
| anything else | a Hugging Face hub name, loaded with `from_pretrained` |
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rlvr.errors import PolicyError
from rlvr.policies.base import Message, Policy, Prompt, SamplingConfig

__all__ = [
    "Message",
    "Policy",
    "Prompt",
    "SamplingConfig",
    "default_threads",
    "make_policy",
    "resolve_model",
]


def resolve_model(spec: str) -> str:
    """The folder or hub name that a local-model spec stands for (builds tiny models on demand)."""
    from rlvr import tiny

    if spec == "tiny":
        return str(tiny.tiny_dir())
    if spec == "tiny-sft":
        return str(tiny.tiny_sft_dir())
    if spec in ("tiny-code", "tiny-code-sft"):
        from rlvr import tiny_code

        build = tiny_code.tiny_code_dir if spec == "tiny-code" else tiny_code.tiny_code_sft_dir
        return str(build())
    path = Path(spec).expanduser()
    if path.is_dir() and ((path / "checkpoints").is_dir() or (path / "policy").is_dir()):
        path = _checkpoint_policy(path)  # a run folder (its config.json is the run's settings)
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise PolicyError(
                f"model folder {path} has no config.json",
                "point --model at a folder written by save_pretrained (or `rlvr sft --out`)",
            )
        return str(path)
    if spec.startswith((".", "/", "~")) or spec.count("/") > 1:
        raise PolicyError(
            f"model {spec!r} looks like a path but no such folder exists",
            "check the path, or use 'tiny', 'tiny-sft', a hub name like 'Qwen/Qwen2.5-0.5B', "
            "an http://host:port/v1 URL or replay:FILE",
        )
    return spec


def _checkpoint_policy(path: Path) -> Path:
    """A run folder stands for its newest complete checkpoint's policy; a checkpoint folder
    (checkpoints/step-NNNNNN) for its policy."""
    if (path / "policy" / "config.json").is_file():
        return path / "policy"
    done = sorted(p for p in (path / "checkpoints").glob("step-*") if (p / "trainer.pt").is_file())
    if done and (done[-1] / "policy" / "config.json").is_file():
        return done[-1] / "policy"
    raise PolicyError(
        f"run folder {path} has no complete checkpoint yet",
        "let `rlvr train` reach its first save (save_every, or the last step), or point "
        "--model at a model folder",
    )


TINY_SPECS = ("tiny", "tiny-sft", "tiny-code", "tiny-code-sft")


def default_threads(spec: str) -> int | None:
    """CPU threads for a local model: one for the tiny models, torch's default otherwise."""
    return 1 if spec in TINY_SPECS else None


def make_policy(spec: str, **kw: Any) -> Policy:
    """Build the policy a spec names; keyword arguments go to that policy's constructor."""
    if spec.startswith("replay:"):
        from rlvr.policies.replay import ReplayPolicy

        return ReplayPolicy(spec.removeprefix("replay:"), **kw)
    if spec.startswith(("http://", "https://")):
        from rlvr.policies.openai import OpenAIPolicy

        return OpenAIPolicy(spec, **kw)
    from rlvr.policies.hf import HFPolicy

    kw.setdefault("threads", default_threads(spec))
    policy = HFPolicy.from_pretrained(resolve_model(spec), **kw)
    policy.name = spec
    return policy
