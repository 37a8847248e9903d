"""PPO: a learned value baseline per token, GAE, the clipped surrogate and a clipped value loss.

The verifier's score sits on each answer's last token; with beta > 0 the per-token reward also
carries the classic RLHF penalty -beta * (old_logp - ref_logp) (k1). The critic is either a
value head on the policy's own backbone (`critic="shared"`, one optimiser, one forward pass)
or a second copy of the starting model with its own head and optimiser (`"separate"`). Old
values, like old log-probabilities, are fixed at sampling time for every inner epoch.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import Tensor

from rlvr.advantages import gae, terminal_rewards, whiten
from rlvr.env import Environment
from rlvr.evaluation.during import TrainingEval
from rlvr.learners import common
from rlvr.learners.batch import TokenBatch, fill_old_logp, forward, from_samples, minibatches
from rlvr.learners.batch import score as score_logp
from rlvr.learners.config import PPOConfig
from rlvr.learners.groups import StepGroups, shaped_rewards
from rlvr.learners.grpo import RowCallback, make_source, resume, source_state, step_row
from rlvr.learners.losses import aggregate, k1, value_loss
from rlvr.learners.update import NonFiniteStreak, UpdateStats, policy_update
from rlvr.store import GroupStore
from rlvr.types import Sample


class Critic(torch.nn.Module):
    """A value head, V(prefix) = w . h + b, on some backbone's last hidden states."""

    def __init__(self, hidden_size: int) -> None:
        super().__init__()
        self.head = torch.nn.Linear(hidden_size, 1)
        torch.nn.init.zeros_(self.head.weight)
        torch.nn.init.zeros_(self.head.bias)

    def forward(self, hidden: Tensor) -> Tensor:
        """hidden (n, T, H) -> values (n, T)."""
        return self.head(hidden.float()).squeeze(-1)


def ppo_batch(got: StepGroups, cfg: PPOConfig, pad_id: int) -> tuple[TokenBatch, Tensor] | None:
    """Scored answers as a TokenBatch, plus their (shaped) scores (N,)."""
    samples: list[Sample] = []
    scores: list[float] = []
    for g in got.train:
        for s, r in zip(g.samples, shaped_rewards(g, cfg), strict=True):
            if r is not None:
                samples.append(s)
                scores.append(r)
    if not samples:
        return None
    return from_samples(samples, [0.0] * len(samples), pad_id), torch.tensor(scores)


@torch.no_grad()
def values_of(lm: Any, head: Critic, batch: TokenBatch, mbs: int) -> Tensor:
    """The critic's values (N, T) for every row, without gradient."""
    out = torch.zeros(batch.completion_mask.shape, device=batch.input_ids.device)
    for start in range(0, len(batch), mbs):
        mb = batch.select(list(range(start, min(start + mbs, len(batch)))))
        v = head(forward(lm, mb, entropy="none", hidden=True).hidden)
        out[start : start + len(mb), : v.shape[1]] = torch.where(mb.completion_mask, v, 0.0)
    return out


def advantages_and_returns(
    batch: TokenBatch, scores: Tensor, old_values: Tensor, cfg: PPOConfig
) -> tuple[Tensor, Tensor]:
    """GAE over per-token rewards: the score at the last token, minus beta * k1 when beta > 0."""
    mask = batch.completion_mask
    rewards = terminal_rewards(scores.to(old_values), mask)
    if cfg.beta > 0 and batch.ref_logp is not None:
        rewards = rewards - cfg.beta * torch.where(mask, k1(batch.old_logp, batch.ref_logp), 0.0)
    adv, returns = gae(rewards, old_values, mask, cfg.gamma, cfg.lam)
    return (whiten(adv, mask) if cfg.whiten_advantages else adv), returns


