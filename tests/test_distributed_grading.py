"""Grading on Ray: the local verdicts, in order, and none lost or counted twice when an actor,
its containers or a whole node die mid-run; persistent infrastructure failure is masked.

One module-scoped local cluster serves every test: a head and a second raylet on loopback, one
logical CPU each, both offering the machine's image resources. The graders are the real ones:
math, and HumanEval's canonical solutions in the Docker sandbox.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'rlvr[ray]'")

from typer.testing import CliRunner  # noqa: E402

from rlvr.cli import app  # noqa: E402
from rlvr.distributed.cluster import node_resources  # noqa: E402
from rlvr.distributed.faults import RetryPolicy  # noqa: E402
from rlvr.distributed.grading import RayGradingPool, on_ray  # noqa: E402
from rlvr.errors import RlvrError  # noqa: E402
from rlvr.grading import GradeItem, grade_items  # noqa: E402
from rlvr.registry import load_env  # noqa: E402
from rlvr.rollout import RolloutConfig, score_group  # noqa: E402
from rlvr.sandbox.client import docker_available, reap_stale  # noqa: E402
from rlvr.types import Sample, Task, Verdict  # noqa: E402

STORE = 80 * 2**20
WRONG = ["def broken(:\n", "    return None\n"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Any, Any]]:
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    from ray.cluster_utils import Cluster

    res = node_resources()
    head = {"num_cpus": 1, "resources": res, "include_dashboard": False}
    c = Cluster(
        initialize_head=True, connect=False, head_node_args={**head, "object_store_memory": STORE}
    )
    second = c.add_node(num_cpus=1, resources=res, object_store_memory=STORE)
    ray.init(address=c.address, log_to_driver=False)
    wait_until(lambda: ray.available_resources().get("CPU", 0) >= 2)  # both nodes reported
    yield c, second
    ray.shutdown()
    c.shutdown()
    if docker_available()[0]:  # containers of actors that died with the removed node
        reap_stale()


@pytest.fixture
def docker() -> None:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1")
    ok, message = docker_available()
    assert ok, message


def wait_until(cond: Callable[[], bool], timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.02)


def humaneval_groups(n: int) -> tuple[Any, list[Task], list[list[str]]]:
    """Canonical solution, wrong, canonical, wrong: a pattern that shows any mix-up."""
    env = load_env("humaneval")
    tasks = env.tasks()[:n]
    return env, tasks, [[t.reference or "", WRONG[0], t.reference or "", WRONG[1]] for t in tasks]


def assert_each_verdict_once(groups: list[list[str]], results: list[list[Verdict]]) -> None:
    """One scored verdict per answer, in answer order; canonical ones pass (unless the loaded
    machine made them time out), wrong ones never do."""
    assert len(results) == len(groups)
    for answers, verdicts in zip(groups, results, strict=True):
        assert len(verdicts) == len(answers)
        assert all(v.status == "scored" for v in verdicts), [v.reason for v in verdicts]
        for i, v in enumerate(verdicts):
            if i % 2:
                assert not v.passed
            else:
                assert v.passed or v.reason == "timeout", v.reason


def test_verdicts_match_local_grading_in_order(cluster: tuple[Any, Any]) -> None:
    env = load_env("math")
    tasks = env.tasks()[:24]
    groups = [[f"\\boxed{{{t.gold}}}", "\\boxed{-1}", "no answer", f"x = {t.gold}"] for t in tasks]
    with RayGradingPool(env) as pool:
        slots = pool.slots()
        futures = [pool.submit(t, g) for t, g in zip(tasks, groups, strict=True)]
        remote = [f.result() for f in futures]
        items = [GradeItem(t.id, a) for t, g in zip(tasks, groups, strict=True) for a in g]
        rows = grade_items(on_ray(env, pool), [*items, GradeItem("nope", "x")], pool.capacity)
        stats = pool.stats.as_dict()
    local = [env.grade(t, g) for t, g in zip(tasks, groups, strict=True)]

    def key(v: Verdict) -> tuple[str, float | None, str]:
        return (v.status, v.reward, v.reason)

    assert len(slots) == 2 and len({s["node_id"] for s in slots}) == 2  # one actor per node
    assert [[key(v) for v in r] for r in remote] == [[key(v) for v in r] for r in local]
    assert [r["reason"] for r in rows[:-1]] == [v.reason for r in local for v in r]
    assert rows[-1]["status"] == "input_error"
    assert stats["jobs"] == stats["attempts"] == 48
    assert stats["retries"] == stats["actor_deaths"] == stats["duplicates"] == 0


def test_grade_cli_with_ray_matches_the_local_command(
    cluster: tuple[Any, Any], tmp_path: Path
) -> None:
    env = load_env("math")
    answers = tmp_path / "answers.jsonl"
    lines = [{"task_id": t.id, "completion": c} for t in env.tasks()[:5]
             for c in (f"\\boxed{{{t.gold}}}", "\\boxed{-7}")]  # fmt: skip
    answers.write_text("".join(json.dumps(x) + "\n" for x in lines))
    runner = CliRunner()
    base = ["grade", "--env", "math", "--answers", str(answers)]
    on_ray_run = runner.invoke(app, [*base, "--ray", "--ray-address", cluster[0].address])
    local_run = runner.invoke(app, base)
    assert on_ray_run.exit_code == 0, on_ray_run.output
    got = [json.loads(x) for x in on_ray_run.stdout.splitlines() if x.startswith("{")]
    want = [json.loads(x) for x in local_run.stdout.splitlines() if x.startswith("{")]
    assert [(r["task_id"], r["passed"], r["reason"]) for r in got] == [
        (r["task_id"], r["passed"], r["reason"]) for r in want
    ]
    assert [r["passed"] for r in got] == [True, False] * 5
    assert ray.is_initialized()  # the command joined the cluster and left it running


def test_actor_killed_mid_run_every_verdict_arrives_once(
    cluster: tuple[Any, Any], docker: None
) -> None:
    from rlvr.sandbox.client import get_client

    env, tasks, groups = humaneval_groups(8)
    with RayGradingPool(env, in_flight=1) as pool:
        futures = [pool.submit(t, g) for t, g in zip(tasks, groups, strict=True)]
        wait_until(lambda: any(f.done() for f in futures))
        wait_until(lambda: any(s["running"] for s in pool.slots()))
        victim = next(s for s in pool.slots() if s["running"])
        os.kill(victim["pid"], signal.SIGKILL)
        results = [f.result(timeout=300) for f in futures]
        wait_until(lambda: all(s["ready"] for s in pool.slots()))
        stats = pool.stats.as_dict()
        pids_after = {s["pid"] for s in pool.slots()}
    assert_each_verdict_once(groups, results)
    assert stats["jobs"] == len(tasks) and stats["gave_up"] == stats["duplicates"] == 0
    assert stats["actor_deaths"] == 1 and stats["replacements"] == 1
    assert stats["retries"] >= 1 and stats["attempts"] == len(tasks) + stats["retries"]
    assert victim["pid"] not in pids_after
    label = {"label": f"rlvr.pool={victim['pid']}"}  # the replacement reaped the orphans
    assert get_client().containers.list(ignore_removed=True, all=True, filters=label) == []


def test_containers_killed_mid_run_as_in_a_daemon_restart(
    cluster: tuple[Any, Any], docker: None
) -> None:
    from rlvr.sandbox.client import get_client

    client = get_client()
    env, tasks, groups = humaneval_groups(8)
    killed = 0
    with RayGradingPool(env, in_flight=1) as pool:
        pids = {str(s["pid"]) for s in pool.slots()}

        def ours() -> list[Any]:
            found = client.containers.list(ignore_removed=True, filters={"label": "rlvr.pool"})
            return [c for c in found if c.labels.get("rlvr.pool") in pids]

        futures = [pool.submit(t, g) for t, g in zip(tasks, groups, strict=True)]
        wait_until(lambda: any(f.done() for f in futures))
        wait_until(lambda: bool(ours()) and any(s["running"] for s in pool.slots()))
        for c in ours():  # while jobs run: every container of both actors, as a restart does
            c.remove(force=True)
            killed += 1
        results = [f.result(timeout=300) for f in futures]
        stats = pool.stats.as_dict()
    assert killed >= 2  # both actors had their pool up
    assert_each_verdict_once(groups, results)
    assert stats["gave_up"] == stats["duplicates"] == 0


def test_persistent_infrastructure_failure_ends_masked_not_zero(cluster: tuple[Any, Any]) -> None:
    env, tasks, groups = humaneval_groups(3)
    no_daemon = {"runtime_env": {"env_vars": {"DOCKER_HOST": "unix:///nonexistent/docker.sock"}}}
    retry = RetryPolicy(max_attempts=2, backoff_s=0.0, rest_s=0.0)
    with RayGradingPool(env, retry=retry, actor_options=no_daemon) as pool:
        results = [pool.grade(t, g) for t, g in zip(tasks, groups, strict=True)]
        ray_env = on_ray(env, pool)
        samples = [Sample(task_id=tasks[0].id, index=i, text=a) for i, a in enumerate(groups[0])]
        group = score_group(ray_env, tasks[0], samples, RolloutConfig(g=4))
        stats = pool.stats.as_dict()
    for verdicts in results:
        assert [v.status for v in verdicts] == ["infra_error"] * 4
        assert all(v.reward is None and "gave up after 2 attempts" in v.reason for v in verdicts)
        assert all(v.details["attempts"] == 2 and "no Docker daemon" in v.reason for v in verdicts)
    assert group.stats is not None and group.stats.n_masked == 4 and group.stats.n_scored == 0
    assert group.advantages == [0.0] * 4
    assert stats["gave_up"] == 4 and stats["attempts"] == 8 and stats["actor_deaths"] == 0


def test_an_image_no_node_offers_is_refused_with_the_fix(cluster: tuple[Any, Any]) -> None:
    env = load_env("humaneval")
    elsewhere = dataclasses.replace(env, sandbox={**(env.sandbox or {}), "image": "rlvr-x:none"})
    with pytest.raises(RlvrError) as err:
        RayGradingPool(elsewhere)
    assert "no node of the Ray cluster offers the resource 'image:rlvr-x:none'" in err.value.message
    assert "ray start --address HEAD:6379 --resources" in (err.value.fix or "")


def test_node_removed_mid_run_jobs_move_to_the_survivor(
    cluster: tuple[Any, Any], docker: None
) -> None:
    """Last: the second node does not come back."""
    c, second = cluster
    env, tasks, groups = humaneval_groups(8)
    with RayGradingPool(env, in_flight=1) as pool:
        assert second.node_id in {s["node_id"] for s in pool.slots()}
        futures = [pool.submit(t, g) for t, g in zip(tasks, groups, strict=True)]
        wait_until(lambda: any(f.done() for f in futures))
        c.remove_node(second)
        results = [f.result(timeout=300) for f in futures]
        stats = pool.stats.as_dict()
        nodes_after = {s["node_id"] for s in pool.slots() if s["ready"] and not s["dead"]}
    assert_each_verdict_once(groups, results)
    assert stats["actor_deaths"] >= 1 and stats["gave_up"] == stats["duplicates"] == 0
    assert second.node_id not in nodes_after
