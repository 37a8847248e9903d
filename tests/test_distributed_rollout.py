"""Rollout workers on Ray: prompts spread over two loopback OpenAI-compatible servers, one of
which dies mid-run; every prompt still gets one group, in order, with the seeds one server
would have used; `rlvr rollout --ray` writes each group once and resumes.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'rlvr[ray]'")

from typer.testing import CliRunner  # noqa: E402

from rlvr.cli import app  # noqa: E402
from rlvr.distributed.cluster import connect  # noqa: E402
from rlvr.distributed.faults import RetryPolicy  # noqa: E402
from rlvr.distributed.rollout import RayServerPolicy  # noqa: E402
from rlvr.errors import PolicyError  # noqa: E402
from rlvr.policies.base import SamplingConfig  # noqa: E402
from rlvr.registry import load_env  # noqa: E402
from rlvr.store import GroupStore  # noqa: E402


class LoopServer:
    """A small OpenAI-compatible chat server on 127.0.0.1. Each choice's text names the server,
    the seed it was asked for and the end of the prompt. From request `die_at` on, it drops the
    connection without answering and closes its port, as a crashed server would."""

    def __init__(self, name: str, die_at: int | None = None) -> None:
        self.name, self.die_at = name, die_at
        self.requests = 0
        self.dead = False
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        with self.lock:
            if self.dead:
                return
            self.dead = True
        self.httpd.shutdown()
        self.httpd.server_close()

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        prompt = body["messages"][-1]["content"]
        seed = body.get("seed")
        text = f"{self.name} seed={seed} | {prompt[-60:]} | \\boxed{{3}}"
        choice = {
            "message": {"role": "assistant", "content": text},
            "logprobs": {"content": [{"token": "x", "logprob": -0.5}]},
            "finish_reason": "stop",
        }
        return {"choices": [choice] * int(body.get("n", 1))}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def reply(self, obj: dict[str, Any]) -> None:
                data = json.dumps(obj).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self.reply({"data": [{"id": "loop"}]})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.requests += 1
                    dying = server.die_at is not None and server.requests >= server.die_at
                if dying:
                    server.stop()
                    self.close_connection = True
                    return
                self.reply(server.answer(body))

        return Handler


@pytest.fixture(scope="module", autouse=True)
def local_cluster() -> Iterator[None]:
    started = connect(num_cpus=2)
    yield
    if started:
        ray.shutdown()


@pytest.fixture
def servers() -> Iterator[tuple[LoopServer, LoopServer]]:
    a, b = LoopServer("A", die_at=3), LoopServer("B")
    yield a, b
    a.stop()
    b.stop()


def test_prompts_spread_over_servers_in_order_when_one_dies(
    servers: tuple[LoopServer, LoopServer],
) -> None:
    a, b = servers
    prompts = [f"problem {i}: what is {i} + {i}?" for i in range(16)]
    ids = [f"t{i}" for i in range(16)]
    retry = RetryPolicy(max_attempts=4, backoff_s=0.0, rest_s=60.0)
    with RayServerPolicy([a.url, b.url], chunk_prompts=2, in_flight=1, retry=retry) as policy:
        out = policy.sample(prompts, 3, SamplingConfig(seed=100), task_ids=ids)
        stats = policy.stats.as_dict()
    assert len(out) == len(prompts)
    for i, group in enumerate(out):
        assert [s.index for s in group] == [0, 1, 2]
        assert all(s.task_id == ids[i] for s in group)
        assert all(f"seed={100 + i} | {prompts[i]} |" in s.text for s in group)
    served = [s.text.split()[0] for group in out for s in group]
    assert set(served) == {"A", "B"} and served.count("B") > served.count("A")
    assert a.dead and a.requests >= 3
    assert stats["retries"] >= 1 and stats["gave_up"] == stats["duplicates"] == 0


def test_every_server_dead_raises_a_policy_error_naming_them(
    servers: tuple[LoopServer, LoopServer],
) -> None:
    a, b = servers
    a.stop()
    b.stop()
    retry = RetryPolicy(max_attempts=2, backoff_s=0.0, rest_s=0.0)
    with (
        RayServerPolicy([a.url, b.url], retry=retry) as policy,
        pytest.raises(PolicyError) as err,
    ):
        policy.sample(["2 + 2?"], 2, SamplingConfig())
    message = str(err.value)
    assert "after 2 attempts" in message and a.url in message and b.url in message


def test_rollout_cli_on_ray_writes_each_group_once_and_resumes(tmp_path: Path) -> None:
    a, b = LoopServer("A", die_at=6), LoopServer("B")  # A answers the first batch, then dies
    try:
        check_rollout_cli(a, b, tmp_path)
    finally:
        a.stop()
        b.stop()


def check_rollout_cli(a: LoopServer, b: LoopServer, tmp_path: Path) -> None:
    env = load_env("math")
    tasks = env.tasks_in("train")[:12]  # rollout's default split
    out = tmp_path / "groups.jsonl"
    args = ["rollout", "--env", "math", "--model", f"{a.url},{b.url}", "--ray", "--out", str(out),
            "-G", "2", "--n-tasks", "12", "--batch-tasks", "4", "--seed", "5"]  # fmt: skip
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    summary = json.loads(first.stdout.strip().splitlines()[-1])
    assert (summary["groups"], summary["skipped"], summary["masked"]) == (12, 0, 0)
    stored = {g.task_id: g for g in GroupStore(out)}
    assert sorted(stored) == sorted(t.id for t in tasks)
    groups = [stored[t.id] for t in tasks]
    for g, task in zip(groups, tasks, strict=True):
        assert [s.index for s in g.samples] == [0, 1]
        tail = env.format_prompt(task)[-60:]
        assert all(f"| {tail} |" in s.text for s in g.samples)
        assert all(v.status == "scored" for v in g.verdicts)
    assert a.dead and {s.text.split()[0] for g in groups for s in g.samples} == {"A", "B"}

    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    resumed = json.loads(again.stdout.strip().splitlines()[-1])
    assert (resumed["groups"], resumed["skipped"]) == (0, 12)
    assert len(out.read_text().splitlines()) == 12
