"""Rollouts: sample G answers per task, grade them, and stream scored groups to a store.

Grading overlaps generation: while the policy generates batch i+1 in the calling thread, the
groups of batch i are graded on a thread pool (graders run their heavy work in their own worker
processes or sandboxes, so the threads mostly wait). A finished group is written to the store
at once, from the grading thread, under a lock. The store is append-only and fsynced, and task
ids already stored are skipped, so a killed run resumes without a lost or duplicated group.

Advantages are computed per group with the configured estimator; masked verdicts (grader
errors, timeouts, infrastructure failures) are left out of the statistics and get advantage 0.
Estimators that normalise over a whole batch (reinforce_pp) see one group here. The learners
ask for no estimator and compute advantages once, over their training batch.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import Annotated

import torch
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from rlvr.advantages import ESTIMATORS, get_estimator, rewards_tensor
from rlvr.env import Environment
from rlvr.episodes.run import run_episodes
from rlvr.flags.episodes import episode_flags
from rlvr.flags.policy import HackPolicy, apply_policy
from rlvr.policies.base import Policy, SamplingConfig
from rlvr.stats import scored_group_stats
from rlvr.store import GroupStore
from rlvr.types import Sample, ScoredGroup, Task, Verdict


def _estimator(name: str | None) -> str | None:
    return None if name is None else ESTIMATORS.check(name)


class RolloutConfig(BaseModel):
    """How many answers to sample per task and how to turn them into scored groups."""

    model_config = ConfigDict(extra="forbid")

    g: int = Field(default=8, ge=1, description="Answers sampled per task (the group size G).")
    sampling: SamplingConfig = Field(default_factory=SamplingConfig)
    estimator: Annotated[str | None, AfterValidator(_estimator)] = Field(
        default="grpo",
        description="Advantage estimator; None leaves advantages unset, for a learner that "
        "computes them over its whole batch.",
    )
    batch_tasks: int = Field(default=8, ge=1, description="Tasks per policy call.")
    grade_workers: int = Field(default=4, ge=1, description="Groups graded at once.")
    max_backlog: int = Field(
        default=2,
        ge=1,
        description="Generated batches allowed to wait for grading before generation pauses.",
    )
    step: int | None = Field(default=None, description="Training step stamped on the groups.")


@dataclass
class Progress:
    """A snapshot for progress displays, sent after every stored group and generated batch."""

    done: int
    total: int
    reward_sum: float = 0.0
    reward_n: int = 0
    zero_variance: int = 0
    masked: int = 0
    backlog: int = 0

    @property
    def reward_mean(self) -> float | None:
        return self.reward_sum / self.reward_n if self.reward_n else None

    @property
    def zero_variance_rate(self) -> float:
        return self.zero_variance / self.done if self.done else 0.0


class RolloutSummary(BaseModel):
    """What a collection run did."""

    groups: int = Field(description="Groups written by this run.")
    skipped: int = Field(description="Tasks skipped because the store already held them.")
    samples: int
    reward_mean: float | None
    pass_rate: float | None
    zero_variance_rate: float
    masked: int = Field(description="Verdicts that were not scored (masked in training).")
    generate_s: float = Field(description="Time the policy spent generating.")
    grade_s: float = Field(description="Grading time summed over groups (overlaps generation).")
    wall_s: float


@dataclass
class PipelineTimes:
    generate_s: float = 0.0
    grade_s: float = 0.0
    wall_s: float = 0.0


def score_group(
    env: Environment,
    task: Task,
    samples: Sequence[Sample],
    config: RolloutConfig,
    judged: Sequence[Verdict | None] | None = None,
) -> ScoredGroup:
    """Grade one task's samples into a ScoredGroup with advantages and statistics.

    `judged`: verdicts a post-episode judge already gave (None where it gave none); the rest
    are graded here, and every verdict gets the environment's hack flags alike."""
    start = time.perf_counter()
    if judged is not None and all(v is not None for v in judged):
        answers = [s.text for s in samples]
        verdicts = [v for v in judged if v is not None]
        if env.audit is not None:
            verdicts = env.audit.apply(task, answers, verdicts)
    else:
        verdicts = env.grade(task, [s.text for s in samples])
    verdicts = [flag_episode(env, s, v) for s, v in zip(samples, verdicts, strict=True)]
    elapsed = time.perf_counter() - start
    group = ScoredGroup(
        env=env.name, task_id=task.id, samples=list(samples), verdicts=verdicts, step=config.step
    )
    if samples and config.estimator is not None:
        rewards, mask = rewards_tensor([group.rewards], dtype=torch.float64)
        group.advantages = get_estimator(config.estimator)(rewards, mask)[0].tolist()
    group.stats = scored_group_stats(group)
    group.stats.extra["grade_s"] = elapsed
    return group


def sampling_for_batch(config: RolloutConfig, batch: int) -> SamplingConfig:
    """A distinct seed per batch, so seeded runs do not repeat the same random stream."""
    if config.sampling.seed is None:
        return config.sampling
    return config.sampling.model_copy(update={"seed": config.sampling.seed + batch})


def flag_episode(env: Environment, sample: Sample, verdict: Verdict) -> Verdict:
    """An episode's verdict with the flags its tool calls earn, under the environment's hack
    policy ("report" when it sets none)."""
    if sample.episode is None:
        return verdict
    policy = env.audit.policy if env.audit is not None and env.audit.policy else HackPolicy()
    return apply_policy(verdict, episode_flags(sample.episode), policy)


