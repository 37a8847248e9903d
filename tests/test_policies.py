"""Policies: the HF policy on the tiny model, an OpenAI-compatible server on loopback, replay."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import torch

from rlvr.episodes.tools import read_calls
from rlvr.errors import PolicyError
from rlvr.models import make_policy, resolve_model
from rlvr.policies.base import SamplingConfig
from rlvr.policies.hf import HFPolicy, encode_prompt
from rlvr.policies.openai import OpenAIPolicy
from rlvr.policies.replay import ReplayPolicy
from rlvr.tiny import build_tiny

PROMPTS = [
    [{"role": "user", "content": "What is 2 + 3?"}],
    [{"role": "system", "content": "ignored"}, {"role": "user", "content": "What is 7 - 1?"}],
]


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def tiny_policy() -> HFPolicy:
    model, tokenizer = build_tiny(seed=0)
    return HFPolicy(model, tokenizer, name="tiny", threads=1)


def test_hf_returns_g_samples_per_prompt_with_aligned_logprobs(tiny_policy: HFPolicy) -> None:
    groups = tiny_policy.sample(
        PROMPTS, 3, SamplingConfig(max_new_tokens=12, seed=0), task_ids=["a", "b"]
    )
    assert [len(g) for g in groups] == [3, 3]
    for task_id, group in zip(["a", "b"], groups, strict=True):
        assert [s.index for s in group] == [0, 1, 2]
        for s in group:
            assert s.task_id == task_id
            assert s.token_ids and len(s.token_ids) == len(s.logprobs or []) <= 12
            assert all(lp <= 0 for lp in s.logprobs or [])
            assert s.finish_reason in ("stop", "length")
            if s.finish_reason == "length":
                assert len(s.token_ids) == 12


def test_hf_logprobs_are_temperature_scaled_log_softmax_of_a_fresh_forward_pass(
    tiny_policy: HFPolicy,
) -> None:
    temperature = 0.7
    sampling = SamplingConfig(temperature=temperature, max_new_tokens=10, seed=3)
    groups = tiny_policy.sample(PROMPTS, 2, sampling)
    for prompt, group in zip(PROMPTS, groups, strict=True):
        prompt_ids = encode_prompt(tiny_policy.tokenizer, prompt)
        for s in group:
            assert s.prompt_token_ids == prompt_ids
            ids = torch.tensor([prompt_ids + (s.token_ids or [])])
            with torch.no_grad():
                logits = tiny_policy.model(input_ids=ids).logits[0, len(prompt_ids) - 1 : -1]
            expected = (logits / temperature).log_softmax(-1)
            expected = expected.gather(-1, torch.tensor(s.token_ids)[:, None]).squeeze(-1)
            assert torch.allclose(torch.tensor(s.logprobs), expected, atol=1e-4)


def test_hf_seeded_sampling_repeats_and_greedy_is_deterministic(tiny_policy: HFPolicy) -> None:
    seeded = SamplingConfig(max_new_tokens=8, seed=11)
    assert tiny_policy.sample(PROMPTS, 2, seeded) == tiny_policy.sample(PROMPTS, 2, seeded)
    greedy = SamplingConfig(temperature=0.0, max_new_tokens=8)
    (group,) = tiny_policy.sample(PROMPTS[:1], 3, greedy)
    assert len({s.text for s in group}) == 1


def test_hf_stop_strings_end_the_sample_at_the_first_stop(tiny_policy: HFPolicy) -> None:
    stops = list("aeiou")
    sampling = SamplingConfig(max_new_tokens=40, seed=5, stop=stops)
    samples = [s for g in tiny_policy.sample(PROMPTS, 8, sampling) for s in g]
    stopped = [s for s in samples if s.finish_reason == "stop" and s.text and s.text[-1] in stops]
    assert stopped, "an untrained model over ~100 characters should hit a vowel within 40 tokens"
    for s in samples:
        assert not any(c in stops for c in s.text[:-1]), s.text


def test_make_policy_specs_and_path_errors(tmp_path) -> None:
    (tmp_path / "replay.jsonl").write_text('{"task_id": "t", "completion": "x"}\n')
    assert isinstance(make_policy(f"replay:{tmp_path / 'replay.jsonl'}"), ReplayPolicy)
    assert isinstance(make_policy("http://127.0.0.1:9/v1"), OpenAIPolicy)
    with pytest.raises(PolicyError, match="looks like a path"):
        resolve_model(str(tmp_path / "missing"))
    with pytest.raises(PolicyError, match="no config.json"):
        resolve_model(str(tmp_path))
    assert resolve_model("Qwen/Qwen2.5-0.5B-Instruct") == "Qwen/Qwen2.5-0.5B-Instruct"


def test_make_policy_loads_a_saved_folder(tmp_path, tiny_policy: HFPolicy) -> None:
    tiny_policy.model.save_pretrained(tmp_path)
    tiny_policy.tokenizer.save_pretrained(tmp_path)
    policy = make_policy(str(tmp_path), device="cpu", threads=1)
    assert isinstance(policy, HFPolicy)
    sampling = SamplingConfig(temperature=0.0, max_new_tokens=6)
    assert policy.sample(PROMPTS, 1, sampling) == tiny_policy.sample(PROMPTS, 1, sampling)


# An OpenAI-compatible server on loopback, backed by the tiny model.


class _Server:
    def __init__(self, respond: Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]) -> None:
        self.requests: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, code: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                server.requests.append({"path": self.path})
                self._send(200, {"object": "list", "data": [{"id": "tiny", "object": "model"}]})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, **body})
                self._send(*respond(body))

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def tiny_backend(
    policy: HFPolicy, max_choices: int | None = None
) -> Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]:
    """Answer chat completions by sampling the tiny model, as a vLLM server would."""

    def respond(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        n = min(body.get("n", 1), max_choices or body.get("n", 1))
        sampling = SamplingConfig(
            temperature=body["temperature"],
            max_new_tokens=body.get("max_tokens", 16),
            seed=body.get("seed"),
        )
        (group,) = policy.sample([body["messages"]], n, sampling)
        as_ids = body.get("return_tokens_as_token_ids", False)
        choices = []
        for i, s in enumerate(group):
            toks = policy.tokenizer.convert_ids_to_tokens(s.token_ids)
            content = [
                {"token": f"token_id:{t}" if as_ids else tok, "logprob": lp}
                for t, tok, lp in zip(s.token_ids or [], toks, s.logprobs or [], strict=True)
            ]
            choices.append(
                {
                    "index": i,
                    "message": {"role": "assistant", "content": s.text},
                    "finish_reason": s.finish_reason,
                    "logprobs": {"content": content},
                }
            )
        return 200, {"object": "chat.completion", "model": "tiny", "choices": choices}

    return respond


@pytest.fixture
def serve() -> Iterator[Callable[..., _Server]]:
    servers: list[_Server] = []

    def start(respond: Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]) -> _Server:
        servers.append(_Server(respond))
        return servers[-1]

    yield start
    for s in servers:
        s.close()


def test_openai_policy_samples_from_a_live_server(serve, tiny_policy: HFPolicy) -> None:
    server = serve(tiny_backend(tiny_policy))
    policy = OpenAIPolicy(server.url, token_ids=True, max_concurrency=2)
    groups = policy.sample(PROMPTS, 4, SamplingConfig(max_new_tokens=8, seed=1), ["a", "b"])
    assert [len(g) for g in groups] == [4, 4]
    assert policy.model == "tiny"  # discovered from /v1/models
    for s in (s for g in groups for s in g):
        assert s.logprobs and s.token_ids and len(s.token_ids) == len(s.logprobs)
        assert tiny_policy.tokenizer.decode(s.token_ids, skip_special_tokens=True) == s.text
    posts = [r for r in server.requests if r["path"] == "/v1/chat/completions"]
    assert len(posts) == 2 and all(r["n"] == 4 and r["logprobs"] is True for r in posts)


def test_openai_policy_asks_again_when_a_server_returns_fewer_choices(
    serve, tiny_policy: HFPolicy
) -> None:
    server = serve(tiny_backend(tiny_policy, max_choices=1))
    policy = OpenAIPolicy(server.url, model="tiny")
    (group,) = policy.sample(PROMPTS[:1], 3, SamplingConfig(max_new_tokens=4))
    assert [s.index for s in group] == [0, 1, 2]
    assert [r["n"] for r in server.requests] == [3, 2, 1]


def test_openai_policy_retries_503_then_succeeds(serve, tiny_policy: HFPolicy) -> None:
    backend = tiny_backend(tiny_policy)
    calls = {"n": 0}

    def flaky(body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        calls["n"] += 1
        if calls["n"] <= 2:
            return 503, {"error": "model loading"}
        return backend(body)

    server = serve(flaky)
    policy = OpenAIPolicy(server.url, model="tiny", backoff_s=0.01)
    (group,) = policy.sample(PROMPTS[:1], 2, SamplingConfig(max_new_tokens=4))
    assert len(group) == 2 and calls["n"] == 3


def test_openai_policy_names_the_url_when_the_server_stays_down(serve, capsys) -> None:
    server = serve(lambda body: (503, {"error": "down"}))
    policy = OpenAIPolicy(server.url, model="m", max_retries=2, backoff_s=0.01)
    with pytest.raises(PolicyError) as err:
        policy.sample(["hi"], 1, SamplingConfig())
    assert server.url in err.value.message and "3 attempts" in err.value.message
    assert "check its log" in (err.value.fix or "")
    assert len(server.requests) == 3
    assert "HTTP 503" in capsys.readouterr().err.split("attempt 3 of 3")[0]  # each retry said
    gone = OpenAIPolicy("http://127.0.0.1:1/v1", model="m", max_retries=0)
    with pytest.raises(PolicyError) as err:
        gone.sample(["hi"], 1, SamplingConfig())
    assert "vllm serve" in (err.value.fix or "")


def test_openai_policy_does_not_retry_a_client_error(serve) -> None:
    server = serve(lambda body: (400, {"error": "unknown model"}))
    with pytest.raises(PolicyError, match="HTTP 400"):
        OpenAIPolicy(server.url, model="m", backoff_s=0.01).sample(["hi"], 1, SamplingConfig())
    assert len(server.requests) == 1


def test_openai_policy_connection_refused_is_a_policy_error() -> None:
    policy = OpenAIPolicy("http://127.0.0.1:9/v1", model="m", max_retries=1, backoff_s=0.01)
    with pytest.raises(PolicyError, match=r"127\.0\.0\.1:9/v1/chat/completions did not answer"):
        policy.sample(["hi"], 1, SamplingConfig())


def test_replay_groups_lines_by_task(tmp_path) -> None:
    path = tmp_path / "answers.jsonl"
    lines = [
        {"task_id": "t1", "completion": "a"},
        {"task_id": "t2", "completion": "b", "logprobs": [-0.5], "token_ids": [7]},
        {"task_id": "t1", "completion": "c", "finish_reason": "length"},
        {"task_id": "t1", "completion": "d"},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines) + "\n")
    policy = ReplayPolicy(path)
    g1, g2 = policy.sample(["p1", "p2"], 2, SamplingConfig(), task_ids=["t1", "t2"])
    assert [s.text for s in g1] == ["a", "c"] and g1[1].finish_reason == "length"
    assert [(s.text, s.logprobs, s.token_ids) for s in g2] == [("b", [-0.5], [7])]
    with pytest.raises(PolicyError, match="no completion for 1 task"):
        policy.sample(["p"], 1, SamplingConfig(), task_ids=["t3"])
    with pytest.raises(PolicyError, match="needs one task id per prompt"):
        policy.sample(["p"], 1, SamplingConfig())


def test_replay_rejects_a_bad_line_with_its_number(tmp_path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"task_id": "t", "completion": "x"}\n{"task_id": 3}\n')
    with pytest.raises(PolicyError, match=r"bad\.jsonl:2: needs a string 'task_id'"):
        ReplayPolicy(path)


def test_tool_calls_and_results_become_structured_messages_with_paired_ids() -> None:
    from rlvr.policies.tool_messages import structured, tool_response

    call = '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>'
    messages = [
        {"role": "system", "content": "tools"},
        {"role": "user", "content": "task"},
        {"role": "assistant", "content": "Looking.\n" + call + "\n" + call.replace("ls", "pwd")},
        {"role": "user", "content": tool_response("bash", "exit code 0\na.txt")},
        {"role": "user", "content": tool_response("bash", "exit code 0\n/app")},
        {"role": "assistant", "content": "<tool_call>{broken</tool_call>"},
        {"role": "user", "content": tool_response("error", "could not read your tool call")},
    ]
    out = structured(messages)
    assert out[:2] == messages[:2]
    assistant, first, second = out[2:5]
    assert assistant["content"] == "Looking."
    ids = [c["id"] for c in assistant["tool_calls"]]
    assert ids == ["call_0_0", "call_0_1"]
    assert json.loads(assistant["tool_calls"][1]["function"]["arguments"]) == {"command": "pwd"}
    assert (first["role"], first["tool_call_id"], first["content"]) == (
        "tool",
        ids[0],
        "exit code 0\na.txt",
    )
    assert (second["tool_call_id"], second["content"]) == (ids[1], "exit code 0\n/app")
    assert out[5:] == messages[5:]  # a turn whose call does not read stays text, its error too


def _one_choice(choice: Any) -> Callable[[dict[str, Any]], tuple[int, dict[str, Any]]]:
    return lambda req: (200, {"choices": [choice] * req.get("n", 1)})


def test_openai_policy_reads_content_parts_and_runaway_call_arguments(serve) -> None:
    parts = {"message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}}
    deep = "[" * 200_000
    runaway = {"message": {"content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "submit", "arguments": deep}},
        "not a call", {"function": 7},
    ]}}  # fmt: skip
    (got,) = OpenAIPolicy(serve(_one_choice(parts)).url, model="m").sample(
        ["x"], 1, SamplingConfig()
    )
    assert got[0].text == "ab"
    (got,) = OpenAIPolicy(serve(_one_choice(runaway)).url, model="m").sample(
        ["x"], 1, SamplingConfig()
    )
    assert got[0].text.startswith('\n<tool_call>{"name": "submit", "arguments": [[[')
    for empty in ("", "null", None):  # a call without parameters, as some servers send it
        bare = {
            "message": {
                "content": None,
                "tool_calls": [
                    {
                        "id": "c",
                        "type": "function",
                        "function": {"name": "submit", "arguments": empty},
                    }
                ],
            }
        }
        (got,) = OpenAIPolicy(serve(_one_choice(bare)).url, model="m").sample(
            ["x"], 1, SamplingConfig()
        )
        assert read_calls(got[0].text, ["submit"]).calls[0].name == "submit"


@pytest.mark.parametrize(
    ("choice", "needle"),
    [
        (None, "not a chat completion choice"),
        ({"message": "hi"}, "not a chat completion choice"),
        ({"message": {"content": 12345, "tool_calls": "submit"}}, "content of type int"),
    ],
)
def test_openai_policy_names_a_reply_it_cannot_read(serve, choice: Any, needle: str) -> None:
    policy = OpenAIPolicy(serve(_one_choice(choice)).url, model="m")
    with pytest.raises(PolicyError, match=needle):
        policy.sample(["x"], 1, SamplingConfig())


def test_openai_policy_cuts_a_reply_of_megabytes_as_a_turn_at_its_limit(serve, capsys) -> None:
    """A 14 MB call argument once took a rollout to 5.5 GB: the reply is cut, counted and
    warned about, and the episode loop then answers that the call cannot be read."""
    huge = json.dumps({"code": "x = 1\n" * 2_500_000})
    choice = {"message": {"content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "submit", "arguments": huge}},
    ]}, "finish_reason": "tool_calls"}  # fmt: skip
    policy = OpenAIPolicy(serve(_one_choice(choice)).url, model="m", max_turn_chars=50_000)
    (got,) = policy.sample(["x"], 2, SamplingConfig())
    assert [len(s.text) for s in got] == [50_000, 50_000]
    assert {s.finish_reason for s in got} == {"length"} and policy.oversized == 2
    assert "cut at 50,000" in capsys.readouterr().err
    assert read_calls(got[0].text, ["submit"]).calls == []
