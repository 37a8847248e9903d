"""A pool of Ray actors that survives dying actors, dying nodes and flaky infrastructure.

`ActorPool` runs jobs on a fixed number of slots, each held by one Ray actor, with at most
`in_flight` jobs per actor: the rest wait in the pool's own queue, not in Ray, which is the
back-pressure. Every job resolves its Future exactly once:

- an actor or its node dies mid-job: the slot gets a new actor (Ray places it on any node that
  still has the resources) and the job is retried, on another slot when there is one;
- a reply the handler judges an infrastructure failure (`Retry`) is retried elsewhere after a
  back-off, and the slot that failed it gets no new job for `rest_s`;
- a job running past `job_timeout_s` is presumed stuck: its actor is killed and replaced;
- after `max_attempts` the handler's `give_up` decides what the job becomes.

A reply for a job that is already resolved is dropped and counted in `duplicates`. The retries
are the pool's alone: actors are made with max_restarts=0 and max_task_retries=0, so Ray never
re-runs a task behind its back and no result can arrive twice unnoticed.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Generic

from rlvr.distributed.cluster import require_ray
from rlvr.distributed.faults import (
    FaultStats,
    Handler,
    Job,
    P,
    Retry,
    RetryPolicy,
    V,
    is_worker_death,
    short_error,
)
from rlvr.errors import RlvrError

POLL_S = 0.02
CLOSE_TIMEOUT_S = 30.0


@dataclass
class _Slot:
    index: int
    actor: Any = None
    generation: int = 0
    info: dict[str, Any] = field(default_factory=dict)
    ready: bool = False
    dead: bool = False
    running: int = 0
    rest_until: float = 0.0


@dataclass
class _Run:
    job: Job[Any]
    slot: _Slot
    generation: int
    started: float


class ActorPool(Generic[P, V]):
    """Slots of Ray actors, a queue of jobs, and a dispatcher thread between them."""

    def __init__(
        self,
        name: str,
        spawn: Callable[[int], Any],
        size: int,
        handler: Handler[P, V],
        in_flight: int = 2,
        retry: RetryPolicy | None = None,
    ) -> None:
        """`spawn(slot)` creates the actor of a slot; the actor class needs `where()`
        (its node and pid, awaited at start) and `close()` (clean up before being killed)."""
        self.name, self.spawn, self.handler = name, spawn, handler
        self.in_flight = max(1, in_flight)
        self.retry = retry or RetryPolicy()
        self.stats = FaultStats()
        self._slots = [_Slot(i) for i in range(max(1, size))]
        self._queue: deque[Job[P]] = deque()
        self._running: dict[Any, _Run] = {}
        self._starting: dict[Any, _Slot] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._closed = False
        self._start_first()
        self._thread = threading.Thread(target=self._run, name=f"{name}-pool", daemon=True)
        self._thread.start()

    @property
    def capacity(self) -> int:
        """Jobs the pool runs at once when every actor is alive."""
        return len(self._slots) * self.in_flight

    def slots(self) -> list[dict[str, Any]]:
        """Where each slot's actor runs (pid, node id) and how busy it is."""
        return [
            {**s.info, "slot": s.index, "generation": s.generation, "running": s.running,
             "ready": s.ready, "dead": s.dead}
            for s in self._slots
        ]  # fmt: skip

    def submit(self, job_id: str, payload: P) -> Future[V]:
        """Queue a job; its Future resolves exactly once (value or the handler's give-up)."""
        job: Job[P] = Job(job_id, payload, Future())
        with self._lock:
            closed = self._closed
            if not closed:
                self._queue.append(job)
                self.stats.jobs += 1
        if closed:
            self._give_up(job, f"the {self.name} pool is closed")
        self._wake.set()
        return job.future

    def close(self) -> None:
        """Stop dispatching, resolve what is left with the handler's give-up, kill the actors."""
        ray = require_ray()
        with self._lock:
            self._closed = True
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=30)
        left = list(self._queue) + [r.job for r in self._running.values()]
        self._queue.clear()
        self._running.clear()
        for job in left:
            if not job.future.done():
                self._give_up(job, f"the {self.name} pool was closed before the job finished")
        with contextlib.suppress(Exception):  # let actors clean up (containers) before the kill
            refs = [s.actor.close.remote() for s in self._slots if not s.dead]
            ray.wait(refs, num_returns=len(refs), timeout=CLOSE_TIMEOUT_S)
        self._kill_all()

    def _start_first(self) -> None:
        """Start every slot's first actor and wait for all; a failed start is the user's to fix."""
        ray = require_ray()
        from ray.exceptions import GetTimeoutError

        for slot in self._slots:
            slot.actor, slot.generation = self.spawn(slot.index), 1
        try:
            infos = ray.get(
                [s.actor.where.remote() for s in self._slots], timeout=self.retry.start_timeout_s
            )
        except GetTimeoutError:
            self._kill_all()
            raise RlvrError(
                f"the {self.name} actors did not start within {self.retry.start_timeout_s:.0f} s",
                "check `ray status`: the cluster may lack the resources they ask for",
            ) from None
        except Exception as e:
            self._kill_all()
            raise RlvrError(
                f"a {self.name} actor failed to start: {short_error(e)}",
                "fix the cause above on that node (see `ray status` and /tmp/ray/session_latest/"
                "logs), then run again",
            ) from None
        for slot, info in zip(self._slots, infos, strict=True):
            slot.info, slot.ready = dict(info), True

    def _kill_all(self) -> None:
        ray = require_ray()
        for slot in self._slots:
            with contextlib.suppress(Exception):
                ray.kill(slot.actor)

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._step()
        except Exception as e:  # a dispatcher bug must not leave callers waiting forever
            with self._lock:
                self._closed = True
                left = list(self._queue) + [r.job for r in self._running.values()]
                self._queue.clear()
            for job in left:
                if not job.future.done():
                    self._give_up(job, f"the {self.name} dispatcher failed: {short_error(e)}")

    def _step(self) -> None:
        ray = require_ray()
        self._dispatch()
        refs = list(self._running) + list(self._starting)
        if not refs:
            self._wake.wait(timeout=POLL_S if self._queue else 0.5)
            self._wake.clear()
            self._abandon_if_no_actor()
            return
        ready, _ = ray.wait(refs, num_returns=1, timeout=POLL_S)
        if ready:
            ready, _ = ray.wait(refs, num_returns=len(refs), timeout=0)
        for ref in ready:
            self._on_ready(ref)
        self._check_stuck()

    def _pick(self, job: Job[P], now: float) -> _Slot | None:
        alive = [s for s in self._slots if not s.dead]
        free = [s for s in alive if s.ready and s.running < self.in_flight and s.rest_until <= now]
        fresh = [s for s in free if s.index not in job.avoid]
        if not fresh and all(s.index in job.avoid for s in alive):
            fresh = free  # every slot failed this job once: any free one will do
        return min(fresh, key=lambda s: (s.running, s.index)) if fresh else None

    def _dispatch(self) -> None:
        now = time.monotonic()
        with self._lock:
            waiting = list(self._queue)
        for job in waiting:
            if job.not_before > now:
                continue
            slot = self._pick(job, now)
            if slot is None:
                continue
            with self._lock:
                self._queue.remove(job)
            job.attempts += 1
            self.stats.attempts += 1
            try:
                ref = self.handler.call(slot.actor, job)
            except Exception as e:  # the payload cannot be sent (e.g. not serialisable)
                self._give_up(job, f"the job could not be sent: {short_error(e)}")
                continue
            self._running[ref] = _Run(job, slot, slot.generation, now)
            slot.running += 1

    def _on_ready(self, ref: Any) -> None:
        ray = require_ray()
        if ref in self._starting:
            slot = self._starting.pop(ref)
            try:
                slot.info, slot.ready = dict(ray.get(ref)), True
            except Exception:
                slot.dead = True
                self._replace(slot)
            return
        run = self._running.pop(ref)
        slot, job = run.slot, run.job
        if run.generation == slot.generation:
            slot.running -= 1
        try:
            reply = ray.get(ref)
        except Exception as e:
            if is_worker_death(e):
                self._lost(slot, run.generation)
                self._failed(job, slot, f"the actor died ({short_error(e)})")
            else:
                slot.rest_until = time.monotonic() + self.retry.rest_s
                self._failed(job, slot, short_error(e))
            return
        if job.future.done():
            self.stats.duplicates += 1
            return
        try:
            outcome = self.handler.settle(job, reply)
        except Exception as e:  # a reply of the wrong shape (e.g. another rlvr on that node)
            outcome = Retry(f"unusable reply: {short_error(e)}")
        if isinstance(outcome, Retry):
            slot.rest_until = time.monotonic() + self.retry.rest_s
            self._failed(job, slot, outcome.reason)
        else:
            job.future.set_result(outcome)

    def _failed(self, job: Job[P], slot: _Slot, reason: str) -> None:
        if job.future.done():
            self.stats.duplicates += 1
            return
        job.errors.append(f"attempt {job.attempts} on slot {slot.index}: {reason}")
        job.avoid.add(slot.index)
        if job.attempts >= self.retry.max_attempts:
            self._give_up(job, reason)
            return
        self.stats.retries += 1
        job.not_before = time.monotonic() + self.retry.backoff_s * 2 ** (job.attempts - 1)
        with self._lock:
            self._queue.appendleft(job)

    def _give_up(self, job: Job[P], reason: str) -> None:
        self.stats.gave_up += 1
        try:
            job.future.set_result(self.handler.give_up(job, reason))
        except Exception as e:
            job.future.set_exception(e)

    def _lost(self, slot: _Slot, generation: int) -> None:
        """A slot's actor died: count it once, kill what is left of it, start another."""
        if slot.generation != generation or slot.dead:
            return
        self.stats.actor_deaths += 1
        slot.dead = True
        with contextlib.suppress(Exception):
            require_ray().kill(slot.actor)
        self._replace(slot)

    def _replace(self, slot: _Slot) -> None:
        if self.stats.replacements >= self.retry.max_replacements or self._stop.is_set():
            return
        self.stats.replacements += 1
        slot.generation += 1
        slot.actor = self.spawn(slot.index)
        slot.dead, slot.ready, slot.running = False, False, 0
        self._starting[slot.actor.where.remote()] = slot

    def _check_stuck(self) -> None:
        now = time.monotonic()
        for run in list(self._running.values()):
            slot = run.slot
            current = run.generation == slot.generation and not slot.dead
            if current and now - run.started > self.retry.job_timeout_s:
                self.stats.stuck += 1
                self._lost(slot, run.generation)

    def _abandon_if_no_actor(self) -> None:
        """With every actor dead and none starting, queued jobs can only give up."""
        if self._starting or any(not s.dead for s in self._slots):
            return
        with self._lock:
            left = list(self._queue)
            self._queue.clear()
        for job in left:
            spent = self.stats.replacements
            self._give_up(job, f"no {self.name} actor is left ({spent} replacements spent)")
