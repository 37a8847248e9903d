"""DPO on preference pairs taken from scored groups, against a frozen reference.

Pairs come from groups (best scored answer against the worst, `rlvr.pairs.best_and_worst`,
when their rewards differ by at least `pair_margin`): read from `groups_file`, or sampled once
at the start with the starting policy (standard offline DPO: the data does not follow the
policy). The reference's sequence log-probabilities are computed once; each step takes the
next `pairs_per_step` pairs of a seeded shuffle and minimises -log sigmoid(beta * gap).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import torch
from torch import Tensor

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.evaluation.during import TrainingEval
from rlvr.learners import common
from rlvr.learners.batch import TokenBatch, forward, from_samples, score
from rlvr.learners.config import DPOConfig
from rlvr.learners.losses import dpo_loss
from rlvr.pairs import best_and_worst
from rlvr.policies.base import SamplingConfig
from rlvr.policies.hf import HFPolicy
from rlvr.rollout import RolloutConfig, score_tasks
from rlvr.store import GroupStore
from rlvr.types import Sample, ScoredGroup

RowCallback = Any


def collect_groups(cfg: DPOConfig, env: Environment, model: Any, tok: Any) -> list[ScoredGroup]:
    """Sample G answers per task once with the starting policy (stamped step 0)."""
    tasks = common.train_tasks(env, cfg)
    if cfg.collect_tasks is not None:
        order = torch.randperm(len(tasks), generator=torch.Generator().manual_seed(cfg.seed))
        tasks = [tasks[i] for i in order[: cfg.collect_tasks].tolist()]
    sampling = SamplingConfig(
        temperature=cfg.temperature,
        top_p=cfg.top_p,
        max_new_tokens=cfg.max_new_tokens,
        seed=cfg.seed,
    )
    rollout = RolloutConfig(
        g=cfg.group_size, sampling=sampling, batch_tasks=8, grade_workers=cfg.grade_workers, step=0
    )
    policy = HFPolicy(model, tok, name=cfg.model, batch_size=max(64, 8 * cfg.group_size))
    return score_tasks(env, policy, tasks, rollout)


def pair_samples(groups: list[ScoredGroup], margin: float) -> list[tuple[Sample, Sample]]:
    """(chosen, rejected) per group whose best and worst scored rewards differ by >= margin."""
    pairs = []
    for g in groups:
        picked = best_and_worst(g)
        if picked is not None and picked[2] > 0 and picked[2] >= margin:
            pairs.append((g.samples[picked[0]], g.samples[picked[1]]))
    return pairs


def pair_batch(pairs: list[tuple[Sample, Sample]], pad_id: int) -> TokenBatch:
    """Rows 0..n-1 are the chosen answers, rows n..2n-1 the rejected ones."""
    return from_samples(
        [c for c, _ in pairs] + [r for _, r in pairs], [0.0] * 2 * len(pairs), pad_id
    )


def seq_logp(logp: Tensor, mask: Tensor) -> Tensor:
    """Sum of token log-probabilities per answer (n,)."""
    return torch.where(mask, logp, torch.zeros_like(logp)).sum(-1)


def dpo_step(
    model: Any, opt: Any, data: TokenBatch, ref_seq: Tensor, idx: list[int], cfg: DPOConfig
) -> dict[str, float]:
    """One update on the pairs `idx`: micro-batches of pairs, mean loss over the step's pairs."""
    n = len(data) // 2
    opt.zero_grad(set_to_none=True)
    sums = {"loss": 0.0, "chosen_reward": 0.0, "rejected_reward": 0.0, "reward_accuracy": 0.0}
    tokens = 0
    for start in range(0, len(idx), max(1, cfg.micro_batch_size // 2)):
        pairs = idx[start : start + max(1, cfg.micro_batch_size // 2)]
        mb = data.select(pairs + [i + n for i in pairs])
        with common.autocast(cfg):
            out = forward(model, mb, 1.0, entropy="none")
        lp = seq_logp(out.logp, mb.completion_mask)
        k = len(pairs)
        ref = ref_seq[torch.tensor(pairs + [i + n for i in pairs])]
        losses, r_w, r_l = dpo_loss(lp[:k], lp[k:], ref[:k], ref[k:], cfg.beta)
        (losses.sum() / len(idx)).backward()
        sums["loss"] += losses.sum().item()
        sums["chosen_reward"] += float(r_w.sum())
        sums["rejected_reward"] += float(r_l.sum())
        sums["reward_accuracy"] += float((r_w > r_l).float().sum())
        tokens += int(mb.attention_mask.sum())
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
    opt.step()
    row = {k: v / len(idx) for k, v in sums.items()}
    row["margin"] = row["chosen_reward"] - row["rejected_reward"]
    return {**row, "grad_norm": float(norm), "tokens": float(tokens)}


def load_or_collect(
    run: common.Run, cfg: DPOConfig, env: Environment, model: Any, tok: Any
) -> list[ScoredGroup]:
    """Groups of the groups file, the run's own groups.jsonl (resume), or fresh samples."""
    if cfg.groups_file:
        return [g for g in GroupStore(cfg.groups_file) if g.env == env.name]
    store = GroupStore(run.groups_path)
    groups = list(store)
    if not groups:
        groups = collect_groups(cfg, env, model, tok)
        for g in groups:
            store.append(g)
    return groups


def train(
    cfg: DPOConfig,
    out: str | Path,
    env: Environment | None = None,
    on_row: RowCallback | None = None,
    on_eval: RowCallback | None = None,
) -> Path:
    """Run DPO to cfg.steps, resuming from the run folder's last checkpoint."""
    s = common.set_up(cfg, out, env, reference=True)
    run, env, ckpt, model, tok, ref = s.run, s.env, s.ckpt, s.model, s.tok, s.ref
    assert ref is not None
    pairs = pair_samples(load_or_collect(run, cfg, env, ref, tok), cfg.pair_margin)
    if not pairs:
        raise RlvrError(
            f"DPO: no group has answers whose rewards differ by >= pair_margin={cfg.pair_margin}",
            "lower pair_margin, raise group_size or temperature, or pick tasks on the frontier",
        )
    data = pair_batch(pairs, tok.pad_token_id).to(run.device)
    with common.autocast(cfg):
        ref_seq = seq_logp(score(ref, data, 1.0, cfg.micro_batch_size), data.completion_mask)
    opt = common.optimizer(model.parameters(), cfg)
    start = 0
    if ckpt is not None:
        state = common.load_checkpoint_state(ckpt)
        opt.load_state_dict(state["optimizer"])
        start = int(state["step"])
    common.truncate_after(run.metrics_path, start)
    metrics = common.MetricsWriter(run.metrics_path)
    per_step = min(cfg.pairs_per_step, len(pairs))
    held_out = TrainingEval(cfg, env, tok, run.metrics_path, on_eval=on_eval)
    held_out.maybe(start, model, lambda: common.autocast(cfg))
    for step in range(start + 1, cfg.steps + 1):
        common.schedule_lr(opt, cfg, step)
        idx = pair_indices(len(pairs), per_step, step, cfg.seed)
        t0 = time.perf_counter()
        with common.train_mode(model):
            row = dpo_step(model, opt, data, ref_seq, idx, cfg)
        elapsed = time.perf_counter() - t0
        tokens = row.pop("tokens")
        row = {
            "step": step,
            "pairs": len(pairs),
            **row,
            "time_update": elapsed,
            "tokens_per_s": tokens / elapsed if elapsed > 0 else None,
        }
        metrics.write(row)
        if on_row is not None:
            on_row(row)
        if step == cfg.steps or (cfg.save_every and step % cfg.save_every == 0):
            common.save_checkpoint(
                run, step, {"policy": model}, {"optimizer": opt.state_dict()}, tokenizer=tok
            )
        held_out.maybe(step, model, lambda: common.autocast(cfg))
    return run.dir


def pair_indices(n: int, k: int, step: int, seed: int) -> list[int]:
    """The k pairs of a step: consecutive slices of a seeded shuffle, reshuffled each pass.

    A pure function of the step, so a resumed run sees the same pairs it would have seen.
    """
    per_pass = max(1, n // k)
    epoch, slot = divmod(step - 1, per_pass)
    order = torch.randperm(n, generator=torch.Generator().manual_seed(seed * 7919 + epoch))
    return order[slot * k : slot * k + k].tolist()
