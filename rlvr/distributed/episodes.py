"""Episodes on Ray: the sessions (and their containers) live on the cluster's grading nodes.

The policy stays where it is (the learner's process, or its server); only the environment side
of each episode moves. An episode host actor builds the environment on its node, as a grader
actor does, and holds that node's live sessions by id: it opens them (a terminal session starts
its container there, and a Harbor task's image is built or taken from that node's cache), runs
their tool calls, and runs each one's final judge there before it releases the container.

`RayEpisodeHosts.open` is an `EpisodeSpec.open_session`, so `on_ray_episodes(env, hosts)`
returns the environment whose episodes run on the hosts while `EpisodeRunner`, the learners,
`rlvr eval` and the stores run unchanged. Faults are handled as grading handles them, at the
episode's grain: an open that meets a dead host moves to another host (nothing has happened
yet); a host that dies while an episode is live loses that episode, which ends `infra_error`
(masked in training, never a reward of 0), because its later turns depended on the state that
died. Admission counts the memory the hosts report, not the learner's host (`free_mb`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import sys
import threading
import uuid
from typing import Any

from rlvr.distributed.cluster import image_resource, nodes_for, require_ray
from rlvr.distributed.faults import is_worker_death, short_error
from rlvr.distributed.grading import actor_place, node_env, shipping
from rlvr.env import Environment
from rlvr.episodes.admission import available_mb
from rlvr.episodes.session import Session
from rlvr.errors import RlvrError
from rlvr.types import Observation, Task, ToolCall, Verdict

HOST_CONCURRENCY = 64
"""Calls a host serves at once (each episode has at most one in flight)."""
CLOSE_TIMEOUT_S = 60.0


class SessionHost:
    """The body of an episode host actor: one environment and this node's live sessions."""

    def __init__(self, env: str | Environment, env_paths: list[str], image: str | None) -> None:
        env = node_env(env, env_paths, image)
        if env.episode is None:
            raise RlvrError(f"environment {env.name!r} has no [episode] table", "use --ray only "
                            "with the environment's single-turn grading")  # fmt: skip
        self.env = env
        self.sessions: dict[str, Session] = {}
        self.opened = 0
        self.lock = threading.Lock()

    def where(self) -> dict[str, Any]:
        """Node id, host and pid of this actor, and its sessions (live, opened in all)."""
        return {**actor_place(), "live": len(self.sessions), "opened": self.opened}

    def free_mb(self) -> int | None:
        return available_mb()

    def open(self, task: Task) -> str:
        assert self.env.episode is not None
        session = self.env.episode.open_session(self.env, task)
        sid = uuid.uuid4().hex
        with self.lock:
            self.sessions[sid] = session
            self.opened += 1
        return sid

    def note_turn(self, sid: str, text: str) -> None:
        self.sessions[sid].note_turn(text)

    def call(self, sid: str, call: ToolCall) -> Observation:
        return self.sessions[sid].call(call)

    def answer(self, sid: str) -> str:
        return self.sessions[sid].answer()

    def finish(self, sid: str) -> tuple[Verdict | None, str]:
        """The session's final judge, then its release; (verdict, answer)."""
        with self.lock:
            session = self.sessions.pop(sid)
        try:
            verdict = session.verdict()
        finally:
            session.close()
        return verdict, session.answer()

    def close(self, sid: str) -> None:
        with self.lock:
            session = self.sessions.pop(sid, None)
        if session is not None:
            session.close()

    def close_all(self) -> None:
        """Release every live session and this actor's pools before Ray ends its process."""
        with self.lock:
            live, self.sessions = list(self.sessions.values()), {}
        for session in live:
            with contextlib.suppress(Exception):
                session.close()
        docker = sys.modules.get("rlvr.sandbox.docker")
        if docker is not None:
            docker.close_all_pools()


class _Lost(Exception):
    """The host that held a session is gone."""


