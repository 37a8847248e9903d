"""Grading on Ray: grader actors behind the same Grader interface the local path uses.

Each actor builds the environment on its node (by name when the registry finds it there: a
manifest folder or an entry point; otherwise the pickled Environment is shipped) and grades one
group per job with the environment's own grader. So a code environment's actor owns a warm
sandbox pool on its node, and a math or tool-call actor its grader's worker processes. An actor
that needs a Docker image asks for the custom resource `image:<tag>`, which only nodes holding
the image offer (rlvr.distributed.cluster), and checks at start that the image is really there.

`RayGrader` is a Grader that sends `grade_group` to a `RayGradingPool`, and `on_ray(env, pool)`
returns the environment with that grader, so `collect`, `grade_items` and the learners run
unchanged (the actors' environments attach the hack flags; the local copy does not again).
Answers whose verdict is infra_error (a dead daemon, a killed container) are retried on another
actor; one that fails every attempt stays infra_error (masked in training), never a
reward of 0. Each answer's first non-infra verdict wins, so none is counted twice.
"""

from __future__ import annotations

import dataclasses
import os
import socket
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from rlvr.discovery import add_env_path, discover
from rlvr.distributed.cluster import image_resource, nodes_for, require_ray
from rlvr.distributed.faults import FaultStats, Job, Retry, RetryPolicy, new_job_id
from rlvr.distributed.pool import ActorPool
from rlvr.env import Environment
from rlvr.errors import RlvrError, SandboxError, SandboxSetupError
from rlvr.graders.base import is_deterministic
from rlvr.registry import load_env
from rlvr.sandbox.client import get_client, reap_stale
from rlvr.types import Task, Verdict


def prepare_node(image: str) -> None:
    """Check that this node holds `image` and remove containers left by dead actors here.

    A daemon that does not answer is no reason to fail the actor's start: it may be
    restarting, and meanwhile the actor's jobs come back as infra_error and are retried
    elsewhere. An image that is missing is a placement error and fails the start.
    """
    import docker.errors

    try:
        client = get_client()
        client.images.get(image)
        reap_stale()  # a killed actor cannot remove its own containers
    except docker.errors.ImageNotFound:
        raise SandboxError(
            f"node {socket.gethostname()} offers resource {image_resource(image)!r} but its "
            f"Docker daemon has no image {image!r}",
            "build it there (`rlvr sandbox build`) or restart that node's `ray start` without "
            "the resource",
        ) from None
    except Exception:  # no daemon, or one going away: the jobs will say so
        return


def node_env(env: str | Environment, env_paths: list[str], image: str | None) -> Environment:
    """An actor's environment: built on its node by name (the manifest folders added to the
    env path first) or the shipped one, with the node's image checked."""
    if isinstance(env, str):
        for path in env_paths:
            add_env_path(path)
        env = load_env(env)
    if image:
        prepare_node(image)
    return env


def actor_place() -> dict[str, Any]:
    """Node id, host and pid of the calling actor."""
    ray = require_ray()
    node = ray.get_runtime_context().get_node_id()
    return {"node_id": node, "host": socket.gethostname(), "pid": os.getpid()}


class GraderWorker:
    """The body of a grader actor: one environment, graded group by group."""

    def __init__(self, env: str | Environment, env_paths: list[str], image: str | None) -> None:
        self.env = node_env(env, env_paths, image)

    def where(self) -> dict[str, Any]:
        """Node id, host and pid of this actor (for placement checks and fault tests)."""
        return actor_place()

    def close(self) -> None:
        """Remove this actor's sandbox containers before Ray ends its process."""
        docker = sys.modules.get("rlvr.sandbox.docker")
        if docker is not None:
            docker.close_all_pools()

    def grade(self, task: Task, answers: list[str]) -> list[Verdict]:
        start = time.perf_counter()
        try:
            verdicts = self.env.grade(task, answers)
        except SandboxSetupError as e:  # this node cannot sandbox: retried on another actor
            reason = f"sandbox unavailable on {socket.gethostname()}: {e.message}"
            return [Verdict.error("infra_error", reason) for _ in answers]
        took = time.perf_counter() - start
        return [v if v.duration_s is not None else v.model_copy(update={"duration_s": took})
                for v in verdicts]  # fmt: skip


@dataclass
class _Group:
    """A job's payload: the whole group, the answers still to grade, and what is known."""

    task: Task
    answers: list[str]
    todo: list[int]
    verdicts: list[Verdict | None]
    last_infra: dict[int, Verdict] = field(default_factory=dict)