def value_term(head: Critic, cfg: PPOConfig, stats: UpdateStats):
    """The shared critic's loss for `policy_update`: vf_coef * clipped value loss."""

    def term(mb: TokenBatch, hidden: Tensor | None) -> tuple[Tensor, dict[str, float]]:
        assert hidden is not None
        values = head(hidden)
        per_tok = value_loss(
            values,
            mb.per_token["old_values"],
            mb.per_token["returns"],
            mb.completion_mask,
            cfg.value_clip,
        )
        loss = aggregate(per_tok, mb.completion_mask, "token_mean")
        stats.add("value_loss", loss.item(), float(mb.completion_mask.sum()))
        return cfg.vf_coef * loss, {}

    return term


def critic_update(
    lm: Any, head: Critic, opt: Any, mb: TokenBatch, cfg: PPOConfig, stats: UpdateStats
) -> None:
    """One update of a separate critic on a minibatch (value loss only)."""
    opt.zero_grad(set_to_none=True)
    n_tok = float(mb.completion_mask.sum())
    for micro in mb.chunks(cfg.micro_batch_size):
        with common.autocast(cfg):
            values = head(forward(lm, micro, entropy="none", hidden=True).hidden)
        per_tok = value_loss(
            values,
            micro.per_token["old_values"],
            micro.per_token["returns"],
            micro.completion_mask,
            cfg.value_clip,
        )
        loss = aggregate(per_tok, micro.completion_mask, "token_mean")
        stats.add("value_loss", loss.item(), float(micro.completion_mask.sum()))
        (cfg.vf_coef * loss * float(micro.completion_mask.sum()) / max(n_tok, 1.0)).backward()
    params = [*lm.parameters(), *head.parameters()]
    torch.nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
    opt.step()


@dataclass
class CriticParts:
    """The critic: a backbone (the policy's own when shared), its head, and its optimiser."""

    lm: Any
    head: Critic
    opt: Any  # None when shared: the policy's optimiser holds the head
    shared: bool

    @classmethod
    def build(cls, cfg: PPOConfig, model: Any, ckpt: Path | None, run: common.Run) -> CriticParts:
        head = Critic(model.config.hidden_size).to(run.device)
        if cfg.critic == "shared":
            return cls(model, head, None, True)
        lm = common.load_model(str(ckpt / "critic") if ckpt else cfg.model, cfg, run.device)[0]
        opt = common.optimizer([*lm.parameters(), *head.parameters()], cfg, cfg.critic_lr)
        return cls(lm, head, opt, False)

    def state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value_head": self.head.state_dict()}
        if self.opt is not None:
            out["critic_optimizer"] = self.opt.state_dict()
        return out

    def restore(self, state: dict[str, Any]) -> None:
        self.head.load_state_dict(state["value_head"])
        if self.opt is not None:
            self.opt.load_state_dict(state["critic_optimizer"])


def update(
    model: Any, opt: Any, critic: CriticParts, mb: TokenBatch, cfg: PPOConfig, stats: UpdateStats
) -> None:
    """One minibatch: the policy (plus the shared value head), then a separate critic."""
    extra = value_term(critic.head, cfg, stats) if critic.shared else None
    params = [*model.parameters(), *(critic.head.parameters() if critic.shared else ())]
    policy_update(
        model, opt, mb, cfg, stats, lambda: common.autocast(cfg), extra, params, kl_in_loss=False
    )
    if critic.opt is not None:
        critic_update(critic.lm, critic.head, critic.opt, mb, cfg, stats)