class RemoteSession:
    """A Session whose state lives in a host actor; a lost host masks the episode."""

    def __init__(self, actor: Any, sid: str, host: str) -> None:
        self.actor, self.sid, self.host = actor, sid, host
        self.lost: str | None = None
        self.finished = False
        self._answer: str | None = None

    def _ask(self, method: str, *args: Any) -> Any:
        ray = require_ray()
        try:
            return ray.get(getattr(self.actor, method).remote(self.sid, *args))
        except Exception as e:
            if is_worker_death(e):
                self.lost = short_error(e)
                raise _Lost from None
            raise

    def note_turn(self, text: str) -> None:
        if self.lost is None:
            with contextlib.suppress(_Lost):
                self._ask("note_turn", text)

    def call(self, call: ToolCall) -> Observation:
        if self.lost is None:
            with contextlib.suppress(_Lost):
                return self._ask("call", call)
        return Observation(tool=call.name, content="the sandbox is unavailable", error=True)

    def answer(self) -> str:
        if self._answer is None and self.lost is None and not self.finished:
            with contextlib.suppress(_Lost):
                self._answer = self._ask("answer")
        return self._answer or ""

    def verdict(self) -> Verdict | None:
        if self.lost is None and not self.finished:
            with contextlib.suppress(_Lost):
                verdict, self._answer = self._ask("finish")
                self.finished = True
                return verdict
        why = f"the episode host on {self.host} was lost mid-episode ({self.lost})"
        return Verdict.error("infra_error", f"{why}; masked, never scored 0")

    def close(self) -> None:
        if self.lost is None and not self.finished:
            with contextlib.suppress(Exception):
                self._ask("close")
            self.finished = True


class RayEpisodeHosts:
    """Episode host actors for one environment, one per node that can host them by default."""

    def __init__(
        self,
        env: Environment,
        actors: int | None = None,
        actor_options: dict[str, Any] | None = None,
    ) -> None:
        ray = require_ray()
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        self.env = env
        image: str | None = (env.sandbox or {}).get("image")
        resource = image_resource(image) if image else None
        nodes = nodes_for(resource, f"the episodes of {env.name!r}")
        target, paths = shipping(env)
        options: dict[str, Any] = {
            "num_cpus": 0,
            "max_restarts": 0,
            "max_task_retries": 0,
            "max_concurrency": HOST_CONCURRENCY,
            **({"resources": {resource: 1}} if resource else {}),
            **(actor_options or {}),
        }
        remote = ray.remote(SessionHost)
        self.actors: list[Any] = []
        for slot in range(actors or len(nodes)):
            strategy = NodeAffinitySchedulingStrategy(nodes[slot % len(nodes)], soft=False)
            opts = {"scheduling_strategy": strategy, **options}
            self.actors.append(remote.options(**opts).remote(target, paths, image))
        self.hosts = [str(w["host"]) for w in ray.get([a.where.remote() for a in self.actors])]
        self._turn = itertools.count()
        self._lock = threading.Lock()

    def open(self, env: Environment, task: Task) -> Session:
        """Open `task`'s session on the next live host (round robin); a dead host is dropped
        and the open moves on. The `env` argument is the caller's copy: hosts use their own."""
        ray = require_ray()
        while True:
            with self._lock:
                if not self.actors:
                    raise RlvrError(
                        f"no episode host of {self.env.name!r} is left (every one died)",
                        "check the Ray nodes (`ray status`) and run again",
                    )
                k = next(self._turn) % len(self.actors)
                actor, host = self.actors[k], self.hosts[k]
            try:
                return RemoteSession(actor, ray.get(actor.open.remote(task)), host)
            except Exception as e:
                if not is_worker_death(e):
                    raise
                with self._lock:
                    if actor in self.actors:
                        i = self.actors.index(actor)
                        del self.actors[i], self.hosts[i]

    def free_mb(self) -> int | None:
        """Memory available on the hosts' nodes together (each node counted once)."""
        ray = require_ray()
        seen: dict[str, int] = {}
        for actor, host in zip(list(self.actors), list(self.hosts), strict=True):
            with contextlib.suppress(Exception):
                mb = ray.get(actor.free_mb.remote(), timeout=30)
                if mb is not None:
                    seen[host] = mb
        return sum(seen.values()) if seen else None

    def where(self) -> list[dict[str, Any]]:
        ray = require_ray()
        return list(ray.get([a.where.remote() for a in self.actors]))

    def close(self) -> None:
        ray = require_ray()
        with contextlib.suppress(Exception):
            ray.get([a.close_all.remote() for a in self.actors], timeout=CLOSE_TIMEOUT_S)
        for actor in self.actors:
            with contextlib.suppress(Exception):
                ray.kill(actor)
        self.actors, self.hosts = [], []

    def __enter__(self) -> RayEpisodeHosts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def on_ray_episodes(env: Environment, hosts: RayEpisodeHosts) -> Environment:
    """A copy of `env` whose episodes run on `hosts`; prompts, tools and grading untouched."""
    if env.episode is None:
        raise ValueError(f"environment {env.name!r} is single-turn (no [episode] table)")
    spec = dataclasses.replace(env.episode, open_session=hosts.open, free_mb=hosts.free_mb)
    return dataclasses.replace(env, episode=spec)
