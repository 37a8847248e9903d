"""Job ids, retries and exactly-once results for work spread over Ray actors.

A job carries an id and a Future that resolves exactly once. `RetryPolicy` says how often a
job is tried and how long a worker that failed it rests; a handler (`Handler`) turns a reply
into the job's value or into `Retry` (an infrastructure failure: try elsewhere), and decides
what a job that failed every attempt becomes: graders make it infra_error verdicts (masked in
training, never a reward of 0), rollout workers a PolicyError. `is_worker_death` tells a dead
actor, process or node from a job that merely raised. The pool that applies all this is
`rlvr.distributed.pool.ActorPool`.
"""

from __future__ import annotations

import uuid
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

P = TypeVar("P")
V = TypeVar("V")


class RetryPolicy(BaseModel):
    """How hard a pool tries before a job's failure becomes its result."""

    model_config = ConfigDict(extra="forbid")

    max_attempts: int = Field(default=3, ge=1, description="Tries per job before giving up.")
    backoff_s: float = Field(
        default=0.2, ge=0, description="Wait before the first retry; doubles with each retry."
    )
    rest_s: float = Field(
        default=2.0, ge=0, description="A slot whose attempt failed gets no new job for this long."
    )
    job_timeout_s: float = Field(
        default=900.0, gt=0, description="A job running longer is stuck: its actor is replaced."
    )
    start_timeout_s: float = Field(
        default=180.0, gt=0, description="How long the first actors may take to start."
    )
    max_replacements: int = Field(
        default=32, ge=0, description="Actors started in place of dead ones, per pool."
    )


@dataclass
class Retry:
    """A handler's answer: this reply is an infrastructure failure; try the job again."""

    reason: str


@dataclass
class Job(Generic[P]):
    """One unit of work and its history; `payload` may shrink between attempts."""

    id: str
    payload: P
    future: Future[Any]
    attempts: int = 0
    avoid: set[int] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    not_before: float = 0.0


class Handler(Protocol[P, V]):
    """What a pool needs to know about its jobs."""

    def call(self, actor: Any, job: Job[P]) -> Any:
        """Start the job on an actor; returns the Ray ObjectRef of the reply."""
        ...

    def settle(self, job: Job[P], reply: Any) -> V | Retry:
        """The job's value from a reply, or Retry (the handler may narrow job.payload)."""
        ...

    def give_up(self, job: Job[P], reason: str) -> V:
        """The value of a job that failed every attempt (or raise to fail its Future)."""
        ...


@dataclass
class FaultStats:
    """What went wrong and what was done about it, for logs and tests."""

    jobs: int = 0
    attempts: int = 0
    retries: int = 0
    actor_deaths: int = 0
    replacements: int = 0
    stuck: int = 0
    gave_up: int = 0
    duplicates: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def new_job_id(*parts: str) -> str:
    """A readable, unique job id: the given parts and a random suffix."""
    return "/".join([*parts, uuid.uuid4().hex[:10]])


def is_worker_death(exc: BaseException) -> bool:
    """True when the actor, its process or its node is gone (not when the job itself raised)."""
    from ray import exceptions as rx

    lost = (
        rx.RayActorError,
        rx.WorkerCrashedError,
        rx.NodeDiedError,
        rx.LocalRayletDiedError,
        rx.ObjectLostError,
        rx.OwnerDiedError,
    )
    return isinstance(exc, lost)


def short_error(exc: BaseException) -> str:
    """The last `SomeError: message` line of a (possibly remote) error, else its first line."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    for line in reversed(lines):
        head = line.split(":", 1)[0]
        if head.endswith(("Error", "Exception", "Failure")) and " " not in head:
            return line[:300]
    return f"{type(exc).__name__}: {lines[0][:300] if lines else ''}"
