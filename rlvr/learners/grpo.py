"""GRPO and RLOO: sample a group per task, score it against itself, take clipped steps.

The loop, top to bottom (cleanrl style): collect groups (live, or from a store file), compute
advantages over the step's groups, pack the scored answers into tensors, then for each inner
epoch and minibatch: loss, backward, clip, step; one metrics row per step. The sampling-time
log-probabilities (`old_logp`) are kept for every inner epoch and never recomputed from the
policy being updated (recomputing them cancels the gradient:
`tests/test_losses.py::test_seed004_logp_minus_logp_cancels_the_gradient`).

Example:
    >>> from rlvr.learners.config import LearnerConfig
    >>> cfg = LearnerConfig(env="math", model="tiny-sft", steps=20, lr=2e-5)  # doctest: +SKIP
    >>> train(cfg, "runs/tiny-grpo")  # doctest: +SKIP
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from rlvr.distributed.torch_dist import init_from_env
from rlvr.env import Environment
from rlvr.evaluation.during import TrainingEval
from rlvr.learners import common
from rlvr.learners.batch import TokenBatch, fill_old_logp, minibatches, score
from rlvr.learners.config import LearnerConfig
from rlvr.learners.groups import (
    AsyncSource,
    LiveSource,
    ShadowSource,
    StepGroups,
    StoreSource,
    assign_advantages,
    group_metrics,
    training_batch,
)
from rlvr.learners.teacher import distil_advantages, load_teacher, mean_reverse_kl, teacher_scores
from rlvr.learners.update import NonFiniteStreak, UpdateStats, policy_update
from rlvr.policies.hf import HFPolicy
from rlvr.policies.static_cache import static_cache_default
from rlvr.store import GroupStore

RowCallback = Callable[[dict[str, Any]], None]
Source = LiveSource | AsyncSource | ShadowSource | StoreSource


def make_source(cfg: LearnerConfig, env: Environment, model: Any, tokenizer: Any) -> Source:
    """Live sampling with the model being trained, or a store file of scored groups.

    Sampling uses a copy of the weights when async_sampling (one update behind) and when a
    compiled sampler runs under bf16 autocast (refreshed each step: `ShadowSource`).
    """
    if cfg.groups_file:
        return StoreSource(cfg.groups_file, env, tokenizer, cfg)
    # a compiled sampler under bf16 autocast would cast every fp32 weight at every token
    static = static_cache_default(cfg.device) if cfg.static_cache is None else cfg.static_cache
    shadow = cfg.bf16 and static and not cfg.async_sampling
    copy = cfg.async_sampling or shadow
    sampler = common.frozen_clone(model, bf16_linear=cfg.bf16) if copy else model
    policy = HFPolicy(
        sampler,
        tokenizer,
        name=cfg.model,
        batch_size=max(64, cfg.batch_size),
        static_cache=cfg.static_cache,
    )
    live = LiveSource(env, policy, common.TaskCycler(common.train_tasks(env, cfg), cfg.seed), cfg)
    if cfg.async_sampling:
        return AsyncSource(live, model, sampler, cfg, lambda: common.autocast(cfg))
    return ShadowSource(live, model, sampler) if shadow else live


def prepare_batch(
    got: StepGroups,
    tokenizer: Any,
    model: Any,
    ref: Any,
    cfg: LearnerConfig,
    run: common.Run,
    teacher: Any = None,
) -> TokenBatch | None:
    """Advantages, tensors on the device, missing old_logp scored once, reference log-probs;
    with a teacher, per-token advantages of on-policy distillation (rlvr.learners.teacher)."""
    assign_advantages(got.train, cfg)
    batch = training_batch(got.train, tokenizer.pad_token_id)
    if batch is None:
        return None
    batch = batch.to(run.device)
    with common.autocast(cfg):
        fill_old_logp(model, batch, cfg.temperature, cfg.micro_batch_size)
        if ref is not None:
            batch.ref_logp = score(ref, batch, cfg.temperature, cfg.micro_batch_size)
        if teacher is not None:
            distil_advantages(batch, teacher_scores(teacher, batch, cfg), cfg)
    return batch


def train(
    cfg: LearnerConfig,
    out: str | Path,
    env: Environment | None = None,
    on_row: RowCallback | None = None,
    on_eval: RowCallback | None = None,
) -> Path:
    """Run GRPO/RLOO to cfg.steps, resuming from the run folder's last checkpoint; held-out
    evaluations (rlvr.evaluation.during) go to metrics.jsonl and `on_eval`."""
    dist = init_from_env(cfg.device)  # torchrun: one rank of a data-parallel run; else a no-op
    cfg = dist.rank_config(cfg)
    # rank r > 0 gets rank 0's weights by the broadcast below
    s = common.set_up(cfg, dist.run_dir(out), env, cfg.beta > 0, resume_weights=dist.is_main)
    run, env, ckpt, model, tok, ref = s.run, s.env, s.ckpt, s.model, s.tok, s.ref
    dist.broadcast_parameters(model)
    opt = common.optimizer(model.parameters(), cfg)
    source = make_source(cfg, env, model, tok)
    teacher = load_teacher(cfg, tok, run.device) if cfg.teacher else None
    start, _ = resume(run, ckpt, opt, source)
    metrics, store = common.MetricsWriter(run.metrics_path), GroupStore(run.groups_path)
    gen = torch.Generator().manual_seed(cfg.seed)
    held_out = TrainingEval(cfg, env, tok, run.metrics_path, dist.is_main, on_eval)
    held_out.maybe(start, model, lambda: common.autocast(cfg))
    failing = NonFiniteStreak()
    for step in range(start + 1, cfg.steps + 1):
        common.schedule_lr(opt, cfg, step)
        with common.autocast(cfg):  # bf16 sampling too, when asked
            got = source.collect(step)
        batch = prepare_batch(got, tok, model, ref, cfg, run, teacher)
        t_update, stats = time.perf_counter(), UpdateStats()
        if batch is not None and (rkl := mean_reverse_kl(batch)) is not None:
            stats.add("teacher_kl", rkl)
        with common.train_mode(model):
            for _epoch in range(cfg.inner_epochs if dist.all_ranks(batch is not None) else 0):
                for mb in minibatches(batch, cfg.minibatches, gen):  # type: ignore[arg-type]
                    policy_update(model, opt, mb, cfg, stats, lambda: common.autocast(cfg))
        row = step_row(step, got, stats, time.perf_counter() - t_update, cfg)
        metrics.write(row)
        for g in got.sampled:
            store.append(g)
        if on_row is not None:
            on_row(row)
        failing.check(row)
        if step == cfg.steps or (cfg.save_every and step % cfg.save_every == 0):
            checkpoint(run, step, model, tok, opt, source)
        held_out.maybe(step, model, lambda: common.autocast(cfg))
    return run.dir


def step_row(
    step: int, got: StepGroups, stats: UpdateStats, time_update: float, cfg: LearnerConfig
) -> dict[str, Any]:
    """The metrics row: every key present (None when a figure does not apply this step)."""
    keys = ("policy_loss", "kl", "entropy", "clip_frac_low", "clip_frac_high", "grad_norm",
            "teacher_kl")  # fmt: skip
    done = stats.row()
    return {
        "step": step,
        **group_metrics(got),
        **{k: done.get(k) for k in keys},
        "approx_kl": done.get("approx_kl"),
        "updates": int(stats.counts.get("grad_norm", 0)),
        "skipped_updates": int(stats.counts.get("skipped_updates", 0)),
        "time_generate": got.time_generate,
        "time_grade": got.time_grade,
        "time_update": time_update,
    }


def checkpoint(
    run: common.Run, step: int, model: Any, tok: Any, opt: Any, source: Any, **extra: Any
) -> Path:
    state = {"optimizer": opt.state_dict(), "source": source_state(source), **extra}
    return common.save_checkpoint(run, step, {"policy": model}, state, tokenizer=tok)


def source_state(source: Source) -> dict[str, int]:
    return source.state()


def resume(
    run: common.Run, ckpt: Path | None, opt: Any, source: Source
) -> tuple[int, dict[str, Any]]:
    """Restore optimiser, sampler and RNG from a checkpoint; drop log rows written after it.

    Returns (last completed step, the checkpoint's state for learner-specific parts).
    """
    start, state = 0, {}
    if ckpt is not None:
        state = common.load_checkpoint_state(ckpt)
        opt.load_state_dict(state["optimizer"])
        source.restore(state["source"])
        start = int(state["step"])
    common.truncate_after(run.metrics_path, start)
    common.truncate_after(run.groups_path, start)
    return start, state
