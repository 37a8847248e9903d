"""From tasks to a training batch: collect scored groups, shape rewards, compute advantages.

Two sources feed a step: live sampling with the policy being trained (`LiveSource`, on the
rollout pipeline, with DAPO dynamic sampling when asked) or a store file of scored groups
(`StoreSource`). Either way advantages are computed once, over the step's trained groups, with
the learner's estimator after the optional DAPO soft over-length penalty, so batch-level
estimators (reinforce_pp) see the whole batch; live rollouts leave them unset. Masked verdicts
never enter the batch.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.advantages import get_estimator, rewards_tensor
from rlvr.env import Environment
from rlvr.episodes.run import episode_ids
from rlvr.errors import RlvrError
from rlvr.frontier import keep_informative
from rlvr.learners.batch import TokenBatch, from_samples
from rlvr.learners.common import TaskCycler, side_stream
from rlvr.learners.config import LearnerConfig
from rlvr.policies.base import SamplingConfig
from rlvr.policies.hf import encode_prompt
from rlvr.rollout import RolloutConfig, run_pipeline
from rlvr.stats import is_zero_variance
from rlvr.store import GroupStore
from rlvr.types import Sample, ScoredGroup


@dataclass
class StepGroups:
    """The groups of one step: all that were sampled, and those trained on."""

    sampled: list[ScoredGroup]
    train: list[ScoredGroup]
    time_generate: float = 0.0
    time_grade: float = 0.0
    rounds: int = 1
    extra: dict[str, Any] = field(default_factory=dict)


def overlong_penalty(length: int, max_new_tokens: int, buffer: int, factor: float = 1.0) -> float:
    """DAPO soft over-length punishment (Yu et al. 2025, eq. 13), a reward in [-factor, 0].

    0 up to max_new_tokens - buffer tokens, then falling linearly to -factor at the limit.
    >>> overlong_penalty(60, 64, 8)
    -0.5
    """
    if buffer <= 0:
        return 0.0
    free = max_new_tokens - buffer
    if length <= free:
        return 0.0
    return -factor * min(1.0, (length - free) / buffer)


def shaped_rewards(group: ScoredGroup, cfg: LearnerConfig) -> list[float | None]:
    """The verdicts' rewards plus the over-length penalty on scored answers; None stays None."""
    out: list[float | None] = []
    for sample, reward in zip(group.samples, group.rewards, strict=True):
        if reward is None or not cfg.overlong_buffer:
            out.append(reward)
            continue
        length = model_tokens(sample)
        pen = overlong_penalty(
            length, cfg.max_new_tokens, cfg.overlong_buffer, cfg.overlong_penalty
        )
        out.append(reward + pen)
    return out


def assign_advantages(groups: Sequence[ScoredGroup], cfg: LearnerConfig) -> None:
    """Set each group's advantages with the configured estimator over the whole step."""
    if not groups:
        return
    rewards, mask = rewards_tensor([shaped_rewards(g, cfg) for g in groups])
    adv = get_estimator(cfg.estimator)(rewards, mask)
    for i, g in enumerate(groups):
        g.advantages = adv[i, : len(g.samples)].tolist()


def untrained(sampled: Sequence[ScoredGroup], train: Sequence[ScoredGroup]) -> None:
    """Groups sampled but not trained on (no signal, or beyond the batch) get advantage 0."""
    kept = {id(g) for g in train}
    for g in sampled:
        if id(g) not in kept:
            g.advantages = [0.0] * len(g.samples)


def training_batch(groups: Sequence[ScoredGroup], pad_id: int) -> TokenBatch | None:
    """Scored samples of the groups as one TokenBatch (None when nothing is scored)."""
    samples: list[Sample] = []
    advantages: list[float] = []
    for g in groups:
        assert g.advantages is not None, "assign_advantages first"
        for s, v, a in zip(g.samples, g.verdicts, g.advantages, strict=True):
            if v.is_scored:
                samples.append(s)
                advantages.append(a)
    return from_samples(samples, advantages, pad_id) if samples else None


def flag_metrics(step: StepGroups) -> dict[str, float | None]:
    """Share of the step's answers that carry a hack flag, in all and per kind."""
    verdicts = [v for g in step.sampled for v in g.verdicts]
    if not verdicts:
        return {"flagged_frac": None}
    kinds: dict[str, int] = {}
    for v in verdicts:
        for kind in {f.kind for f in v.flags}:
            kinds[kind] = kinds.get(kind, 0) + 1
    out: dict[str, float | None] = {
        "flagged_frac": sum(bool(v.flags) for v in verdicts) / len(verdicts)
    }
    out.update({f"flagged_{k}": n / len(verdicts) for k, n in sorted(kinds.items())})
    return out