def train(
    cfg: PPOConfig,
    out: str | Path,
    env: Environment | None = None,
    on_row: RowCallback | None = None,
    on_eval: RowCallback | None = None,
) -> Path:
    """Run PPO to cfg.steps, resuming from the run folder's last checkpoint."""
    s = common.set_up(cfg, out, env, reference=cfg.beta > 0)
    run, env, ckpt, model, tok, ref = s.run, s.env, s.ckpt, s.model, s.tok, s.ref
    critic = CriticParts.build(cfg, model, ckpt, run)
    opt = common.optimizer(
        [*model.parameters(), *(critic.head.parameters() if critic.shared else ())], cfg
    )
    source = make_source(cfg, env, model, tok)
    start, state = resume(run, ckpt, opt, source)
    if state:
        critic.restore(state)
    metrics, store = common.MetricsWriter(run.metrics_path), GroupStore(run.groups_path)
    gen = torch.Generator().manual_seed(cfg.seed)
    held_out = TrainingEval(cfg, env, tok, run.metrics_path, on_eval=on_eval)
    held_out.maybe(start, model, lambda: common.autocast(cfg))
    failing = NonFiniteStreak()
    for step in range(start + 1, cfg.steps + 1):
        common.schedule_lr(opt, cfg, step)
        if critic.opt is not None:  # a separate critic warms up on the same schedule
            common.schedule_lr(critic.opt, cfg, step)
        with common.autocast(cfg):
            got = source.collect(step)
        packed, stats = prepare(got, cfg, tok, model, ref, critic, run), UpdateStats()
        t_update = time.perf_counter()
        with common.train_mode(model, critic.lm, critic.head):
            for _epoch in range(cfg.inner_epochs if packed is not None else 0):
                for mb in minibatches(packed, cfg.minibatches, gen):  # type: ignore[arg-type]
                    update(model, opt, critic, mb, cfg, stats)
        row = step_row(step, got, stats, time.perf_counter() - t_update, cfg)
        row.update(value_metrics(packed, stats))
        metrics.write(row)
        for g in got.sampled:
            store.append(g)
        if on_row is not None:
            on_row(row)
        failing.check(row)
        if step == cfg.steps or (cfg.save_every and step % cfg.save_every == 0):
            models = {"policy": model} if critic.shared else {"policy": model, "critic": critic.lm}
            state = {
                "optimizer": opt.state_dict(),
                "source": source_state(source),
                **critic.state(),
            }
            common.save_checkpoint(run, step, models, state, tokenizer=tok)
        held_out.maybe(step, model, lambda: common.autocast(cfg))
    return run.dir


def prepare(
    got: StepGroups,
    cfg: PPOConfig,
    tok: Any,
    model: Any,
    ref: Any,
    critic: CriticParts,
    run: common.Run,
) -> TokenBatch | None:
    """Pack the step's answers; old log-probs, reference log-probs, old values, GAE."""
    packed = ppo_batch(got, cfg, tok.pad_token_id)
    if packed is None:  # nothing scored: every answer is masked
        for g in got.train:
            g.advantages = [0.0] * len(g.samples)
        return None
    batch, scores = packed
    batch = batch.to(run.device)
    with common.autocast(cfg):
        fill_old_logp(model, batch, cfg.temperature, cfg.micro_batch_size)
        if ref is not None:
            batch.ref_logp = score_logp(ref, batch, cfg.temperature, cfg.micro_batch_size)
        old_values = values_of(critic.lm, critic.head, batch, cfg.micro_batch_size)
    adv, returns = advantages_and_returns(batch, scores, old_values, cfg)
    batch.advantages = adv
    batch.per_token = {"old_values": old_values, "returns": returns}
    mask = batch.completion_mask
    per_answer = iter(((adv * mask).sum(-1) / mask.sum(-1).clamp(min=1)).tolist())
    for g in got.train:  # groups.jsonl gets one number per answer: its mean token advantage
        g.advantages = [next(per_answer) if v.is_scored else 0.0 for v in g.verdicts]
    return batch


def value_metrics(batch: TokenBatch | None, stats: UpdateStats) -> dict[str, float | None]:
    """Value loss, mean value and explained variance of the sampling-time values."""
    if batch is None:
        return {"value_loss": None, "value_mean": None, "explained_variance": None}
    mask = batch.completion_mask
    v, r = batch.per_token["old_values"][mask], batch.per_token["returns"][mask]
    var_r = r.var(unbiased=False)
    ev = float(1 - (r - v).var(unbiased=False) / var_r) if float(var_r) > 0 else None
    return {
        "value_loss": stats.row().get("value_loss"),
        "value_mean": float(v.mean()),
        "explained_variance": ev,
    }
