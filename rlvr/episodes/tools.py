"""The tools an episode offers, their JSON Schemas, and how a model turn becomes tool calls.

Calls are read by the tool-call grader's own parser (Hermes `<tool_call>` blocks, fenced JSON,
an explicit `{"name", "arguments"}` object in prose) and checked against the tool's schema with
the same strict validator. Code blocks of other languages are set aside first, so a `{` in a
program is never read as a call. A malformed call is not an error of the run: it becomes an
observation that names the problem and costs the turn.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from rlvr.fences import iter_fences
from rlvr.graders.toolcall.parse import parse_calls
from rlvr.graders.toolcall.schema import functions
from rlvr.shorten import shorten
from rlvr.store import mended
from rlvr.types import ToolCall

_CODE = {
    "type": "string",
    "description": "The whole program; omit it to use the last code block you wrote.",
}

TOOLS: dict[str, dict[str, Any]] = {
    "run_public_tests": {
        "name": "run_public_tests",
        "description": "Run your code on the task's public examples and see which fail.",
        "parameters": {
            "type": "object",
            "properties": {"code": _CODE},
            "additionalProperties": False,
        },
    },
    "submit": {
        "name": "submit",
        "description": "Finish: your final answer is judged on hidden tests.",
        "parameters": {
            "type": "object",
            "properties": {"code": _CODE},
            "additionalProperties": False,
        },
    },
    "submit_answer": {
        "name": "submit_answer",
        "description": "Submit your final answer. A wrong one is turned down with feedback, and "
        "you may try again while turns remain.",
        "parameters": {
            "type": "object",
            "properties": {
                "answer": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 200,
                    "description": "The answer; omit it to submit the last \\boxed{} you wrote.",
                }
            },
            "additionalProperties": False,
        },
    },
    "bash": {
        "name": "bash",
        "description": "Run a shell command in the workspace; returns its exit code and output.",
        "parameters": {
            "type": "object",
            "properties": {
                "command": {"type": "string", "minLength": 1},
                "timeout_s": {"type": "number", "exclusiveMinimum": 0, "maximum": 120},
            },
            "required": ["command"],
            "additionalProperties": False,
        },
    },
    "read_file": {
        "name": "read_file",
        "description": "Read a text file of the workspace.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
            "additionalProperties": False,
        },
    },
    "write_file": {
        "name": "write_file",
        "description": "Write (create or replace) a text file of the workspace.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"],
            "additionalProperties": False,
        },
    },
}
"""The shipped tools, by name. An environment offers a subset (its manifest's `tools`)."""

FORMAT_NOTE = (
    "To call a tool, write one line per call:\n"
    '<tool_call>{{"name": "TOOL", "arguments": {{...}}}}</tool_call>\n'
    "You get each call's result in the next message. A turn without a tool call ends your work."
)


def tool_schemas(
    names: list[str], descriptions: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """The JSON Schemas of the named tools, with an environment's own `descriptions` where it
    gives one (a terminal's `submit` says what is judged); a clear error for an unknown name."""
    unknown = [n for n in [*names, *(descriptions or {})] if n not in TOOLS]
    if unknown:
        raise ValueError(f"unknown tool(s) {unknown}; the shipped tools are {sorted(TOOLS)}")
    own = descriptions or {}
    return [{**TOOLS[n], "description": own[n]} if n in own else TOOLS[n] for n in names]


def tools_prompt(names: list[str], descriptions: dict[str, str] | None = None) -> str:
    """The system-prompt paragraph that tells the model its tools and the call format."""
    listing = json.dumps(tool_schemas(names, descriptions), indent=1)
    return f"You can use these tools:\n{listing}\n\n" + FORMAT_NOTE.format()


_CALL_FENCES = ("", "json", "json5", "tool_call", "tool_calls")
MAX_CALLS_PER_TURN = 16
"""A turn with more calls runs none of them: thousands of calls would hold the episode (and
the whole rollout) for hours of tool time."""
MAX_CALL_CHARS = 256_000
"""A turn whose call text is longer runs none of it: a program or file written through a call
is far smaller, and megabytes of arguments would be parsed, stored and sent back each turn."""


@dataclass
class TurnCalls:
    """The calls of one model turn, or the problem that made them unreadable."""

    calls: list[ToolCall]
    problem: str | None = None


_OPEN = re.compile(r"^[ \t]*(?:`{3,}|~{3,})[ \t]*([\w+#.-]*)", re.M)


def without_code(text: str) -> str:
    """`text` with fenced code blocks of programming languages removed (JSON fences stay),
    and a code fence that never closes cut with everything after it (code a model was still
    writing when its turn ended is code, not a broken tool call)."""
    parts, pos = [], 0
    for fence in iter_fences(text):
        if fence.tag not in _CALL_FENCES:
            parts.append(text[pos : fence.start])
            pos = fence.end
    rest = text[pos:]
    for opener in _OPEN.finditer(rest):
        if opener.group(1).lower() not in _CALL_FENCES:
            rest = rest[: opener.start()]
            break
    return "".join(parts) + rest


ECHO_CHARS = 300
"""How much of the model's own text a problem message echoes: a 100,000-character name or key
would otherwise come back whole and fill the next turn's context."""


def _cut(text: str) -> str:
    return shorten(text, ECHO_CHARS)


def read_calls(text: str, offered: list[str]) -> TurnCalls:
    """The tool calls in a model turn, each checked against its tool's schema.

    All-or-nothing, as the tool-call grader: one broken or invalid call makes the turn's calls
    unusable (`problem` says which and why), so a half-valid turn never acts on its good half.
    """
    text = without_code(text)
    if len(text) > MAX_CALL_CHARS:
        return TurnCalls([], f"your turn's tool calls are {len(text):,} characters; at most "
                             f"{MAX_CALL_CHARS:,} are read: write less per call")  # fmt: skip
    parsed = parse_calls(text)
    if parsed.calls is None:
        return TurnCalls([], f"could not read your tool call: {_cut(parsed.problem)}")
    if len(parsed.calls) > MAX_CALLS_PER_TURN:
        return TurnCalls([], f"{len(parsed.calls)} tool calls in one turn; at most "
                             f"{MAX_CALLS_PER_TURN} are run: spread them over turns")  # fmt: skip
    schemas = functions(tool_schemas(offered))
    calls = []
    for raw in parsed.calls:
        fn = schemas.get(raw["name"])
        if fn is None:
            return TurnCalls(
                [], f"there is no tool {_cut(repr(raw['name']))}; use one of {offered}"
            )
        errors = sorted(fn.validator.iter_errors(raw["arguments"]), key=lambda e: list(e.path))
        if errors:
            e = errors[0]
            where = "/".join(str(p) for p in e.path) or "arguments"
            return TurnCalls([], f"bad arguments for {raw['name']!r} at {_cut(where)}: "
                                 f"{_cut(e.message)}")  # fmt: skip
        calls.append(ToolCall(name=raw["name"], arguments=mended(raw["arguments"])))
    return TurnCalls(calls)
