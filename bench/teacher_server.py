"""A served teacher on loopback: an OpenAI-compatible chat server that plays each task's
reference episode (rlvr.episodes.reference_teacher) and answers with structured `tool_calls`,
as OpenAI or vLLM with automatic tool choice do (the message's `content` holds only the text
outside the calls).

    python bench/teacher_server.py --env repair-python --port 8011   # serve until Ctrl-C

bench/agent_pipeline.py starts one in-process to collect served-teacher episodes with `rlvr
rollout --model http://127.0.0.1:PORT/v1`: rlvr's OpenAI policy must send the tools, read the
structured calls back, and return each tool result as a `tool` message with its call id.
The server counts the requests that carried `tools` and the tool messages it was sent.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rlvr.episodes.reference_teacher import reference_turns  # noqa: E402
from rlvr.registry import load_env  # noqa: E402

CALL = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
MODEL_ID = "reference-teacher"


def structured(turn: str, turn_index: int) -> dict[str, Any]:
    """A turn's text as an assistant message: `content` without the calls, `tool_calls`."""
    calls = []
    for k, raw in enumerate(CALL.findall(turn)):
        obj = json.loads(raw)
        calls.append({"id": f"call_{turn_index}_{k}", "type": "function",
                      "function": {"name": obj["name"],
                                   "arguments": json.dumps(obj.get("arguments", {}))}})  # fmt: skip
    content = CALL.sub("", turn).strip()
    message: dict[str, Any] = {"role": "assistant", "content": content or None}
    if calls:
        message["tool_calls"] = calls
    return message


class TeacherServer:
    """Serves the reference episodes of `env_names`' tasks, looked up by their user prompt."""

    def __init__(self, env_names: list[str], port: int = 0) -> None:
        self.turns: dict[str, list[str]] = {}
        for name in env_names:
            env = load_env(name)
            for task in env.tasks():
                turns = reference_turns(env, task)
                if turns is not None:
                    self.turns[self._key(env.messages(task))] = turns
        self.stats = {"requests": 0, "with_tools": 0, "tool_messages": 0, "unknown_prompt": 0}
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
                self._send(200, {"object": "list", "data": [{"id": MODEL_ID, "object": "model"}]})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                self._send(*server.respond(body))

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @staticmethod
    def _key(messages: list[dict[str, Any]]) -> str:
        """The task's identity in a conversation: its first user message."""
        return next(str(m.get("content")) for m in messages if m.get("role") == "user")

    def respond(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        messages = body.get("messages") or []
        self.stats["requests"] += 1
        self.stats["with_tools"] += bool(body.get("tools"))
        self.stats["tool_messages"] += sum(m.get("role") == "tool" for m in messages)
        turns = self.turns.get(self._key(messages))
        if turns is None:
            self.stats["unknown_prompt"] += 1
            return 400, {"error": {"message": "no reference episode for this prompt"}}
        k = sum(m.get("role") == "assistant" for m in messages)
        message = structured(turns[k], k) if k < len(turns) else {"role": "assistant",
                                                                  "content": "Done."}  # fmt: skip
        choices = [{"index": i, "message": message,
                    "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}
                   for i in range(int(body.get("n", 1)))]  # fmt: skip
        return 200, {"id": "chatcmpl-teacher", "object": "chat.completion", "model": MODEL_ID,
                     "choices": choices}  # fmt: skip

    def __enter__(self) -> TeacherServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--env", action="append", required=True, help="Environment (repeatable).")
    ap.add_argument("--port", type=int, default=8011)
    args = ap.parse_args()
    with TeacherServer(args.env, args.port) as server:
        print(f"serving {len(server.turns)} reference episodes at {server.url}", flush=True)
        server.thread.join()


if __name__ == "__main__":
    main()
