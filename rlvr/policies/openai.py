"""Any OpenAI-compatible chat server as a policy: vLLM, SGLang, llama.cpp, a hosted API.

Requests are async (httpx) with a concurrency limit, one request per prompt asking for `n=G`
choices (servers that return fewer choices are asked again for the rest). Connection errors,
timeouts, 429 and 5xx answers are retried with exponential back-off; a server that stays down
raises a PolicyError naming the URL and how to start it.

Log-probabilities are whatever the server reports for the sampled tokens (`logprobs=true`).
vLLM reports the model's raw log-probabilities (before temperature and top-p) unless started
with `--logprobs-mode processed_logprobs`; compare with `rlvr.policies.hf`, which records the
processed ones. Token ids are only known when the server can return them: pass
`token_ids=True` for vLLM (`return_tokens_as_token_ids`).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

import httpx

from rlvr.errors import PolicyError
from rlvr.fences import first_fence_end
from rlvr.policies.base import Prompt, SamplingConfig, TokenPrompt, check_g, label_ids
from rlvr.policies.tool_messages import structured
from rlvr.types import Sample

RETRY_STATUS = {408, 409, 429}
CONTEXT_FULL = re.compile(
    r"maximum context length|context_length_exceeded|context length|prompt is too long", re.I
)
"""How vLLM, SGLang, llama.cpp and OpenAI word a 400 for a prompt longer than the context."""
TIMEOUT_VAR = "RLVR_POLICY_TIMEOUT_S"
"""Seconds to wait for one reply (default 300), for servers slower than that."""


def _messages(prompt: Prompt) -> list[dict[str, str]]:
    if isinstance(prompt, TokenPrompt):
        return list(prompt.messages)
    return [{"role": "user", "content": prompt}] if isinstance(prompt, str) else list(prompt)


def _token_id(token: str) -> int | None:
    """vLLM writes tokens as 'token_id:123' when asked to return ids."""
    if token.startswith("token_id:"):
        try:
            return int(token.removeprefix("token_id:"))
        except ValueError:
            return None
    return None


class OpenAIPolicy:
    """Samples from an OpenAI-compatible `/v1/chat/completions` endpoint."""

    def __init__(
        self,
        base_url: str,
        model: str | None = None,
        api_key: str | None = None,
        max_concurrency: int = 16,
        max_retries: int = 5,
        backoff_s: float = 0.5,
        timeout_s: float | None = None,
        token_ids: bool = False,
        max_turn_chars: int = 1_000_000,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.name = base_url
        self.model = model
        self.api_key = api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY"
        self.max_concurrency = max_concurrency
        self.max_retries = max_retries
        self.backoff_s = backoff_s
        self.timeout_s = timeout_s or float(os.environ.get(TIMEOUT_VAR) or 300)
        self.token_ids = token_ids
        self.calls_tools = False
        """The server answered with structured `tool_calls` once: tool results then go back to
        it as `role: "tool"` messages (a text-only server keeps reading them as text)."""
        self.unreadable = 0
        """Choices with neither content nor tool calls (warned about once)."""
        self.max_turn_chars = max_turn_chars
        self.oversized = 0
        """Choices longer than max_turn_chars, cut there as a turn at its token limit (warned
        about once): a reply of megabytes would be kept, parsed and sent back every turn."""

    def sample(
        self,
        prompts: Sequence[Prompt],
        g: int,
        sampling: SamplingConfig,
        task_ids: Sequence[str] | None = None,
    ) -> list[list[Sample]]:
        """Blocking wrapper around `asample` (call `asample` from inside an event loop)."""
        return asyncio.run(self.asample(prompts, g, sampling, task_ids))

    async def asample(
        self,
        prompts: Sequence[Prompt],
        g: int,
        sampling: SamplingConfig,
        task_ids: Sequence[str] | None = None,
    ) -> list[list[Sample]]:
        """G samples per prompt; at most `max_concurrency` requests in flight."""
        check_g(g)
        ids = label_ids(prompts, task_ids)
        sem = asyncio.Semaphore(self.max_concurrency)
        headers = {"Authorization": f"Bearer {self.api_key}"}
        async with httpx.AsyncClient(timeout=self.timeout_s, headers=headers) as client:
            if self.model is None:
                self.model = await self._first_model(client, sem)
            jobs = [
                self._group(client, sem, p, tid, i, g, sampling)
                for i, (p, tid) in enumerate(zip(prompts, ids, strict=True))
            ]
            return list(await asyncio.gather(*jobs))

    async def _first_model(self, client: httpx.AsyncClient, sem: asyncio.Semaphore) -> str:
        data = await self._request(client, sem, "GET", "/models", None)
        models = data.get("data") or []
        if not models or "id" not in models[0]:
            raise PolicyError(
                f"policy server {self.base_url}/models lists no model",
                "pass the model name explicitly (--served-model NAME / model=...)",
            )
        return str(models[0]["id"])

    def _body(self, prompt: Prompt, index: int, n: int, sampling: SamplingConfig) -> dict[str, Any]:
        msgs = _messages(prompt)
        body: dict[str, Any] = {
            "model": self.model,
            "messages": structured(msgs) if sampling.tools and self.calls_tools else msgs,
            "n": n,
            "temperature": sampling.temperature,
            "top_p": sampling.top_p,
            "logprobs": True,
        }
        if sampling.max_new_tokens is not None:
            body["max_tokens"] = sampling.max_new_tokens
        if sampling.seed is not None:
            body["seed"] = sampling.seed + index
        if sampling.stop:
            body["stop"] = sampling.stop
        if self.token_ids:
            body["return_tokens_as_token_ids"] = True
        if sampling.tools:
            body["tools"] = [{"type": "function", "function": t} for t in sampling.tools]
        return body

    async def _group(
        self,
        client: httpx.AsyncClient,
        sem: asyncio.Semaphore,
        prompt: Prompt,
        task_id: str,
        index: int,
        g: int,
        sampling: SamplingConfig,
    ) -> list[Sample]:
        choices: list[dict[str, Any]] = []
        while len(choices) < g:
            body = self._body(prompt, index + len(choices), g - len(choices), sampling)
            try:
                data = await self._request(client, sem, "POST", "/chat/completions", body)
            except ContextFull:
                if not sampling.tools:  # a single prompt too long is the run's to fix
                    raise
                # an episode that outgrew the context ends there, as with a local model
                return [Sample(task_id=task_id, index=index + j, text="", finish_reason="error")
                        for j in range(g)]  # fmt: skip
            got = data.get("choices") or []
            if not got:
                raise PolicyError(
                    f"policy server {self.base_url}: a chat completion came back with no choices",
                    "check the server log; the model may have failed to load",
                )
            choices.extend(got)
        samples = [self._to_sample(c, task_id, j) for j, c in enumerate(choices[:g])]
        if sampling.stop_at_closed_fence:  # a server cannot stop there: cut what it sent
            samples = [cut_at_first_fence(s, choices[j]) for j, s in enumerate(samples)]
        return samples

    def _to_sample(self, choice: Any, task_id: str, index: int) -> Sample:
        if not isinstance(choice, dict) or not isinstance(choice.get("message") or {}, dict):
            raise PolicyError(
                f"policy server {self.base_url} sent a choice that is not a chat completion "
                f"choice with a message object: {json.dumps(choice)[:200]}",
                "check that the server speaks OpenAI's chat completions format",
            )
        message = choice.get("message") or {}
        if message.get("tool_calls"):
            self.calls_tools = True
        text = content_text(message.get("content"), self.base_url)
        text += structured_calls(message.get("tool_calls"))
        if not text.strip():
            self.unreadable += 1
            if self.unreadable == 1:
                print(f"warning: policy server {self.base_url} sent a choice with neither "
                      f"content nor tool calls (finish_reason {choice.get('finish_reason')!r}); "
                      "it counts as an empty turn", file=sys.stderr, flush=True)  # fmt: skip
        content = (choice.get("logprobs") or {}).get("content") or None
        reason = choice.get("finish_reason")
        if len(text) > self.max_turn_chars:
            self.oversized += 1
            if self.oversized == 1:
                print(f"warning: policy server {self.base_url} sent a choice of {len(text):,} "
                      f"characters; it is cut at {self.max_turn_chars:,} as a turn at its "
                      "token limit (OpenAIPolicy(max_turn_chars=...))", file=sys.stderr,
                      flush=True)  # fmt: skip
            text, content, reason = text[: self.max_turn_chars], None, "length"
        logprobs = [float(t["logprob"]) for t in content] if content else None
        token_ids: list[int] | None = None
        if content:
            parsed = [_token_id(str(t.get("token", ""))) for t in content]
            if all(x is not None for x in parsed):
                token_ids = parsed  # type: ignore[assignment]
        return Sample(
            task_id=task_id,
            index=index,
            text=text,
            token_ids=token_ids,
            logprobs=logprobs,
            finish_reason="length" if reason == "length" else "stop",
        )

    async def _request(
        self,
        client: httpx.AsyncClient,
        sem: asyncio.Semaphore,
        method: str,
        path: str,
        body: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """One call with retries on connection errors, timeouts, 429 and 5xx."""
        url = self.base_url + path
        last = ""
        for attempt in range(self.max_retries + 1):
            if attempt:
                delay = self.backoff_s * 2 ** (attempt - 1)
                print(f"policy server {url}: {last}; attempt {attempt + 1} of "
                      f"{self.max_retries + 1} in {delay:g} s", file=sys.stderr,
                      flush=True)  # fmt: skip
                await asyncio.sleep(delay)
            try:
                async with sem:
                    resp = await client.request(method, url, json=body)
            except httpx.TimeoutException as e:
                last = f"no answer within {self.timeout_s:g} s ({type(e).__name__})"
                continue
            except httpx.TransportError as e:
                last = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
                continue
            if resp.status_code >= 500 or resp.status_code in RETRY_STATUS:
                last = f"HTTP {resp.status_code}: {resp.text[:200]}"
                continue
            if resp.status_code == 400 and CONTEXT_FULL.search(resp.text):
                raise ContextFull(
                    f"policy server {url}: the prompt fills the model's context: {resp.text[:300]}",
                    "shorten the prompt, or serve the model with a longer context "
                    "(vLLM: --max-model-len)",
                )
            if resp.status_code >= 400:
                raise PolicyError(
                    f"policy server {url} refused the request: HTTP {resp.status_code}: "
                    f"{resp.text[:300]}",
                    "check the model name and that the server supports chat completions "
                    "with logprobs",
                )
            try:
                return resp.json()
            except ValueError:
                raise PolicyError(
                    f"policy server {url} answered HTTP {resp.status_code} with a body that is "
                    f"not JSON: {resp.text[:200]!r}",
                    "point the URL at an OpenAI-compatible API; it usually ends in /v1",
                ) from None
        answering = last.startswith("HTTP")
        raise PolicyError(
            f"policy server {url} did not answer after {self.max_retries + 1} attempts "
            f"(last: {last})",
            "the server answers but fails: check its log (a server still loading its model "
            "answers 503: wait for it)"
            if answering
            else "start the server (e.g. `vllm serve MODEL --port 8000`) and give its base URL "
            f"ending in /v1, e.g. http://127.0.0.1:8000/v1; for a slow one set {TIMEOUT_VAR}",
        )


class ContextFull(PolicyError):
    """The server refused a prompt longer than the model's context (HTTP 400)."""