def group_metrics(step: StepGroups) -> dict[str, float | None]:
    """The step's reward, variance, masking and length figures over every sampled answer."""
    samples = [s for g in step.sampled for s in g.samples]
    rewards = [r for g in step.sampled for r in g.rewards if r is not None]
    lengths = [model_tokens(s) for s in samples]
    n, k = len(samples), len(rewards)
    mean = sum(rewards) / k if k else None
    std = (sum((r - mean) ** 2 for r in rewards) / k) ** 0.5 if mean is not None else None
    passed = sum(v.passed for g in step.sampled for v in g.verdicts)
    zero_var = sum(is_zero_variance(g.rewards) for g in step.sampled)
    tokens = sum(lengths)
    return {
        **flag_metrics(step),
        "reward_mean": mean,
        "reward_std": std,
        "pass_rate": passed / k if k else None,
        "zero_variance_frac": zero_var / len(step.sampled) if step.sampled else None,
        "masked_frac": (n - k) / n if n else None,
        "completion_len_mean": tokens / n if n else None,
        "completion_len_max": max(lengths) if lengths else None,
        "trunc_rate": sum(s.finish_reason == "length" for s in samples) / n if n else None,
        "tokens_per_s": tokens / step.time_generate if step.time_generate > 0 else None,
        "groups_sampled": len(step.sampled),
        "groups_trained": len(step.train),
        "sampling_rounds": step.rounds,
        **episode_metrics(samples),
    }


def model_tokens(sample: Sample) -> int:
    """Tokens the model generated (an episode's environment tokens left out); characters when
    the sample has no token ids."""
    if sample.token_ids is None:
        return len(sample.text)
    if sample.token_mask is not None:
        return sum(sample.token_mask)
    return len(sample.token_ids)


def episode_metrics(samples: Sequence[Sample]) -> dict[str, float]:
    """Turn-level figures of a step's episodes (none for single-turn answers)."""
    episodes = [(s, s.episode) for s in samples if s.episode is not None]
    if not episodes:
        return {}
    n = len(episodes)
    calls = sum(
        len(t.calls) + sum(o.error and o.tool is None for o in t.observations)
        for _, e in episodes
        for t in e.turns
    )
    env_tokens = [len(s.token_mask) - sum(s.token_mask) for s, _ in episodes if s.token_mask]
    out = {
        "turns_mean": sum(len(e.turns) for _, e in episodes) / n,
        "tool_calls_mean": calls / n,
        "tool_error_rate": sum(e.tool_errors for _, e in episodes) / calls if calls else 0.0,
        "submitted_frac": sum(e.end == "submit" for _, e in episodes) / n,
        "budget_frac": sum(e.end == "budget" for _, e in episodes) / n,
        "no_call_frac": sum(e.end == "no_call" for _, e in episodes) / n,
        "valid_call_frac": sum(any(t.calls for t in e.turns) for _, e in episodes) / n,
    }
    if env_tokens:
        out["env_tokens_mean"] = sum(env_tokens) / len(env_tokens)
    return out


class LiveSource:
    """Samples the training policy on the next tasks through the rollout pipeline."""

    def __init__(
        self, env: Environment, policy: Any, cycler: TaskCycler, cfg: LearnerConfig
    ) -> None:
        self.env, self.policy, self.cycler, self.cfg = env, policy, cycler, cfg

    def _round(self, step: int, n: int, used: set[str], times: list[float]) -> list[ScoredGroup]:
        tasks = self.cycler.take(n, exclude=used)
        used.update(t.id for t in tasks)
        cfg = self.cfg
        sampling = SamplingConfig(
            temperature=cfg.temperature,
            top_p=cfg.top_p,
            max_new_tokens=cfg.max_new_tokens,
            seed=cfg.seed * 1_000_003 + step * 101 + len(used),
        )
        rollout = RolloutConfig(
            g=cfg.group_size,
            sampling=sampling,
            estimator=None,  # computed once, over the step's batch (assign_advantages)
            batch_tasks=max(1, len(tasks)),
            grade_workers=cfg.grade_workers,
            step=step,
        )
        got: dict[str, ScoredGroup] = {}
        t = run_pipeline(
            self.env, self.policy, tasks, rollout, lambda g: got.__setitem__(g.task_id, g)
        )
        times[0] += t.generate_s
        times[1] += t.grade_s
        return [got[t.id] for t in tasks if t.id in got]

    def collect(self, step: int) -> StepGroups:
        """One step's groups; dynamic sampling resamples until the batch is full or the cap."""
        cfg = self.cfg
        used: set[str] = set()
        times = [0.0, 0.0]
        sampled = self._round(step, cfg.prompts_per_step, used, times)
        train, rounds = sampled, 1
        if cfg.dynamic_sampling:
            train, _ = keep_informative(sampled)
            while len(train) < cfg.prompts_per_step and rounds < cfg.dynamic_sampling_rounds:
                more = self._round(step, cfg.prompts_per_step - len(train), used, times)
                if not more:
                    break
                sampled += more
                train += keep_informative(more)[0]
                rounds += 1
            train = train[: cfg.prompts_per_step]
            untrained(sampled, train)
        return StepGroups(sampled, train, times[0], times[1], rounds)

    def state(self) -> dict[str, int]:
        return self.cycler.state()

    def restore(self, state: dict[str, int]) -> None:
        self.cycler.restore(state)


