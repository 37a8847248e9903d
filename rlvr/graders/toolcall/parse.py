"""Pull tool calls out of a completion, in the forms models emit.

Accepted forms, tried in this order (the first form present decides; forms are not mixed):

1. Hermes blocks: `<tool_call>{...}</tool_call>`, several allowed; an unclosed last block is
   read to the end of the text (generation often stops right after the JSON).
2. Fenced blocks: one or more ```json (or unlabelled) blocks holding JSON.
3. The whole answer is one JSON value.
4. JSON calls inside prose ("Here is the call: {...}"): only the explicit
   `{"name", "arguments"}` and `tool_calls` shapes count here, so that an argument object of a
   broken call is never mistaken for a call of its own.

Inside any of them a call is `{"name": .., "arguments": {..}}` (or `"parameters"`; arguments may
be a JSON string), an OpenAI tool call `{"type": "function", "function": {..}}`, an OpenAI
message `{"tool_calls": [..]}`, BFCL's `{"func_name": {args}}`, or an array of these.

The decision a reader would question: extraction is all-or-nothing. One broken block, one
non-call JSON value where a call was expected, NaN/Infinity or a duplicated key makes the whole
answer unparseable (`calls is None`), so a half-broken answer can never pass on its good half.
Text that looks like an attempted call but parses to nothing is also `None`, never "no call";
a plain-text answer without any call attempt is `[]`. `<think>...</think>` blocks are dropped
first (reasoning is not the answer), and an unclosed `<think>` hides everything after it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, TypedDict

MAX_SCAN_STARTS = 500
"""Prose scanning tries at most this many `{`/`[` positions (bounds the work on odd text)."""
MAX_DEPTH = 64
"""Deeper JSON is refused, so later recursive checks stay far from Python's recursion limit."""


class ToolCall(TypedDict):
    """One decoded call: the function name and its JSON arguments."""

    name: str
    arguments: dict[str, Any]


@dataclass
class Parsed:
    """The outcome of extraction: calls ([] = no call attempted), or None with the problem."""

    calls: list[ToolCall] | None
    form: str
    problem: str = ""


class _Unparseable(ValueError):
    """Internal: this text or value is not a well-formed call."""


_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_OPEN_BRACKET = re.compile(r"[{\[]")
_HERMES = re.compile(r"<tool_call>(.*?)(?:</tool_call>|(?=<tool_call>)|\Z)", re.DOTALL)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[^\n`]*\n?(.*?)```", re.DOTALL)
_ATTEMPT = re.compile(
    r"</?tool_call|\"tool_calls\"|[{,]\s*[\"'](?:name|function|arguments|parameters)[\"']\s*:"
)
_EXPLICIT_EXTRA_KEYS = {"type", "id", "index"}
_JSONISH = re.compile(r"[\[{]\s*[\"{\[]")
_CALL_START = re.compile(r"[\[{]\s*(?:\{\s*)?\"(?:name|function|tool_calls)\"\s*:")


def _reject_constant(token: str) -> Any:
    raise _Unparseable(f"{token} is not a JSON number")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Unparseable(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)


def _depth(value: Any) -> int:
    depth, level = 0, [value]
    while level:
        depth += 1
        nxt: list[Any] = []
        for v in level:
            if isinstance(v, dict):
                nxt.extend(v.values())
            elif isinstance(v, list):
                nxt.extend(v)
        level = nxt
    return depth


def _decode(text: str, start: int = 0) -> tuple[Any, int]:
    try:
        value, end = _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError) as e:
        raise _Unparseable(f"not valid JSON ({_short(e)})") from None
    if _depth(value) > MAX_DEPTH:
        raise _Unparseable(f"JSON nested deeper than {MAX_DEPTH} levels")
    return value, end


def loads_strict(text: str) -> Any:
    """json.loads that refuses NaN, Infinity, duplicated keys and absurd nesting."""
    text = text.strip()
    value, end = _decode(text)
    if end != len(text):
        raise _Unparseable("extra text after the JSON value")
    return value


def _short(e: BaseException) -> str:
    return str(e).split("\n")[0][:120]


def _arguments(raw: Any, name: str) -> dict[str, Any]:
    if isinstance(raw, str):  # OpenAI's wire form: an object encoded as a JSON string
        try:
            raw = loads_strict(raw) if raw.strip() else None
        except _Unparseable as e:
            raise _Unparseable(
                f"arguments of {name!r} are a string that is not an encoded JSON object "
                f'({e}); write them as an object, e.g. {{"x": 1}}'
            ) from None
    if not isinstance(raw, dict):
        raise _Unparseable(f"arguments of {name!r} must be a JSON object, got {_kind(raw)}")
    return raw


def _kind(value: Any) -> str:
    names = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array"}
    if value is None:
        return "null"
    return names.get(type(value), "object" if isinstance(value, dict) else type(value).__name__)


