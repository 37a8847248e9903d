"""The embedded default model `tiny`: a ~1.6M-parameter Llama-style causal LM built offline.

Everything is constructed locally from a config (no download): a character-level tokenizer over
printable ASCII built with `tokenizers`, and a randomly initialised `LlamaForCausalLM` seeded
for determinism. `tiny-sft` is the same model warm-started on the math environment's
train-split reference answers by a fixed, seeded recipe, so that sampled at temperature 1 it
passes some but not all of the easy tasks: the frontier where group-relative RL has signal.

The one decision a reader would question: a Llama-style config rather than Qwen2. A folder whose
`config.json` says `qwen2` makes transformers' Auto loaders swap in Qwen2's tokenizer class,
which drops the spaces of this character tokenizer; with a Llama config `AutoTokenizer` loads
the saved tokenizer as it is. The architecture is the same family (RMSNorm, RoPE, SwiGLU, GQA).

The tokenizer's chat template renders only the user turns (`Q: ...` then `A: `) and ignores
the system prompt: a 1.6M-parameter model gains nothing from a long preamble, and short
prompts keep rollouts fast on CPU.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rlvr.registry import load_env
from rlvr.selection import select_tasks
from rlvr.splits import stable_subset

if TYPE_CHECKING:
    from transformers import LlamaForCausalLM, PreTrainedTokenizerFast

    from rlvr.types import Task

TINY_VERSION = "2"
PAD, EOS, UNK = "<pad>", "<|endoftext|>", "<unk>"
CHARS = [chr(i) for i in range(32, 127)] + ["\n", "\t"]
CHAT_TEMPLATE = (
    "{%- for m in messages -%}"
    "{%- if m['role'] == 'user' -%}{{ 'Q: ' + m['content'] + '\\n' }}"
    "{%- elif m['role'] == 'assistant' -%}{{ 'A: ' + m['content'] + '" + EOS + "\\n' }}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{ 'A: ' }}{%- endif -%}"
)
MODEL_CONFIG: dict[str, Any] = {
    "hidden_size": 128,
    "intermediate_size": 512,
    "num_hidden_layers": 6,
    "num_attention_heads": 4,
    "num_key_value_heads": 4,
    "max_position_embeddings": 512,
    "rms_norm_eps": 1e-5,
    "rope_theta": 10000.0,
    "tie_word_embeddings": True,
}
SFT_ENV = "math"
MAX_NEW_TOKENS = 64  # the longest easy reference is 44 characters
SFT_DIFFICULTY = "easy"
SFT_THREADS = 1  # cheapest on a shared machine, and the same float order everywhere


def cache_root() -> Path:
    """Where built models are cached: $RLVR_CACHE, else ~/.cache/rlvr."""
    return Path(os.environ.get("RLVR_CACHE") or Path.home() / ".cache" / "rlvr")


def build_tokenizer() -> PreTrainedTokenizerFast:
    """A character-level tokenizer over printable ASCII, newline and tab (others become <unk>).

    A BPE model with no merges maps each character to its own id; the Fuse decoder joins them
    back without inserting spaces.
    """
    from tokenizers import Tokenizer, decoders, models
    from transformers import PreTrainedTokenizerFast

    vocab = {tok: i for i, tok in enumerate([PAD, EOS, UNK, *CHARS])}
    core = Tokenizer(models.BPE(vocab=vocab, merges=[], unk_token=UNK))
    core.decoder = decoders.Fuse()
    tok = PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token=PAD, eos_token=EOS, unk_token=UNK
    )
    tok.chat_template = CHAT_TEMPLATE
    return tok


def build_llama(
    tok: PreTrainedTokenizerFast, config: dict[str, Any], max_new_tokens: int, seed: int = 0
) -> LlamaForCausalLM:
    """A randomly initialised Llama-style model for `tok` (tiny and tiny-code share it); the
    same seed gives the same weights."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    llama = LlamaConfig(
        vocab_size=len(tok),
        pad_token_id=tok.pad_token_id,
        eos_token_id=tok.eos_token_id,
        bos_token_id=None,
        **config,
    )
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = LlamaForCausalLM(llama)
    model.generation_config.pad_token_id = tok.pad_token_id
    model.generation_config.eos_token_id = tok.eos_token_id
    model.generation_config.max_new_tokens = max_new_tokens
    return model.eval()