def sample_batch(
    env: Environment, policy: Policy, batch: list[Task], config: RolloutConfig, b: int
) -> tuple[list[list[Sample]], list[list[Verdict | None] | None]]:
    """G samples per task: one policy call, or for a multi-turn environment G episodes per
    task (with the verdicts of any post-episode judge)."""
    sampling = sampling_for_batch(config, b)
    if env.episode is None:
        if env.stop_at_closed_fence and not sampling.stop_at_closed_fence:
            sampling = sampling.model_copy(update={"stop_at_closed_fence": True})
        ids = [t.id for t in batch]
        groups = policy.sample([env.messages(t) for t in batch], config.g, sampling, task_ids=ids)
        return groups, [None] * len(batch)
    results, _ = run_episodes(env, policy, batch, config.g, sampling)
    samples = [[r.sample for r in group] for group in results]
    judged: list[list[Verdict | None] | None] = [[r.verdict for r in group] for group in results]
    return samples, judged


def run_pipeline(
    env: Environment,
    policy: Policy,
    tasks: Sequence[Task],
    config: RolloutConfig,
    on_group: Callable[[ScoredGroup], None],
    on_backlog: Callable[[int], None] | None = None,
) -> PipelineTimes:
    """Generate batch after batch while earlier batches are graded; `on_group` is called once
    per finished group (under a lock, from a grading thread). Errors raised by `on_group` or
    the policy stop the run and propagate."""
    times = PipelineTimes()
    lock = threading.Lock()
    pending: list[Future[None]] = []
    limit = config.max_backlog * config.batch_tasks
    wall = time.perf_counter()

    def grade(task: Task, samples: list[Sample], judged: list[Verdict | None] | None) -> None:
        group = score_group(env, task, samples, config, judged)
        with lock:
            times.grade_s += group.stats.extra["grade_s"] if group.stats else 0.0
            on_group(group)

    def settle(keep: int) -> None:
        """Re-raise finished failures; block until at most `keep` groups are waiting."""
        while True:
            for fut in [f for f in pending if f.done()]:
                pending.remove(fut)
                fut.result()
            if len(pending) <= keep:
                return
            wait(pending, return_when=FIRST_COMPLETED)

    with ThreadPoolExecutor(max_workers=config.grade_workers, thread_name_prefix="grade") as pool:
        try:
            for b, start in enumerate(range(0, len(tasks), config.batch_tasks)):
                settle(limit)
                batch = list(tasks[start : start + config.batch_tasks])
                t0 = time.perf_counter()
                try:
                    groups, judged = sample_batch(env, policy, batch, config, b)
                except Exception:
                    settle(0)  # the policy failed: what it already answered is stored first
                    raise
                times.generate_s += time.perf_counter() - t0
                pending.extend(
                    pool.submit(grade, t, s, j)
                    for t, s, j in zip(batch, groups, judged, strict=True)
                )
                if on_backlog is not None:
                    on_backlog(sum(not f.done() for f in pending))
            settle(0)
        except BaseException:
            for fut in pending:
                fut.cancel()
            raise
    times.wall_s = time.perf_counter() - wall
    return times


def collect(
    env: Environment,
    policy: Policy,
    config: RolloutConfig,
    store: GroupStore,
    tasks: Iterable[Task] | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> RolloutSummary:
    """Sample, grade and store one group per task, skipping tasks the store already holds."""
    chosen = list(tasks) if tasks is not None else env.tasks()
    stored = store.keys()
    done = {tid for (e, tid, step) in stored if e == env.name and step == config.step}
    todo: dict[str, Task] = {}
    for t in chosen:
        if t.id not in done:
            todo.setdefault(t.id, t)
    tally = _Tally(Progress(done=0, total=len(todo)))
    lock = threading.Lock()  # grading threads and the generating thread both report

    def on_group(group: ScoredGroup) -> None:
        store.append(group)
        with lock:
            tally.add(group)
            if progress is not None:
                progress(tally.state)

    def on_backlog(n: int) -> None:
        with lock:
            tally.state.backlog = n
            if progress is not None:
                progress(tally.state)

    times = run_pipeline(env, policy, list(todo.values()), config, on_group, on_backlog)
    state = tally.state
    return RolloutSummary(
        groups=state.done,
        skipped=len({t.id for t in chosen}) - len(todo),
        samples=tally.samples,
        reward_mean=state.reward_mean,
        pass_rate=tally.passed / tally.scored if tally.scored else None,
        zero_variance_rate=state.zero_variance_rate,
        masked=state.masked,
        generate_s=times.generate_s,
        grade_s=times.grade_s,
        wall_s=times.wall_s,
    )


@dataclass
class _Tally:
    state: Progress
    samples: int = 0
    scored: int = 0
    passed: int = 0

    def add(self, group: ScoredGroup) -> None:
        stats = group.stats
        assert stats is not None
        state = self.state
        state.done += 1
        state.backlog = max(0, state.backlog - 1)
        state.masked += stats.n_masked
        state.zero_variance += int(stats.zero_variance)
        if stats.reward_mean is not None:
            state.reward_sum += stats.reward_mean * stats.n_scored
            state.reward_n += stats.n_scored
        self.samples += stats.n
        self.scored += stats.n_scored
        self.passed += sum(v.passed for v in group.verdicts)


def score_tasks(
    env: Environment, policy: Policy, tasks: Sequence[Task], config: RolloutConfig
) -> list[ScoredGroup]:
    """Scored groups for `tasks`, in task order, without a store (evaluation, tests)."""
    out: dict[str, ScoredGroup] = {}
    run_pipeline(env, policy, tasks, config, lambda g: out.__setitem__(g.task_id, g))
    return [out[t.id] for t in tasks if t.id in out]