def _explicit(obj: dict[str, Any]) -> list[ToolCall] | None:
    """The `{"name", "arguments"}` shape (and OpenAI's wrappers); None if obj is not one."""
    if isinstance(obj.get("tool_calls"), list):
        return [c for item in obj["tool_calls"] for c in _one_explicit(item)]
    if isinstance(obj.get("function"), dict) and "name" in obj["function"]:
        extra = set(obj) - {"function"} - _EXPLICIT_EXTRA_KEYS
        if extra:
            raise _Unparseable(f"unexpected key(s) {sorted(extra)} beside 'function'")
        return _explicit(obj["function"])
    if not isinstance(obj.get("name"), str):
        return None
    has_args, has_params = "arguments" in obj, "parameters" in obj
    if has_args and has_params:
        raise _Unparseable("a call has both 'arguments' and 'parameters'")
    extra = set(obj) - {"name", "arguments", "parameters"} - _EXPLICIT_EXTRA_KEYS
    if extra:
        raise _Unparseable(f"unexpected key(s) {sorted(extra)} in call {obj['name']!r}")
    raw = obj.get("arguments", obj.get("parameters", {}))
    return [ToolCall(name=obj["name"], arguments=_arguments(raw, obj["name"]))]


def _one_explicit(item: Any) -> list[ToolCall]:
    calls = _explicit(item) if isinstance(item, dict) else None
    if calls is None:
        raise _Unparseable(f"a tool_calls entry is not a call: {_preview(item)}")
    return calls


def _preview(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def calls_from_value(value: Any, bfcl_style: bool = True) -> list[ToolCall]:
    """Normalise a decoded JSON value to calls; raises _Unparseable if it is not call-shaped."""
    if isinstance(value, list):
        return [c for item in value for c in calls_from_value(item, bfcl_style)]
    if not isinstance(value, dict):
        raise _Unparseable(f"expected a call object, got {_kind(value)} {_preview(value)}")
    calls = _explicit(value)
    if calls is not None:
        return calls
    if bfcl_style and value and all(isinstance(v, dict) for v in value.values()):
        return [ToolCall(name=k, arguments=v) for k, v in value.items()]
    raise _Unparseable(f"not a tool call: {_preview(value)}")


def _hermes(text: str) -> list[ToolCall]:
    calls: list[ToolCall] = []
    for i, match in enumerate(_HERMES.finditer(text), 1):
        body = match.group(1)
        try:
            calls.extend(calls_from_value(loads_strict(body)))
        except _Unparseable as e:
            raise _Unparseable(f"<tool_call> block {i}: {e}") from None
    return calls


def _fenced(blocks: list[tuple[str, str]]) -> list[ToolCall]:
    calls: list[ToolCall] = []
    for i, (_lang, body) in enumerate(blocks, 1):
        try:
            calls.extend(calls_from_value(loads_strict(body)))
        except _Unparseable as e:
            raise _Unparseable(f"fenced block {i}: {e}") from None
    return calls


def _json_fences(text: str) -> list[tuple[str, str]]:
    out = []
    for m in _FENCE.finditer(text):
        lang, body = m.group(1).lower(), m.group(2)
        if lang in ("json", "json5", "tool_call", "tool_calls") or (
            lang == "" and body.lstrip()[:1] in ("{", "[")
        ):
            out.append((lang, body))
    return out


def _scan_prose(text: str) -> list[ToolCall]:
    """Explicit-shape calls embedded in prose; a broken call-looking value is an error."""
    calls: list[ToolCall] = []
    pos, starts = 0, 0
    while starts < MAX_SCAN_STARTS:
        m = _OPEN_BRACKET.search(text, pos)
        if m is None:
            break
        starts += 1
        i = m.start()
        try:
            value, end = _decode(text, i)
        except _Unparseable as e:
            if _CALL_START.match(text, i):
                raise _Unparseable(f"broken JSON call at character {i}: {e}") from None
            pos = i + 1
            continue
        try:
            calls.extend(calls_from_value(value, bfcl_style=False))
        except _Unparseable:
            if _CALL_START.match(text, i):
                raise
        pos = end
    return calls


def _whole_json(text: str, stripped: str) -> Parsed:
    """An answer that starts like JSON: one value, or calls with prose after them."""
    try:
        return Parsed(calls_from_value(loads_strict(stripped)), "json")
    except _Unparseable as e:
        whole_error = e
    try:
        calls = _scan_prose(text)
    except _Unparseable:
        raise whole_error from None
    if calls:
        return Parsed(calls, "prose")
    if _JSONISH.match(stripped) or _ATTEMPT.search(text):
        raise whole_error
    return Parsed([], "text")  # "[Note] ..." or "{sorry}": brackets in prose


def parse_calls(completion: str) -> Parsed:
    """Decode every tool call in `completion`; see the module docstring for the forms."""
    text = _THINK.sub("", completion).split("<think>", 1)[0]
    try:
        if "<tool_call>" in text:
            return Parsed(_hermes(text), "hermes")
        fences = _json_fences(text)
        if fences:
            return Parsed(_fenced(fences), "fenced")
        stripped = text.strip()
        if stripped[:1] in ("{", "["):
            return _whole_json(text, stripped)
        calls = _scan_prose(text)
    except _Unparseable as e:
        return Parsed(None, "unparseable", problem=str(e))
    if calls:
        return Parsed(calls, "prose")
    if _ATTEMPT.search(text):
        return Parsed(None, "unparseable", problem="text looks like a tool call but none parsed")
    return Parsed([], "text")


def format_hermes(calls: list[ToolCall]) -> str:
    """Calls written as Hermes `<tool_call>` blocks, one per line (the inverse of parsing)."""
    return "\n".join(
        "<tool_call>"
        + json.dumps({"name": c["name"], "arguments": c["arguments"]})
        + "</tool_call>"
        for c in calls
    )
