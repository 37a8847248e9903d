"""Episodes on Ray: sessions and their containers live on episode host actors, verdicts match
the local run, and a host that dies mid-episode masks only the episodes it held.

A local cluster of a head and a second raylet (one logical CPU each, both offering the
machine's image resources); the judges are the real ones, in real containers.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'rlvr[ray]'")

from scripted_episodes import call, episodes  # noqa: E402

from rlvr.distributed.cluster import node_resources  # noqa: E402
from rlvr.distributed.episodes import RayEpisodeHosts, RemoteSession, on_ray_episodes  # noqa: E402
from rlvr.episodes.admission import admitted  # noqa: E402
from rlvr.registry import load_env  # noqa: E402
from rlvr.sandbox.client import POOL_LABEL, get_client, reap_stale  # noqa: E402
from rlvr.sandbox.standins import standin  # noqa: E402
from rlvr.sandbox.toolbox import build as build_toolbox  # noqa: E402
from rlvr.types import ToolCall  # noqa: E402

STORE = 80 * 2**20
HELLO = 'echo "Hello, world!" > /app/hello.txt'
COUNT_FIX = (
    "awk '$2 == \"ERROR\"' app.log | wc -l > error_count.txt && awk '$2 == \"ERROR\" {print $3}' "
    "app.log | sort -u > error_workers.txt"
)


def wait_until(cond: Callable[[], bool], timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    from ray.cluster_utils import Cluster

    standin("ubuntu:24.04")
    build_toolbox(log=lambda _line: None)
    res = node_resources()
    head = {"num_cpus": 1, "resources": res, "include_dashboard": False}
    c = Cluster(
        initialize_head=True, connect=False, head_node_args={**head, "object_store_memory": STORE}
    )
    c.add_node(num_cpus=1, resources=res, object_store_memory=STORE)
    ray.init(address=c.address, log_to_driver=False)
    wait_until(lambda: ray.available_resources().get("CPU", 0) >= 2)
    yield c
    ray.shutdown()
    c.shutdown()
    reap_stale()


@pytest.mark.parametrize(
    ("env_name", "task_id", "fix"),
    [("terminal", "count-error-lines", COUNT_FIX), ("harbor-examples", "hello-world", HELLO)],
    ids=["strong", "harbor"],
)
def test_episodes_run_on_the_hosts_and_score_as_locally(
    cluster: Any, env_name: str, task_id: str, fix: str, tmp_path: Path
) -> None:
    env = load_env(env_name)
    task = env.task(task_id)
    scripts = [[call("bash", command=fix), call("submit")],
               [call("bash", command="ls"), call("submit")]] * 2  # fmt: skip
    local = episodes(env, task, scripts, tmp_path)
    with RayEpisodeHosts(env) as hosts:
        assert len(hosts.actors) == 2  # one per node offering the image
        remote = episodes(on_ray_episodes(env, hosts), task, scripts, tmp_path)
        where = hosts.where()
    assert [(r.verdict.status, r.verdict.reward) for r in remote] == [
        ("scored", 1.0), ("scored", 0.0), ("scored", 1.0), ("scored", 0.0)
    ]  # fmt: skip
    assert [r.verdict.reward for r in local] == [r.verdict.reward for r in remote]
    # the same stored answers (a Harbor command's limit is what was left of the agent phase)
    limits = re.compile(r"timeout -k 2 [0-9.]+ ")
    assert [limits.sub("", r.sample.text) for r in local] == [
        limits.sub("", r.sample.text) for r in remote
    ]
    # every session ran on an actor, spread over both nodes, none in this process
    assert sorted(w["opened"] for w in where) == [2, 2] and all(w["live"] == 0 for w in where)
    assert len({w["node_id"] for w in where}) == 2 and os.getpid() not in {w["pid"] for w in where}


def test_a_host_killed_mid_episode_masks_only_its_episodes(cluster: Any) -> None:
    env = load_env("terminal")
    task = env.task("count-error-lines")
    client = get_client()
    with RayEpisodeHosts(env) as hosts:
        a, b = hosts.open(env, task), hosts.open(env, task)
        assert isinstance(a, RemoteSession) and isinstance(b, RemoteSession)
        for s in (a, b):
            assert not s.call(ToolCall(name="bash", arguments={"command": COUNT_FIX})).error
        dead = hosts.where()[0]
        ray.kill(hosts.actors[0])  # a's host: the first open went to the first actor
        obs = a.call(ToolCall(name="bash", arguments={"command": "true"}))
        assert obs.error and "unavailable" in obs.content
        lost = a.verdict()
        assert lost is not None and (lost.status, lost.reward) == ("infra_error", None)
        assert "lost mid-episode" in lost.reason
        kept = b.verdict()
        assert kept is not None and (kept.status, kept.reward) == ("scored", 1.0)
        a.close()
        b.close()
        # the next opens go to the host that is left
        c = hosts.open(env, task)
        assert c.host == hosts.hosts[0] and len(hosts.actors) == 1
        c.close()
        # admission counts the memory of the hosts' nodes, not this process's host
        assert admitted(on_ray_episodes(env, hosts), 1000) >= 1
        assert hosts.free_mb() is not None
    # the killed host could not remove its container; the stale sweep does
    wait_until(lambda: not _alive(dead["pid"]))
    reap_stale()
    left = client.containers.list(all=True, filters={"label": f"{POOL_LABEL}={dead['pid']}"})
    assert left == []


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
