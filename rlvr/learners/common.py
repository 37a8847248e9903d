"""What every learner does once: set up the run folder, place models, autocast, checkpoint, log.

Each function here is called once from a learner's `train()`, so the loops carry no device,
precision or resume logic of their own. A run folder holds config.json, metrics.jsonl,
groups.jsonl and checkpoints/step-NNNNNN/: the policy as a `save_pretrained` folder (loadable
as `--model`) plus trainer.pt with optimiser and sampler state. Checkpoints are written to a
temporary folder and renamed, so a crash never leaves a half-written one.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.learners.config import TrainConfig
from rlvr.models import resolve_model
from rlvr.policies.hf import load_pretrained
from rlvr.policies.lora import ADAPTER_FILE, add_lora, load_adapter, save_model
from rlvr.registry import load_env
from rlvr.selection import select_tasks
from rlvr.types import Task

CHECKPOINTS = "checkpoints"


@dataclass
class Run:
    """A run folder and where its models live."""

    dir: Path
    device: torch.device
    config: TrainConfig

    @property
    def metrics_path(self) -> Path:
        return self.dir / "metrics.jsonl"

    @property
    def groups_path(self) -> Path:
        return self.dir / "groups.jsonl"


def start_run(config: TrainConfig, out: str | Path) -> Run:
    """Create the run folder, write config.json, seed every generator, pick the device."""
    if config.device == "cuda" and not torch.cuda.is_available():
        raise RlvrError(
            "device='cuda' was requested but torch sees no CUDA device",
            "set device = 'cpu', or install a CUDA build of torch on a GPU machine",
        )
    if config.threads:
        torch.set_num_threads(config.threads)
    run_dir = Path(out)
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(config.model_dump_json(indent=2) + "\n", encoding="utf-8")
    random.seed(config.seed)
    torch.manual_seed(config.seed)
    return Run(dir=run_dir, device=torch.device(config.device), config=config)


@dataclass
class Setup:
    """What every learner starts from: the run folder, the environment, the newest checkpoint
    (None on a fresh run), the policy and tokenizer, and the frozen reference (None unless
    asked for)."""

    run: Run
    env: Environment
    ckpt: Path | None
    model: Any
    tok: Any
    ref: torch.nn.Module | None


def set_up(
    config: TrainConfig,
    out: str | Path,
    env: Environment | None,
    reference: bool,
    resume_weights: bool = True,
) -> Setup:
    """The set-up every learner's `train()` opens with: run folder, environment, checkpoint,
    policy (the checkpoint's weights when resuming and `resume_weights`), reference copy."""
    run = start_run(config, out)
    env = env or load_env(config.env)
    ckpt = latest_checkpoint(run.dir)
    model, tok = load_policy(config, run, ckpt if resume_weights else None)
    ref = frozen_copy(config.model, config, run.device) if reference else None
    return Setup(run, env, ckpt, model, tok, ref)


def load_model(spec: str, config: TrainConfig, device: torch.device) -> tuple[Any, Any]:
    """Load a causal LM in float32 (weights stay fp32; bf16 is autocast) and its tokenizer."""
    model, tokenizer = load_pretrained(resolve_model(spec), device=str(device), dtype=torch.float32)
    if config.gradient_checkpointing:  # training passes use_cache=False; sampling keeps it
        model.gradient_checkpointing_enable()
    return model, tokenizer


def frozen_copy(spec: str, config: TrainConfig, device: torch.device) -> torch.nn.Module:
    """The starting model again, frozen: the KL / DPO reference (never the resumed weights)."""
    dtype = torch.bfloat16 if config.bf16 else torch.float32
    ref, _ = load_pretrained(resolve_model(spec), device=str(device), dtype=dtype)
    ref.requires_grad_(False)
    return ref.eval()


def frozen_clone(model: torch.nn.Module, bf16_linear: bool = False) -> torch.nn.Module:
    """A detached copy of a model's current weights, for a sampler that runs beside training.

    `bf16_linear` (bf16 autocast on a GPU) stores the Linear layers' weights in bf16: under
    autocast they are rounded to bf16 anyway, so the copy computes what the fp32 model does
    (norms and embeddings stay fp32), but a compiled decoder then reads bf16 weights instead
    of casting every fp32 weight at every token. A head tied to the input embedding stays
    fp32. Refreshing the copy with `load_state_dict` converts on the way in.
    """
    import copy

    clone = copy.deepcopy(model)
    if bf16_linear:
        head = clone.get_output_embeddings() if hasattr(clone, "get_output_embeddings") else None
        embed = clone.get_input_embeddings() if hasattr(clone, "get_input_embeddings") else None
        tied = head is not None and embed is not None and head.weight is embed.weight
        for m in clone.modules():
            if isinstance(m, torch.nn.Linear) and not (tied and m is head):
                m.to(torch.bfloat16)
    clone.requires_grad_(False)
    return clone.eval()


@contextlib.contextmanager
def side_stream(model: torch.nn.Module) -> Iterator[None]:
    """Queue a block's GPU work on its own CUDA stream, so it can overlap the default stream's.

    The block starts after the work already queued on the default stream (the weight refresh)
    and must end with a host read of its results (the sampler's `.cpu()` does), so what it
    queued is done when it returns. On the CPU: nothing.
    """
    device = next(model.parameters()).device
    if device.type != "cuda":
        yield
        return
    stream = torch.cuda.Stream(device)
    stream.wait_stream(torch.cuda.default_stream(device))
    with torch.cuda.stream(stream):
        yield
    stream.synchronize()


def optimizer(params: Any, config: TrainConfig, lr: float | None = None) -> torch.optim.AdamW:
    """AdamW over the parameters that train (LoRA freezes the base); on CUDA the fused kernel
    (as transformers' Trainer defaults to), which also skips the foreach path's full-size
    temporaries at each step."""
    return torch.optim.AdamW(
        [p for p in params if p.requires_grad],
        lr=lr or config.lr,
        betas=config.adam_betas,
        eps=config.adam_epsilon,
        weight_decay=config.weight_decay,
        fused=True if config.device == "cuda" else None,
    )


def schedule_lr(opt: torch.optim.Optimizer, config: TrainConfig, step: int) -> None:
    """Set each parameter group's lr for `step` (1-based): a linear warm-up to its own peak,
    then `lr_scheduler_type` (constant, or a linear or cosine decay over the remaining steps,
    as transformers' schedulers of those names step it).

    The peak is kept in the group as `initial_lr`, so the schedule is a function of the step
    alone and a resumed run (its optimiser state restored) lands on the same rate.
    """
    factor = lr_factor(config, step)
    for group in opt.param_groups:
        group.setdefault("initial_lr", group["lr"])
        group["lr"] = group["initial_lr"] * factor


def lr_factor(config: TrainConfig, step: int) -> float:
    """The fraction of the peak lr at `step` (1-based)."""
    warm = config.warmup_steps
    if warm and step <= warm:
        return step / warm
    if config.lr_scheduler_type == "constant":
        return 1.0
    done = min(1.0, max(0.0, (step - 1 - warm) / max(1, config.steps - warm)))
    if config.lr_scheduler_type == "linear":
        return 1.0 - done
    return 0.5 * (1.0 + math.cos(math.pi * done))


def autocast(config: TrainConfig) -> contextlib.AbstractContextManager[Any]:
    """bf16 autocast on CUDA when asked; otherwise nothing."""
    if config.bf16:
        return torch.autocast("cuda", dtype=torch.bfloat16)
    return contextlib.nullcontext()


def train_tasks(env: Environment, config: TrainConfig) -> list[Task]:
    """The tasks to train on: the config's split, tasks file and meta filter."""
    return select_tasks(env, task_file=config.tasks, split=config.split, meta=config.task_filter)


class TaskCycler:
    """Tasks in a seeded order, reshuffled each pass; its position is saved in checkpoints."""

    def __init__(self, tasks: list[Task], seed: int) -> None:
        self.tasks = tasks
        self.seed = seed
        self.epoch = 0
        self.pos = 0
        self._order = self._shuffle()

    def _shuffle(self) -> list[int]:
        gen = torch.Generator().manual_seed(self.seed * 1_000_003 + self.epoch)
        return torch.randperm(len(self.tasks), generator=gen).tolist()

    def take(self, n: int, exclude: set[str] | None = None) -> list[Task]:
        """The next n distinct tasks not in `exclude`; fewer when a full pass finds no more."""
        out: list[Task] = []
        ids = set(exclude or ())
        for _ in range(2 * len(self.tasks)):
            if len(out) >= n:
                break
            if self.pos >= len(self._order):
                self.epoch, self.pos = self.epoch + 1, 0
                self._order = self._shuffle()
            task = self.tasks[self._order[self.pos]]
            self.pos += 1
            if task.id not in ids:
                ids.add(task.id)
                out.append(task)
        return out

    def state(self) -> dict[str, int]:
        return {"epoch": self.epoch, "pos": self.pos}

    def restore(self, state: dict[str, int]) -> None:
        self.epoch, self.pos = state["epoch"], state["pos"]
        self._order = self._shuffle()


def load_policy(cfg: TrainConfig, run: Any, ckpt: Path | None) -> tuple[Any, Any]:
    """The policy and tokenizer to train: from checkpoint `ckpt` when resuming, else cfg.model.

    With LoRA the base is always cfg.model, and a checkpoint's adapter weights are loaded into
    the fresh adapters (its policy folder holds them merged, for evaluation)."""
    if not cfg.lora:
        return load_model(str(ckpt / "policy") if ckpt else cfg.model, cfg, run.device)
    model, tok = load_model(cfg.model, cfg, run.device)
    model = add_lora(model, cfg)
    if ckpt is not None:
        if not (ckpt / "policy" / ADAPTER_FILE).is_file():
            raise RlvrError(
                f"{ckpt} has no LoRA adapter but the run's config sets lora_rank={cfg.lora_rank}",
                "resume with the run's own settings, or start a new --out folder",
            )
        load_adapter(model, ckpt / "policy")
    return model, tok


def latest_checkpoint(run_dir: Path) -> Path | None:
    """The newest complete checkpoint folder of a run, if any."""
    root = run_dir / CHECKPOINTS
    done = sorted(p for p in root.glob("step-*") if (p / "trainer.pt").is_file())
    return done[-1] if done else None


def save_checkpoint(
    run: Run,
    step: int,
    models: dict[str, Any],
    state: dict[str, Any],
    tokenizer: Any = None,
) -> Path:
    """Write checkpoints/step-NNNNNN: HF models by save_pretrained, `state` into trainer.pt.

    `models` maps a folder name ("policy", "critic") to a model with save_pretrained; other
    tensors (optimiser, value head, sampler position) go in `state`. Old ones are pruned.
    """
    root = run.dir / CHECKPOINTS
    root.mkdir(parents=True, exist_ok=True)
    target = root / f"step-{step:06d}"
    tmp = Path(tempfile.mkdtemp(prefix=f".step-{step:06d}-", dir=root))
    try:
        for name, model in models.items():
            save_model(model, tmp / name, run.config)
            if tokenizer is not None:
                tokenizer.save_pretrained(tmp / name)
        rng = {"torch": torch.get_rng_state(), "python": random.getstate()}
        if torch.cuda.is_available():
            rng["cuda"] = torch.cuda.get_rng_state_all()
        torch.save({"step": step, "rng": rng, **state}, tmp / "trainer.pt")
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done = sorted(p for p in root.glob("step-*") if p.is_dir())
    for old in done[: -run.config.keep_checkpoints]:
        shutil.rmtree(old, ignore_errors=True)
    return target


def load_checkpoint_state(path: Path) -> dict[str, Any]:
    """trainer.pt of a checkpoint, with the random generators restored."""
    state = torch.load(path / "trainer.pt", map_location="cpu", weights_only=False)
    torch.set_rng_state(state["rng"]["torch"])
    random.setstate(state["rng"]["python"])
    if "cuda" in state["rng"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["rng"]["cuda"])
    return state


def truncate_after(path: Path, step: int) -> None:
    """Drop JSONL lines whose "step" is past `step` (written after the resumed checkpoint)."""
    if not path.is_file():
        return
    keep = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            row_step = json.loads(line).get("step")
        except json.JSONDecodeError:
            continue  # a torn last line from the crash
        if row_step is None or row_step <= step:
            keep.append(line)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("".join(line + "\n" for line in keep), encoding="utf-8")
    os.replace(tmp, path)


class MetricsWriter:
    """Appends one JSON row per step to metrics.jsonl, flushed at once (tail -f friendly)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, row: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(row, default=float) + "\n")
            fh.flush()


@contextlib.contextmanager
def train_mode(*modules: torch.nn.Module) -> Iterator[None]:
    """Modules in train() for the update, back to eval() for sampling afterwards."""
    for m in modules:
        m.train()
    try:
        yield
    finally:
        for m in modules:
            m.eval()