def build_tiny(seed: int = 0) -> tuple[LlamaForCausalLM, PreTrainedTokenizerFast]:
    """Build the untrained tiny model and its tokenizer; the same seed gives the same weights."""
    tok = build_tokenizer()
    return build_llama(tok, MODEL_CONFIG, MAX_NEW_TOKENS, seed), tok


def load_tokenizer(path: str | Path) -> PreTrainedTokenizerFast:
    """Load a saved tiny tokenizer by its explicit class, never through the Auto loaders."""
    from transformers import PreTrainedTokenizerFast

    return PreTrainedTokenizerFast.from_pretrained(str(path))


def digest(obj: Any) -> str:
    """A short stable hash of a JSON-able value: the cache keys of built models."""
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:12]


@contextlib.contextmanager
def _locked(target: Path) -> Iterator[None]:
    """Serialise builders of one cache folder across processes (a test run and a CLI run)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}.lock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def publish(build_into: Any, target: Path) -> Path:
    """Build into a temporary folder beside `target`, then rename: never a half-written model."""
    with _locked(target):
        if (target / "config.json").is_file():
            return target
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
        try:
            build_into(tmp)
            os.replace(tmp, target)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def tiny_dir(cache_dir: str | Path | None = None, seed: int = 0) -> Path:
    """The folder of the untrained tiny model, built and saved on first use."""
    key = digest(
        {
            "v": TINY_VERSION,
            "model": MODEL_CONFIG,
            "chars": CHARS,
            "seed": seed,
            "max": MAX_NEW_TOKENS,
        }
    )
    target = Path(cache_dir or cache_root()) / f"tiny-{key}"

    def build(into: Path) -> None:
        model, tok = build_tiny(seed)
        model.save_pretrained(into)
        tok.save_pretrained(into)

    return publish(build, target)


def sft_recipe() -> dict[str, Any]:
    """The bundled warm-start: steps, learning rate, batch and seed (see rlvr.sft.SFTConfig)."""
    return {"steps": 300, "batch_size": 32, "lr": 3e-3, "warmup_steps": 30, "seed": 0}


def columns_sft_recipe() -> dict[str, Any]:
    """The warm start of `tiny-columns-sft`, the demo's starting model on `math-columns`.

    800 steps: past the step where tiny picks up the column rule, which lands anywhere
    between about 500 and 700 steps with the data order (600 steps gave 0.22 sampled pass@1 on
    the full train split and 0.76 on unseen pairs with 128 train pairs left out). At 800 it
    answers about 80% of pairs sampled at temperature 1 and more greedily: what GRPO can
    sharpen. About 1,000 steps answer nearly every pair and leave RL nothing.
    """
    return {"steps": 800, "batch_size": 32, "lr": 3e-3, "warmup_steps": 30, "seed": 0}


VALIDATION_PAIRS = 128  # math-columns train pairs no columns warm start built to a strength sees


def columns_strength_rule() -> dict[str, Any]:
    """When the demo's columns warm start stops (rlvr.warm_strength.StrengthRule): at the first
    check from step 500 on, every 50 steps, whose sampled pass@1 on the validation pairs
    (8 answers each) reaches 0.8; else after the recipe's 800 steps.

    0.8 is the top of the range where GRPO's rise was measured on validation (8 warm starts
    built on the other 789 pairs read 0.51 to 0.81 on them, and every one rose, 7 at
    p < 0.05, bench/README.md); a stronger warm start leaves GRPO too little to sharpen.
    """
    return {"target": 0.8, "start": 500, "every": 50, "samples": 8}


def validation_pairs() -> list[Any]:
    """The 128 math-columns train pairs that a strength-built warm start measures itself on
    (a stable hash choice; bench/demo_seeds.py chooses GRPO's recipe on the same pairs)."""
    train = select_tasks(load_env("math-columns"), split="train")
    return stable_subset(train, VALIDATION_PAIRS, salt="validation")


def tiny_sft_dir(
    cache_dir: str | Path | None = None, on_step: Callable[[int, float], None] | None = None
) -> Path:
    """The folder of `tiny-sft`: tiny warm-started on the math env's easy reference answers
    of the train split (the held-out easy tasks stay unseen, so `rlvr eval` measures them).

    Built once (about a minute or two on two CPU cores) and cached under a key that covers the
    model, the recipe and the task file, so changing any of them builds a fresh copy.
    `on_step(step, loss)` follows the warm start when it has to be built.
    """
    return _warm_start(SFT_ENV, SFT_DIFFICULTY, sft_recipe(), "tiny-sft", cache_dir, on_step)


def tiny_columns_sft_dir(
    cache_dir: str | Path | None = None,
    on_step: Callable[[int, float], None] | None = None,
    seed: int = 0,
    leave_out: Collection[str] = (),
    device: str = "cpu",
    steps: int | None = None,
    to_strength: bool = True,
) -> Path:
    """The folder of `tiny-columns-sft`: tiny warm-started on the train-split references of
    `math-columns` (two-digit column arithmetic); built once, cached like tiny-sft.

    The defaults build the demo's starting model: built to a strength (`to_strength`), it
    leaves the 128 validation pairs out and stops once it answers them well enough
    (`columns_strength_rule`); without, it trains the recipe's 800 steps on every train pair
    not in `leave_out` (the agent stage's base). A recipe search varies `seed` (the data
    order, which another machine's float order varies too), leaves a validation slice out
    (`leave_out`: task ids), may build on a GPU and may take fewer `steps` (a quick check of
    the plumbing); each of these has its own cache entry.
    """
    recipe = {**columns_sft_recipe(), "seed": seed} | ({"steps": steps} if steps else {})
    probe: list[Any] = []
    if to_strength:
        probe = validation_pairs()
        leave_out = {*leave_out, *(t.id for t in probe)}
        recipe["stop"] = columns_strength_rule()
    return _warm_start(
        "math-columns",
        None,
        recipe,
        "tiny-columns-sft",
        cache_dir,
        on_step,
        frozenset(leave_out),
        device,
        probe,
    )


def _warm_start(
    env_name: str,
    difficulty: str | None,
    sft: dict[str, Any],
    prefix: str,
    cache_dir: str | Path | None,
    on_step: Callable[[int, float], None] | None,
    leave_out: frozenset[str] = frozenset(),
    device: str = "cpu",
    probe: Sequence[Task] = (),
) -> Path:
    """tiny fine-tuned by the recipe `sft` on one environment's train-split references (of one
    difficulty, or all; less the ids in `leave_out`), cached under `<prefix>-<key>`: the key
    covers the base model, the recipe, the tasks and a device other than the CPU, so changing
    any of them builds a fresh copy. A recipe with a "stop" rule (rlvr.warm_strength) ends
    SFT once the model reaches its strength on the `probe` tasks; sft.json records each check."""
    env = load_env(env_name)
    tasks = [
        t
        for t in env.tasks_in("train")
        if (difficulty is None or t.meta.get("difficulty") == difficulty) and t.id not in leave_out
    ]
    task_key = digest([[t.id, t.prompt, t.reference] for t in tasks])
    recipe = {**sft, "threads": SFT_THREADS} | ({"device": device} if device != "cpu" else {})
    ids = {"base": tiny_dir(cache_dir).name, "recipe": recipe, "tasks": task_key}
    key = digest(ids | ({"probe": sorted(t.id for t in probe)} if probe else {}))
    target = Path(cache_dir or cache_root()) / f"{prefix}-{key}"

    def build(into: Path) -> None:
        from rlvr.sft import SFTConfig, run_sft  # heavy: imports torch and transformers
        from rlvr.warm_strength import StrengthRule, StrengthStop  # heavy: imports torch

        base = str(tiny_dir(cache_dir))
        config = SFTConfig(**{k: v for k, v in sft.items() if k != "stop"})
        stop = None
        if "stop" in sft:
            rule = StrengthRule(**sft["stop"])
            stop = StrengthStop(rule, env, probe, load_tokenizer(base), threads=SFT_THREADS)
        run_sft(env, base, config, into, tasks, device, on_step, SFT_THREADS, stop=stop)
        if stop is not None:
            record = json.loads((into / "sft.json").read_text(encoding="utf-8"))
            record["strength"] = stop.record()
            (into / "sft.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")

    return publish(build, target)
