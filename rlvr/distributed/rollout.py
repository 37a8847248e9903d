"""Rollout workers on Ray: one policy served by several OpenAI-compatible servers.

`RayServerPolicy` is a Policy. A `sample` call cuts its prompts into chunks and sends each
chunk, as one job, to the Ray actor of one server (an `OpenAIPolicy` living in that actor), at
most `in_flight` chunks per server. A chunk whose server stops answering (the actor's own
request retries are kept short) is retried on another server; the server that failed gets no
new chunk for `rest_s`, then is tried again in case it came back. Results are put back in
prompt order, each sample keeps its task id and index, and a chunk starting at prompt k is
sampled with seed + k, so a seeded run asks each server for exactly the seeds one server would
have been asked for. A chunk that fails on every attempt raises PolicyError: there are no
samples to make up, and the rollout store keeps every group written before it.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rlvr.distributed.cluster import require_ray
from rlvr.distributed.faults import FaultStats, Job, Retry, RetryPolicy, new_job_id
from rlvr.distributed.pool import ActorPool
from rlvr.errors import PolicyError
from rlvr.policies.base import Prompt, SamplingConfig, check_g, label_ids
from rlvr.policies.openai import OpenAIPolicy
from rlvr.types import Sample


class ServerWorker:
    """The body of a rollout actor: an OpenAIPolicy bound to one server."""

    def __init__(self, base_url: str, model: str | None, options: dict[str, Any]) -> None:
        self.policy = OpenAIPolicy(base_url, model=model, **options)

    async def where(self) -> dict[str, Any]:
        ray = require_ray()
        node = ray.get_runtime_context().get_node_id()
        return {"node_id": node, "host": socket.gethostname(), "pid": os.getpid(),
                "server": self.policy.base_url}  # fmt: skip

    async def close(self) -> None:
        """Nothing to clean up: each call opens and closes its own HTTP client."""

    async def sample(
        self, prompts: list[Prompt], g: int, sampling: SamplingConfig, task_ids: list[str]
    ) -> list[list[Sample]]:
        return await self.policy.asample(prompts, g, sampling, task_ids)


@dataclass
class _Chunk:
    offset: int
    prompts: list[Prompt]
    task_ids: list[str]
    g: int
    sampling: SamplingConfig


class _SampleHandler:
    def __init__(self, urls: list[str]) -> None:
        self.urls = urls

    def call(self, actor: Any, job: Job[_Chunk]) -> Any:
        c = job.payload
        return actor.sample.remote(c.prompts, c.g, c.sampling, c.task_ids)

    def settle(self, job: Job[_Chunk], reply: list[list[Sample]]) -> list[list[Sample]] | Retry:
        c = job.payload
        shape = [len(group) for group in reply]
        if shape != [c.g] * len(c.prompts):
            return Retry(f"server returned groups of sizes {shape} for {len(c.prompts)} x {c.g}")
        return reply

    def give_up(self, job: Job[_Chunk], reason: str) -> list[list[Sample]]:
        c = job.payload
        raise PolicyError(
            f"prompts {c.offset}..{c.offset + len(c.prompts) - 1} could not be sampled after "
            f"{job.attempts} attempts on the servers {', '.join(self.urls)} (last: {reason})",
            "check that the servers are up (curl URL/models); groups already written to the "
            "store are kept, so rerunning with the same --out resumes",
        )


class RayServerPolicy:
    """A Policy spread over several OpenAI-compatible servers, with failover between them."""

    def __init__(
        self,
        urls: Sequence[str],
        model: str | None = None,
        chunk_prompts: int = 8,
        in_flight: int = 4,
        retry: RetryPolicy | None = None,
        request_retries: int = 1,
        request_backoff_s: float = 0.2,
        timeout_s: float = 300.0,
        token_ids: bool = False,
    ) -> None:
        """`request_retries` and `request_backoff_s` are each actor's own HTTP retries; keep
        them short so that a dead server's chunks move to another server quickly."""
        if not urls:
            raise PolicyError("RayServerPolicy needs at least one server URL", "pass urls=[...]")
        ray = require_ray()
        self.urls = [u.rstrip("/") for u in urls]
        self.name = ",".join(self.urls)
        self.chunk_prompts = max(1, chunk_prompts)
        options = {
            "max_retries": request_retries,
            "backoff_s": request_backoff_s,
            "timeout_s": timeout_s,
            "token_ids": token_ids,
            "max_concurrency": self.chunk_prompts,
        }
        remote = ray.remote(ServerWorker)
        actor_options = {
            "num_cpus": 0,
            "max_restarts": 0,
            "max_task_retries": 0,
            "max_concurrency": in_flight + 1,
            "scheduling_strategy": "SPREAD",
        }

        def spawn(slot: int) -> Any:
            return remote.options(**actor_options).remote(self.urls[slot], model, options)

        retry = retry or RetryPolicy(max_attempts=2 * len(self.urls) + 1, rest_s=5.0)
        self.pool: ActorPool[_Chunk, list[list[Sample]]] = ActorPool(
            "rollout", spawn, len(self.urls), _SampleHandler(self.urls), in_flight, retry
        )

    @property
    def stats(self) -> FaultStats:
        return self.pool.stats

    def sample(
        self,
        prompts: Sequence[Prompt],
        g: int,
        sampling: SamplingConfig,
        task_ids: Sequence[str] | None = None,
    ) -> list[list[Sample]]:
        """G samples per prompt, in prompt order, whichever servers answered."""
        check_g(g)
        ids = label_ids(prompts, task_ids)
        futures = []
        for start in range(0, len(prompts), self.chunk_prompts):
            end = start + self.chunk_prompts
            seeded = sampling
            if sampling.seed is not None:
                seeded = sampling.model_copy(update={"seed": sampling.seed + start})
            chunk = _Chunk(start, list(prompts[start:end]), ids[start:end], g, seeded)
            futures.append((start, self.pool.submit(new_job_id("sample", ids[start]), chunk)))
        out: list[list[Sample]] = [[] for _ in prompts]
        for start, fut in futures:
            groups = fut.result()
            out[start : start + len(groups)] = groups
        return out

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> RayServerPolicy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