class AsyncSource:
    """Samples step t+1 on a second copy of the weights while step t trains (one update stale).

    The copy is refreshed from the trained model between samplings, never during one. Answers
    keep the log-probabilities of the weights that sampled them, so the importance ratio of the
    clipped surrogate accounts for the staleness. A checkpoint's sampler position includes the
    step sampled ahead, so a resumed run skips that step's tasks. On a GPU the copy's Linear
    weights are bf16 when training is (`frozen_clone`), and it samples on its own CUDA stream,
    so decoding and the update share the device instead of queueing behind each other.
    """

    def __init__(
        self, live: LiveSource, model: Any, sampler_model: Any, cfg: LearnerConfig, autocast: Any
    ) -> None:
        self.live, self.model, self.copy, self.cfg = live, model, sampler_model, cfg
        self.autocast = autocast
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sampler")
        self.ahead: dict[int, Any] = {}

    def _sample(self, step: int) -> StepGroups:
        with self.autocast(), side_stream(self.copy):
            return self.live.collect(step)

    def collect(self, step: int) -> StepGroups:
        fut = self.ahead.pop(step, None) or self.pool.submit(self._sample, step)
        got = fut.result()
        self.copy.load_state_dict(self.model.state_dict())  # the sampler is idle here
        if step < self.cfg.steps:
            self.ahead[step + 1] = self.pool.submit(self._sample, step + 1)
        return got

    def state(self) -> dict[str, int]:
        return self.live.state()

    def restore(self, state: dict[str, int]) -> None:
        self.live.restore(state)


class ShadowSource:
    """Live sampling on a copy of the weights with bf16 Linear layers, refreshed from the
    trained model before each step (`common.frozen_clone(bf16_linear=True)`).

    Used for bf16 training with the compiled static-cache sampler: autocast inside a compiled
    graph casts every fp32 weight at every decoded token (about 3 GB of memory traffic per
    token for a 0.5B model), where the copy reads bf16 weights. Costs their bf16 copy in memory
    and one copy of the weights per step; answers are sampled by the current weights.
    """

    def __init__(self, live: LiveSource, model: Any, sampler_model: Any) -> None:
        self.live, self.model, self.copy = live, model, sampler_model

    def collect(self, step: int) -> StepGroups:
        self.copy.load_state_dict(self.model.state_dict())
        return self.live.collect(step)

    def state(self) -> dict[str, int]:
        return self.live.state()

    def restore(self, state: dict[str, int]) -> None:
        self.live.restore(state)


class StoreSource:
    """Cycles through stored scored groups, prompts_per_step at a time (offline training).

    Samples without token ids (e.g. from an API server) are tokenised with the training
    tokenizer; without log-probabilities their old_logp is scored at the start of the step.
    """

    def __init__(self, path: str | Path, env: Environment, tokenizer: Any, cfg: LearnerConfig):
        self.groups = [g for g in GroupStore(path) if g.env == env.name]
        if not self.groups:
            raise RlvrError(
                f"groups file {path} holds no group of environment {env.name!r}",
                "point groups_file at a store written by `rlvr rollout` for this environment",
            )
        for g in self.groups:
            prompt_ids = encode_prompt(tokenizer, env.messages(env.task(g.task_id)))
            for s in g.samples:
                if s.episode is not None and (s.token_ids is None or s.prompt_token_ids is None):
                    messages = env.messages(env.task(g.task_id))
                    prompt, ids, mask = episode_ids(tokenizer, messages, s.episode)
                    s.token_ids, s.prompt_token_ids, s.token_mask = ids, prompt, mask
                    s.logprobs = None
                    continue
                if s.token_ids is None or s.prompt_token_ids is None:
                    ids = list(tokenizer(s.text, add_special_tokens=False)["input_ids"])
                    if s.finish_reason == "stop" and tokenizer.eos_token_id is not None:
                        ids.append(tokenizer.eos_token_id)
                    s.token_ids, s.prompt_token_ids, s.logprobs = ids, prompt_ids, None
        self.cfg = cfg
        self.pos = 0

    def collect(self, step: int) -> StepGroups:
        start = time.perf_counter()
        chosen = [
            self.groups[(self.pos + i) % len(self.groups)] for i in range(self.cfg.prompts_per_step)
        ]
        self.pos = (self.pos + len(chosen)) % len(self.groups)
        sampled = [g.model_copy(deep=True, update={"step": step}) for g in chosen]
        train = keep_informative(sampled)[0] if self.cfg.dynamic_sampling else sampled
        return StepGroups(sampled, train, 0.0, 0.0, 1, {"read_s": time.perf_counter() - start})

    def state(self) -> dict[str, int]:
        return {"pos": self.pos}

    def restore(self, state: dict[str, int]) -> None:
        self.pos = state.get("pos", 0)
