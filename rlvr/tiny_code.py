"""`tiny-code`: the embedded tiny model with a context and a tokenizer that can hold code.

The character tokenizer of `tiny` spends one position per character, so its 512 positions
cannot hold a code prompt (600-1,500 characters with its public tests) plus an answer. This
variant keeps tiny's architecture and size class but uses a byte-level BPE tokenizer trained
offline, with the `tokenizers` library, on the train-split text of the bundled code
environments (prompts as the policy sees them, and reference answers), and 2,048 positions.
Code text comes out at roughly 3-4 characters per token, so the longest prompt and answer of
every stack fit with room to spare. Byte-level BPE never produces an unknown token. Digits are
split one per token before BPE: otherwise "8", " 8" and "-8" in a docstring and in code are
different tokens, and a tiny model must learn each mapping to copy a constant from the task
into its answer (measured on synth-python after 400 warm-start steps: greedy pass@1 on 100 train
tasks 0.06 with merged numbers, 0.12 with split digits).

`tiny-code-sft` is tiny-code warm-started with `rlvr.sft` on the train-split references of
those environments, all stacks together. Both are built on first use and cached under
RLVR_CACHE; the cache key covers the model config, the tokenizer recipe, the SFT recipe and
the digest of the tasks used, so changing any of them (or adding a stack's tasks) builds a new
copy. Only train-split tasks feed the tokenizer and the warm start: held-out prompts and
references never shape the model that is evaluated on them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rlvr.discovery import discover
from rlvr.env import Environment
from rlvr.registry import load_env
from rlvr.splits import filter_split
from rlvr.tiny import (
    CHAT_TEMPLATE,
    EOS,
    MODEL_CONFIG,
    PAD,
    SFT_THREADS,
    UNK,
    build_llama,
    cache_root,
    digest,
    publish,
)
from rlvr.types import Task

if TYPE_CHECKING:
    from transformers import LlamaForCausalLM, PreTrainedTokenizerFast

TINY_CODE_VERSION = "2"
CODE_ENVS = (
    "synth-python",
    "synth-javascript",
    "synth-go",
    "synth-rust",
    "python",
    "javascript",
    "go",
    "rust",
)
VOCAB_SIZE = 2048
CODE_MODEL_CONFIG: dict[str, Any] = {**MODEL_CONFIG, "max_position_embeddings": 2048}
CODE_MAX_NEW_TOKENS = 256


def code_sft_recipe() -> dict[str, Any]:
    """The warm start of tiny-code-sft (see rlvr.sft.SFTConfig)."""
    return {"steps": 200, "batch_size": 8, "lr": 2e-3, "warmup_steps": 20, "seed": 0}


def code_envs() -> list[Environment]:
    """The registered environments among CODE_ENVS (synth-* join once they exist)."""
    known = discover()
    return [load_env(name) for name in CODE_ENVS if name in known]


def train_examples(envs: list[Environment]) -> list[tuple[Environment, Task]]:
    """(env, task) for every train-split task with a reference, env by env in a fixed order."""
    return [
        (env, t)
        for env in envs
        for t in filter_split(env.tasks(), env.split, env.name, "train")
        if t.reference
    ]


def corpus(examples: list[tuple[Environment, Task]]) -> Iterator[str]:
    """The tokenizer's training text: each prompt as the policy sees it, and its answer."""
    from rlvr.sft import reference_answer  # heavy: imports torch and transformers

    for env, task in examples:
        yield env.format_prompt(task)
        yield reference_answer(env, task)


def build_code_tokenizer(texts: Iterator[str]) -> PreTrainedTokenizerFast:
    """A byte-level BPE over `texts` (VOCAB_SIZE entries), with tiny's chat template."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    core = Tokenizer(models.BPE())
    core.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Digits(individual_digits=True),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True),
        ]
    )
    core.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        min_frequency=2,
        special_tokens=[PAD, EOS, UNK],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    core.train_from_iterator(texts, trainer=trainer)
    tok = PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token=PAD, eos_token=EOS, unk_token=UNK
    )
    tok.chat_template = CHAT_TEMPLATE
    return tok


def build_tiny_code(tokenizer: PreTrainedTokenizerFast, seed: int = 0) -> LlamaForCausalLM:
    """The untrained model for `tokenizer`; the same seed gives the same weights."""
    return build_llama(tokenizer, CODE_MODEL_CONFIG, CODE_MAX_NEW_TOKENS, seed)


def _task_digest(examples: list[tuple[Environment, Task]]) -> str:
    """Digest of the training text exactly as the tokenizer and the warm start see it."""
    from rlvr.sft import reference_answer  # heavy: imports torch and transformers

    return digest(
        [[env.name, t.id, env.format_prompt(t), reference_answer(env, t)] for env, t in examples]
    )


def tiny_code_dir(cache_dir: str | Path | None = None, seed: int = 0) -> Path:
    """The folder of the untrained tiny-code model and its tokenizer, built on first use."""
    examples = train_examples(code_envs())
    key = digest(
        {
            "v": TINY_CODE_VERSION,
            "model": CODE_MODEL_CONFIG,
            "vocab": VOCAB_SIZE,
            "seed": seed,
            "max": CODE_MAX_NEW_TOKENS,
            "tasks": _task_digest(examples),
        }
    )
    target = Path(cache_dir or cache_root()) / f"tiny-code-{key}"

    def build(into: Path) -> None:
        tok = build_code_tokenizer(corpus(examples))
        model = build_tiny_code(tok, seed)
        model.save_pretrained(into)
        tok.save_pretrained(into)

    return publish(build, target)


def tiny_code_sft_dir(
    cache_dir: str | Path | None = None, on_step: Callable[[int, float], None] | None = None
) -> Path:
    """tiny-code warm-started on the train-split references of every code environment;
    `on_step(step, loss)` follows the warm start when it has to be built."""
    from rlvr.sft import (  # heavy: imports torch and transformers
        SFTConfig,
        reference_examples,
        run_sft_examples,
    )

    examples = train_examples(code_envs())
    base = tiny_code_dir(cache_dir)
    recipe = {**code_sft_recipe(), "threads": SFT_THREADS}
    key = digest({"base": base.name, "recipe": recipe, "tasks": _task_digest(examples)})
    target = Path(cache_dir or cache_root()) / f"tiny-code-sft-{key}"

    def build(into: Path) -> None:
        config = SFTConfig(**code_sft_recipe())
        pairs = reference_examples(examples)
        run_sft_examples(str(base), pairs, config, into, "code-stacks", SFT_THREADS, on_step)

    return publish(build, target)