class _GradeHandler:
    def __init__(self) -> None:
        self.stats = FaultStats()

    def call(self, actor: Any, job: Job[_Group]) -> Any:
        p = job.payload
        return actor.grade.remote(p.task, [p.answers[i] for i in p.todo])

    def settle(self, job: Job[_Group], reply: list[Verdict]) -> list[Verdict] | Retry:
        p = job.payload
        again: list[int] = []
        for i, v in zip(p.todo, reply, strict=True):
            if v.status == "infra_error":
                again.append(i)
                p.last_infra[i] = v
            elif p.verdicts[i] is None:
                p.verdicts[i] = v
            else:
                self.stats.duplicates += 1
        if again:
            p.todo = again
            reason = p.last_infra[again[0]].reason
            return Retry(f"{len(again)} of {len(reply)} answers hit infrastructure: {reason}")
        return [v for v in p.verdicts if v is not None]

    def give_up(self, job: Job[_Group], reason: str) -> list[Verdict]:
        p = job.payload
        details = {"attempts": job.attempts, "errors": job.errors[-3:]}
        for i in p.todo:
            if p.verdicts[i] is None:
                last = p.last_infra.get(i)
                why = last.reason if last else reason
                p.verdicts[i] = Verdict.error(
                    "infra_error", f"{why} (gave up after {job.attempts} attempts)",
                    details={**(last.details if last else {}), **details},
                )  # fmt: skip
        return [v for v in p.verdicts if v is not None]


def shipping(env: Environment) -> tuple[str | Environment, list[str]]:
    """Send the name (and the manifest folder) when the registry can build it on a node."""
    src = discover().get(env.name)
    if src is not None and src.kind in ("manifest", "entry-point"):
        return env.name, [str(src.folder)] if src.folder else []
    return env, []


class RayGradingPool:
    """Grader actors for one environment; `grade(task, answers)` like `env.grade`."""

    def __init__(
        self,
        env: Environment,
        actors: int | None = None,
        in_flight: int = 2,
        retry: RetryPolicy | None = None,
        actor_options: dict[str, Any] | None = None,
    ) -> None:
        """`actors`: default one per alive node that can host them. `in_flight`: groups an
        actor grades at once (the back-pressure bound). `actor_options` go to Ray's
        `.options()` (e.g. runtime_env)."""
        ray = require_ray()
        self.env = env
        self.image: str | None = (env.sandbox or {}).get("image")
        resource = image_resource(self.image) if self.image else None
        nodes = nodes_for(resource, f"environment {env.name!r}")
        target, paths = shipping(env)
        options: dict[str, Any] = {
            "num_cpus": 0,
            "max_restarts": 0,
            "max_task_retries": 0,
            "max_concurrency": in_flight + 1,
            "scheduling_strategy": "SPREAD",  # replacements: wherever the resources are
            **(actor_options or {}),
        }
        if resource:
            options["resources"] = {resource: 1}
        remote = ray.remote(GraderWorker)
        started: set[int] = set()

        def spawn(slot: int) -> Any:
            opts = dict(options)
            if slot not in started and "scheduling_strategy" not in (actor_options or {}):
                from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

                # first actors: round-robin over the nodes, pinned (a soft affinity lets a
                # node that is slow to start a worker process hand its actor to another node)
                node = nodes[slot % len(nodes)]
                opts["scheduling_strategy"] = NodeAffinitySchedulingStrategy(node, soft=False)
            started.add(slot)
            return remote.options(**opts).remote(target, paths, self.image)

        handler = _GradeHandler()
        self.pool: ActorPool[_Group, list[Verdict]] = ActorPool(
            f"grader[{env.name}]", spawn, actors or len(nodes), handler, in_flight, retry
        )
        self.stats: FaultStats = self.pool.stats
        handler.stats = self.stats

    @property
    def capacity(self) -> int:
        """Groups graded at once across the pool: submit at least this many to keep it busy."""
        return self.pool.capacity

    def submit(self, task: Task, answers: Sequence[str]) -> Future[list[Verdict]]:
        """Grade one group on some actor; the Future resolves once, in answer order."""
        if not answers:
            done: Future[list[Verdict]] = Future()
            done.set_result([])
            return done
        n = len(answers)
        payload = _Group(task, list(answers), list(range(n)), [None] * n)
        return self.pool.submit(new_job_id(self.env.name, task.id), payload)

    def grade(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        return self.submit(task, answers).result()

    def slots(self) -> list[dict[str, Any]]:
        return self.pool.slots()

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> RayGradingPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RayGrader:
    """A Grader whose groups are graded by a RayGradingPool (extraction stays local)."""

    def __init__(self, local: Any, pool: RayGradingPool) -> None:
        self.local, self.pool = local, pool
        self.name: str = local.name
        self.deterministic = is_deterministic(local)  # copies are shared before the pool

    def extract(self, completion: str) -> Any:
        return self.local.extract(completion)

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        try:
            return self.pool.grade(task, answers)
        except RlvrError as e:  # the pool itself is gone: masked, never a zero
            return [Verdict.error("infra_error", e.message) for _ in answers]


def on_ray(env: Environment, pool: RayGradingPool) -> Environment:
    """A copy of `env` whose grading goes to `pool`; tasks and prompts are untouched."""
    audit = dataclasses.replace(env.audit, policy=None) if env.audit else None  # actors flag
    return dataclasses.replace(env, grader=RayGrader(env.grader, pool), audit=audit)
