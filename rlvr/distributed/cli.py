"""What `--ray` adds to `rlvr grade`, `rlvr rollout` and `rlvr train`: one option pair and
one context manager, so that each command changes by a few lines and nothing else.

`--ray` grades on a Ray cluster: the one at `--ray-address` (or $RAY_ADDRESS), else a local
cluster started for the command and stopped after it. With `--ray`, a `--model` of one or more
comma-separated server URLs is sampled by Ray rollout workers, spread over the servers. An
environment with episodes also runs their sessions (and containers) on Ray episode hosts.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rlvr.distributed.cluster import connect, require_ray
from rlvr.distributed.episodes import RayEpisodeHosts, on_ray_episodes
from rlvr.distributed.grading import RayGradingPool, on_ray
from rlvr.distributed.rollout import RayServerPolicy
from rlvr.env import Environment
from rlvr.errors import RlvrError

if TYPE_CHECKING:
    from rlvr.distributed.grading import RayGradingPool

RayOpt = Annotated[
    bool,
    typer.Option(
        "--ray",
        help="Grade on a Ray cluster (--ray-address, $RAY_ADDRESS, or a local one started "
        "for this command); server policies are sampled by Ray workers.",
    ),
]
RayAddressOpt = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        envvar="RAY_ADDRESS",
        help="Ray cluster to join with --ray: HOST:PORT, or 'auto' on a node of it.",
    ),
]


@dataclass
class RaySession:
    """The environment to use (graded on Ray when enabled) and Ray-side policies."""

    env: Environment
    pool: RayGradingPool | None = None
    policies: list[Any] = field(default_factory=list)

    def workers(self, requested: int) -> int:
        """Grading threads: enough to keep every actor's in-flight slots busy."""
        return max(requested, self.pool.capacity) if self.pool is not None else requested

    def server_policy(self, model: str, served_model: str | None = None) -> Any | None:
        """Ray rollout workers for a `--model` of server URLs; None when the plain policy
        applies (no server URL, or one URL without --ray)."""
        urls = server_urls(model)
        if urls is None or (self.pool is None and len(urls) == 1):
            return None
        if self.pool is None:
            raise RlvrError(
                f"--model names {len(urls)} servers but --ray was not given",
                "add --ray to spread prompts over the servers, or give one URL",
            )

        policy = RayServerPolicy(urls, model=served_model)
        self.policies.append(policy)
        return policy


@contextlib.contextmanager
def ray_session(
    env: Environment, enabled: bool, address: str | None = None
) -> Iterator[RaySession]:
    """Yield `env` unchanged, or (with `enabled`) graded by a RayGradingPool on the cluster."""
    if not enabled:
        yield RaySession(env)
        return

    started = connect(address)
    try:
        with RayGradingPool(env) as pool, contextlib.ExitStack() as stack:
            graded = on_ray(env, pool)
            if env.episode is not None:  # the episodes' sessions live on the hosts too
                hosts = stack.enter_context(RayEpisodeHosts(env))
                graded = on_ray_episodes(graded, hosts)
            session = RaySession(graded, pool)
            try:
                yield session
            finally:
                for policy in session.policies:
                    policy.close()
    finally:
        if started:
            require_ray().shutdown()


def server_urls(model: str) -> list[str] | None:
    """The server URLs of a `--model` (comma-separated), or None when it names no server."""
    parts = [p.strip() for p in model.split(",") if p.strip()]
    is_url = [p.startswith(("http://", "https://")) for p in parts]
    if parts and all(is_url):
        return parts
    if len(parts) > 1 and any(is_url):
        raise RlvrError(
            f"--model {model!r} mixes server URLs with something else",
            "give only http(s)://HOST:PORT/v1 URLs, separated by commas",
        )
    return None
