"""Tool calls and results in a conversation, as text and as OpenAI's structured messages.

rlvr's episode loop keeps one form: a model turn's calls are `<tool_call>{json}</tool_call>`
lines in the assistant's text, and each result is a user message `<tool_response name=...>`.
That is what a local model's chat template renders and what a text-only server reads. A server
that calls tools itself (OpenAI, vLLM with automatic tool choice) expects the other form: the
assistant message's `tool_calls` with ids, and each result as a `role: "tool"` message naming
its call's id. `structured(messages)` turns the first form into the second.
"""

from __future__ import annotations

import json
import re
from typing import Any

CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
RESPONSE = re.compile(r'\A<tool_response name="([^"]*)">\n(.*)\n</tool_response>\Z', re.DOTALL)


def tool_response(name: str, content: str) -> str:
    """The text of a user message that carries one tool result."""
    return f'<tool_response name="{name}">\n{content}\n</tool_response>'


def _calls(text: str) -> list[dict[str, Any]] | None:
    """The assistant text's calls as (name, arguments) dicts; None when one is not JSON."""
    calls = []
    for raw in CALL.findall(text):
        try:
            call = json.loads(raw)
        except ValueError:
            return None
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            return None
        calls.append(call)
    return calls


def structured(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`messages` with each assistant turn's `<tool_call>` lines as `tool_calls` (ids
    `call_<turn>_<k>`) and the results that answer them as `role: "tool"` messages. A turn
    whose calls do not read, or whose results do not pair one to one with its calls (the loop
    answered a malformed turn with one error), stays as it was."""
    out: list[dict[str, Any]] = []
    i = 0
    turn = 0
    while i < len(messages):
        m = messages[i]
        i += 1
        calls = _calls(str(m.get("content") or "")) if m.get("role") == "assistant" else None
        if not calls:
            out.append(m)
            continue
        results = []
        while i + len(results) < len(messages):
            nxt = messages[i + len(results)]
            found = RESPONSE.match(str(nxt.get("content") or ""))
            if nxt.get("role") != "user" or found is None:
                break
            results.append(found)
        names = [c["name"] for c in calls]
        if results and [r.group(1) for r in results] != names:
            out.append(m)
            continue
        ids = [f"call_{turn}_{k}" for k in range(len(calls))]
        text = CALL.sub("", str(m.get("content") or "")).strip()
        out.append({
            "role": "assistant",
            "content": text or None,
            "tool_calls": [
                {"id": cid, "type": "function",
                 "function": {"name": c["name"], "arguments": json.dumps(c.get("arguments", {}))}}
                for cid, c in zip(ids, calls, strict=True)
            ],
        })  # fmt: skip
        out += [{"role": "tool", "tool_call_id": cid, "content": r.group(2)}
                for cid, r in zip(ids, results, strict=False)]  # fmt: skip
        i += len(results)
        turn += 1
    return out