def content_text(content: Any, server: str) -> str:
    """A message's content as text: a string, or a list of text parts (OpenAI's content-part
    form, which some compatible servers send)."""
    if content is None or isinstance(content, str):
        return content or ""
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        return "".join(t for t in parts if isinstance(t, str))
    raise PolicyError(
        f"policy server {server} sent message content of type {type(content).__name__}, not "
        "text or a list of text parts",
        "check that the server speaks OpenAI's chat completions format",
    )


def structured_calls(calls: Any) -> str:
    """A server's structured `tool_calls` (OpenAI's format, as vLLM with automatic tool choice
    returns them) as `<tool_call>` lines the episode loop reads; arguments that are not JSON
    stay as written, so the loop answers with the parse problem instead of dropping the call."""
    lines = []
    for call in calls if isinstance(calls, list) else []:
        fn = call.get("function") if isinstance(call, dict) else None
        fn = fn if isinstance(fn, dict) else {}
        raw = fn.get("arguments")
        if raw is None or (isinstance(raw, str) and raw.strip() in ("", "null")):
            raw = {}  # some servers send a call without parameters (submit) so
        try:
            args = json.loads(raw) if isinstance(raw, str) else (raw or {})
        except (ValueError, RecursionError):  # runaway nesting is as unreadable as bad JSON
            lines.append(f'<tool_call>{{"name": {json.dumps(fn.get("name"))}, "arguments": {raw}}}'
                         "</tool_call>")  # fmt: skip
            continue
        lines.append("<tool_call>" + json.dumps({"name": fn.get("name"), "arguments": args})
                     + "</tool_call>")  # fmt: skip
    return ("\n" if lines else "") + "\n".join(lines)


def cut_at_first_fence(sample: Sample, choice: dict[str, Any]) -> Sample:
    """The sample ended after its first closed fence, as a local model stops there.

    Token ids and log-probs are cut with it when the server's tokens spell the text; otherwise
    they are dropped (a learner then recomputes them from the text)."""
    end = first_fence_end(sample.text)
    if end is None or end >= len(sample.text.rstrip()):
        return sample
    cut = sample.text[:end]
    content = (choice.get("logprobs") or {}).get("content") or []
    pieces = [str(t.get("token", "")) for t in content]
    keep, spelled = None, ""
    if "".join(pieces).startswith(sample.text):
        for n, piece in enumerate(pieces, 1):
            spelled += piece
            if len(spelled) >= len(cut):
                keep = n
                break
    return sample.model_copy(
        update={
            "text": cut,
            "finish_reason": "stop",
            "logprobs": sample.logprobs[:keep] if keep and sample.logprobs else None,
            "token_ids": sample.token_ids[:keep] if keep and sample.token_ids else None,
        }
    )
