"""Supervised warm-start: teach a model an environment's reference answers before RL.

RL from a correctness reward needs a policy that already succeeds sometimes: a random model
gets all-zero groups, and every estimator in `rlvr.advantages` gives a constant group zero
advantages: no signal. This is a plain, seeded PyTorch loop: the prompt is rendered exactly
as the policy will see it (chat template included), the task's `reference` is the completion,
and the loss covers only completion tokens and the closing EOS, so the model learns to answer,
not to echo prompts.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import torch
from pydantic import BaseModel, ConfigDict, Field
from transformers import PreTrainedModel, PreTrainedTokenizerBase

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.policies.base import Policy, Prompt, SamplingConfig
from rlvr.policies.hf import encode_prompt, load_pretrained, torch_threads
from rlvr.policies.lora import LoraFields, add_lora, save_model
from rlvr.rollout import RolloutConfig, score_tasks
from rlvr.types import Task

IGNORE = -100
StopCheck = Callable[[int, PreTrainedModel], bool]  # (steps done, model) -> end training now


class SFTConfig(LoraFields):
    """Settings of the warm-start loop (LoRA: see `rlvr.policies.lora`)."""

    model_config = ConfigDict(extra="forbid")

    steps: int = Field(default=300, ge=1, description="Optimizer steps.")
    batch_size: int = Field(default=32, ge=1, description="Examples per step.")
    lr: float = Field(default=3e-3, gt=0, description="Peak learning rate (AdamW).")
    warmup_steps: int = Field(default=30, ge=0, description="Linear warm-up steps.")
    min_lr_ratio: float = Field(
        default=0.1, ge=0, le=1, description="Cosine decay ends at lr * this."
    )
    weight_decay: float = Field(default=0.0, ge=0)
    grad_clip: float = Field(default=1.0, gt=0, description="Gradient norm clip.")
    max_length: int | None = Field(
        default=None,
        ge=8,
        description="Prompt + completion token cap (None: the model's max_position_embeddings).",
    )
    seed: int = Field(default=0, description="Seeds batch order (and dropout, if any).")


class SFTResult(BaseModel):
    """What the warm-start did: loss curve (one mean per logging window) and timing."""

    n_examples: int
    steps: int
    first_loss: float
    last_loss: float
    losses: list[float]
    seconds: float
    stopped_early: bool = False  # a `stop` check ended training before config.steps


def answer_fence(env: Environment) -> str | None:
    """The fence tag an environment's answers are written in, when its grader reads one: a
    code grader in "fenced" mode (its first language), or a function-task grader (its stack
    translator's first language, as the prompts ask)."""
    grader = env.grader
    options = getattr(grader, "options", None)
    if getattr(options, "extract", None) == "fenced" and getattr(options, "language", None):
        return str(options.language[0])
    languages = getattr(getattr(grader, "translator", None), "LANGUAGES", None)
    return str(languages[0]) if languages else None


def reference_answer(env: Environment, task: Task) -> str:
    """The task's reference written as an answer, fenced where the environment's answers are
    (see `answer_fence`), so that SFT teaches the form the grader and the prompt expect."""
    reference = task.reference or ""
    fence = answer_fence(env)
    return f"```{fence}\n{reference.rstrip()}\n```" if fence else reference


def reference_examples(pairs: Sequence[tuple[Environment, Task]]) -> list[tuple[Prompt, str]]:
    """(chat messages, answer) for (env, task) pairs from one or several environments."""
    return [(env.messages(t), reference_answer(env, t)) for env, t in pairs if t.reference]


def examples_from_tasks(env: Environment, tasks: Sequence[Task]) -> list[tuple[Prompt, str]]:
    """(chat messages, reference answer) for every task that has a reference."""
    pairs = reference_examples([(env, t) for t in tasks])
    if not pairs:
        raise RlvrError(
            f"sft: none of the {len(tasks)} selected tasks of environment {env.name!r} has a "
            "reference answer",
            "pick an environment or tasks whose JSONL lines carry a 'reference' field",
        )
    return pairs  # type: ignore[return-value]


def encode_example(
    tokenizer: PreTrainedTokenizerBase, prompt: Prompt, completion: str, max_length: int
) -> tuple[list[int], list[int]]:
    """(input_ids, labels): labels are IGNORE on prompt tokens, the completion + EOS after."""
    p = encode_prompt(tokenizer, prompt)
    c = list(tokenizer(completion, add_special_tokens=False)["input_ids"])
    c.append(tokenizer.eos_token_id)
    ids = (p + c)[:max_length]
    labels = ([IGNORE] * len(p) + c)[:max_length]
    return ids, labels


def _collate(
    batch: list[tuple[list[int], list[int]]], pad: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    width = max(len(ids) for ids, _ in batch)
    ids = torch.tensor([x + [pad] * (width - len(x)) for x, _ in batch])
    labels = torch.tensor([y + [IGNORE] * (width - len(y)) for _, y in batch])
    mask = torch.tensor([[1] * len(x) + [0] * (width - len(x)) for x, _ in batch])
    return ids, labels, mask


def _lr_at(step: int, cfg: SFTConfig) -> float:
    if step < cfg.warmup_steps:
        return cfg.lr * (step + 1) / cfg.warmup_steps
    progress = (step - cfg.warmup_steps) / max(1, cfg.steps - cfg.warmup_steps)
    cosine = 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
    return cfg.lr * (cfg.min_lr_ratio + (1 - cfg.min_lr_ratio) * cosine)


def completion_loss(
    model: PreTrainedModel, ids: torch.Tensor, labels: torch.Tensor, mask: torch.Tensor
) -> torch.Tensor:
    """Mean next-token cross-entropy over completion tokens only."""
    logits = model(input_ids=ids, attention_mask=mask).logits[:, :-1]
    target = labels[:, 1:]
    return torch.nn.functional.cross_entropy(
        logits.reshape(-1, logits.shape[-1]).float(), target.reshape(-1), ignore_index=IGNORE
    )


def train_sft(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerBase,
    examples: Sequence[tuple[Prompt, str]],
    config: SFTConfig,
    on_step: Callable[[int, float], None] | None = None,
    stop: StopCheck | None = None,
) -> SFTResult:
    """Fine-tune `model` in place on (prompt, completion) pairs; returns the loss curve. Only
    parameters with requires_grad train (the adapters of a LoRA model)."""
    limit = max_length_of(model, config)
    encoded = [encode_example(tokenizer, p, c, limit) for p, c in examples]
    return train_encoded(model, tokenizer, encoded, config, on_step, stop)


def max_length_of(model: PreTrainedModel, config: SFTConfig) -> int:
    """Tokens per example: the config's, else the model's positions."""
    return config.max_length or getattr(model.config, "max_position_embeddings", None) or 2048


def train_encoded(
    model: PreTrainedModel,
    tokenizer: PreTrainedTokenizerBase,
    encoded: Sequence[tuple[list[int], list[int]]],
    config: SFTConfig,
    on_step: Callable[[int, float], None] | None = None,
    stop: StopCheck | None = None,
) -> SFTResult:
    """Fine-tune `model` in place on (input ids, labels) pairs, labels IGNORE where no loss
    goes (a prompt, an episode's environment tokens). `stop(steps_done, model)`, asked after
    every step (the last too), may end training early (a warm start built to a strength,
    rlvr.warm_strength); it runs between steps, so the steps before a stop are exactly those
    of a full run."""
    if not encoded:
        raise RlvrError("nothing to train on", "give tasks with references, or episodes that "
                        "passed their judge")  # fmt: skip
    device = model.device
    gen = torch.Generator().manual_seed(config.seed)
    torch.manual_seed(config.seed)
    trainable = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(
        trainable, lr=config.lr, betas=(0.9, 0.95), weight_decay=config.weight_decay
    )
    order: list[int] = []
    window: list[float] = []
    losses: list[float] = []
    every = max(1, config.steps // 50)
    start = time.perf_counter()
    done, stopped = 0, False
    model.train()
    for step in range(config.steps):
        while len(order) < config.batch_size:
            order.extend(torch.randperm(len(encoded), generator=gen).tolist())
        batch = [encoded[i] for i in order[: config.batch_size]]
        del order[: config.batch_size]
        ids, labels, mask = _collate(batch, tokenizer.pad_token_id)
        for group in opt.param_groups:
            group["lr"] = _lr_at(step, config)
        loss = completion_loss(model, ids.to(device), labels.to(device), mask.to(device))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trainable, config.grad_clip)
        opt.step()
        value = loss.item()
        window.append(value)
        if on_step:
            on_step(step, value)
        done = step + 1
        stopped = stop is not None and stop(done, model) and done < config.steps
        if len(window) == every or done == config.steps or stopped:
            losses.append(sum(window) / len(window))
            window = []
        if stopped:
            break
        model.train()  # a stop check may have sampled in eval mode
    model.eval()
    return SFTResult(
        n_examples=len(encoded),
        steps=done,
        stopped_early=stopped,
        first_loss=losses[0],
        last_loss=losses[-1],
        losses=losses,
        seconds=time.perf_counter() - start,
    )


def run_sft(
    env: Environment,
    model_dir: str,
    config: SFTConfig,
    out: str | Path,
    tasks: Sequence[Task] | None = None,
    device: str | None = None,
    on_step: Callable[[int, float], None] | None = None,
    threads: int | None = None,
    base: str | None = None,
    stop: StopCheck | None = None,
) -> SFTResult:
    """Fine-tune the model saved in `model_dir` on the environment's references and save the
    checkpoint (model, tokenizer, sft.json) to `out`. `threads` caps CPU threads; `base` names
    the starting model in sft.json (default: `model_dir`); `stop` may end training early (see
    `train_encoded`). A `--model` spec becomes a folder with `rlvr.models.resolve_model`."""
    examples = examples_from_tasks(env, tasks if tasks is not None else env.tasks())
    return run_sft_examples(
        model_dir, examples, config, out, env.name, threads, on_step, device, base, stop
    )


def run_sft_examples(
    model_dir: str,
    examples: Sequence[tuple[Prompt, str]],
    config: SFTConfig,
    out: str | Path,
    label: str,
    threads: int | None = None,
    on_step: Callable[[int, float], None] | None = None,
    device: str | None = "cpu",
    base: str | None = None,
    stop: StopCheck | None = None,
) -> SFTResult:
    """Fine-tune the model saved in `model_dir` on (prompt, completion) pairs and save it to
    `out` (model, tokenizer, sft.json naming `label` as the data, `base` as the start); with
    LoRA the saved model has the adapters merged."""
    lm, tokenizer = load_pretrained(model_dir, device=device)
    if config.lora:
        lm = add_lora(lm, config)
    with torch_threads(threads):
        result = train_sft(lm, tokenizer, examples, config, on_step, stop)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    save_model(lm, out, config)
    tokenizer.save_pretrained(out)
    start = base or model_dir
    record = {"env": label, "base": start, "config": config.model_dump(), **result.model_dump()}
    (out / "sft.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return result


class PassRate(BaseModel):
    """Pass rate of a policy on some tasks, from G samples each."""

    tasks: int
    g: int
    pass_rate: float | None
    frontier_tasks: int = Field(description="Tasks passed by some but not all samples.")
    always_pass: int
    always_fail: int
    by_family: dict[str, float] = Field(default_factory=dict)


def evaluate_pass_rate(
    env: Environment,
    policy: Policy,
    tasks: Sequence[Task],
    g: int = 8,
    max_new_tokens: int | None = None,
    seed: int = 0,
) -> PassRate:
    """Sample G answers per task at temperature 1 and count passes (the frontier check)."""
    sampling = SamplingConfig(temperature=1.0, max_new_tokens=max_new_tokens, seed=seed)
    groups = score_tasks(env, policy, tasks, RolloutConfig(g=g, sampling=sampling, batch_tasks=16))
    family = {t.id: str(t.meta.get("family", "all")) for t in tasks}
    per_family: dict[str, list[int]] = {}
    passed = scored = frontier = all_pass = all_fail = 0
    for group in groups:
        p = sum(v.passed for v in group.verdicts if v.is_scored)
        n = sum(v.is_scored for v in group.verdicts)
        passed, scored = passed + p, scored + n
        frontier += int(0 < p < n)
        all_pass += int(n > 0 and p == n)
        all_fail += int(p == 0)
        counts = per_family.setdefault(family[group.task_id], [0, 0])
        counts[0], counts[1] = counts[0] + p, counts[1] + n
    return PassRate(
        tasks=len(groups),
        g=g,
        pass_rate=passed / scored if scored else None,
        frontier_tasks=frontier,
        always_pass=all_pass,
        always_fail=all_fail,
        by_family={f: p / n for f, (p, n) in sorted(per_family.items()) if n},
    )
