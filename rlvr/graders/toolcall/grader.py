"""Tool-call grader: decode the calls in an answer, validate them, compare with expected calls.

Checks run in a fixed order and the first failure names the part that failed
(`details["failure"]`): `format` (nothing decodable where a call was attempted, see
`parse`), `unknown_function` (a name the task did not offer), `schema` (arguments
break the function's JSON Schema, see `schema`), `count` (extra or missing calls),
`value` (a wrong function or argument value, see `match`).

What `Task.gold` (or `expected` in `check`) means:

- a BFCL ground-truth list: the calls must match it (parallel calls in any order);
- `[]`: the request is irrelevant to the tools; a plain-text answer passes, any call fails,
  and an answer that looks like an attempted call but does not decode fails as `format`
  (BFCL counts such an answer as a correct abstention);
- `None`: no expected values; at least one call, and every call must be schema-valid.

A Python-style call of an offered function (`get_weather(city="Paris")`) is not a supported
form; it fails as `format` rather than passing as "no call". Reward is 1.0 or 0.0. Malformed
tools or expected calls give `grader_error`, never a zero. All work is in-process and bounded
by `max_chars` (longer answers are rejected unread) and by the scan limit of the parser.

>>> tools = [{"name": "add", "parameters": {"type": "dict", "properties": {
...     "a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}}]
>>> check(tools, [{"add": {"a": [1], "b": [2]}}], '<tool_call>{"name": "add", '
...       '"arguments": {"a": 1, "b": 2}}</tool_call>').passed
True
>>> print(check(tools, [{"add": {"a": [1], "b": [2]}}], '{"add": {"a": true, "b": 2}}').reason)
schema: call 1 (add): a: True is not of type 'integer'
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rlvr.errors import ManifestError
from rlvr.graders.base import register_grader
from rlvr.graders.toolcall.match import (
    ExpectedCall,
    call_diff,
    gold_excuses,
    max_matching,
    parse_expected,
)
from rlvr.graders.toolcall.parse import ToolCall, parse_calls
from rlvr.graders.toolcall.schema import Function, TaskSchemaError, functions
from rlvr.types import Task, Verdict

DEFAULT_MAX_CHARS = 100_000

SchemaErrors = list[tuple[str | None, str]]
"""Per call: (top-level parameter or None for the whole object, message)."""


@dataclass(frozen=True)
class Prepared:
    """A task's offered functions and expected calls, checked once per group."""

    funcs: dict[str, Function]
    expected: list[ExpectedCall] | None


def prepare(tools: Any, expected: Any) -> Prepared:
    """Convert the tools and check the expected calls; raises TaskSchemaError on a task defect."""
    funcs = functions(tools)
    return Prepared(funcs, None if expected is None else parse_expected(expected, funcs))


def _fail(kind: str, message: str, **details: Any) -> Verdict:
    return Verdict.reject(f"{kind}: {message}", details={"failure": kind, **details})


def _python_style(text: str, funcs: dict[str, Function]) -> str | None:
    for name in funcs:
        if re.search(rf"(?<![\w.]){re.escape(name)}\s*\(\s*[A-Za-z_]\w*\s*=", text):
            return name
    return None


def _schema_errors(fn: Function, args: dict[str, Any]) -> SchemaErrors:
    out: SchemaErrors = []
    for err in fn.validator.iter_errors(args):
        path = list(err.absolute_path)
        param = str(path[0]) if path else None
        where = ".".join(str(p) for p in path)
        out.append((param, f"{where}: {err.message}" if where else err.message))
    return out


def _excused(fn: Function, call: ToolCall, errs: SchemaErrors, exp: ExpectedCall) -> bool:
    if call["name"] != exp.name:
        return False
    args = call["arguments"]
    return all(p is not None and gold_excuses(fn, exp, p, args.get(p)) for p, _ in errs)


def _count_message(n_calls: int, n_expected: int) -> str:
    if n_calls > n_expected:
        return f"{n_calls - n_expected} extra call(s): got {n_calls}, expected {n_expected}"
    return f"{n_expected - n_calls} missing call(s): got {n_calls}, expected {n_expected}"


def _unmatched_message(
    calls: list[ToolCall], expected: list[ExpectedCall], owner: list[int | None]
) -> str:
    used = {i for i in owner if i is not None}
    j = owner.index(None)
    exp = expected[j]
    free = [i for i in range(len(calls)) if i not in used]
    same = [i for i in free if calls[i]["name"] == exp.name]
    if not same:
        names = sorted({calls[i]["name"] for i in free})
        return f"expected call {j + 1} ({exp.name}) not made; unmatched call(s) to {names}"
    diff = call_diff(calls[same[0]], exp)
    return f"call {same[0] + 1}: {diff or 'arguments break the schema'}"


def _against_expected(
    prep: Prepared, calls: list[ToolCall], errs: list[SchemaErrors], details: dict[str, Any]
) -> Verdict:
    expected = prep.expected
    assert expected is not None
    for i, call in enumerate(calls):
        fn = prep.funcs[call["name"]]
        if errs[i] and not any(_excused(fn, call, errs[i], e) for e in expected):
            return _fail("schema", f"call {i + 1} ({call['name']}): {errs[i][0][1]}", **details)
    if len(calls) != len(expected):
        return _fail("count", _count_message(len(calls), len(expected)), **details)
    ok = [
        [
            call["name"] == e.name
            and (not errs[i] or _excused(prep.funcs[call["name"]], call, errs[i], e))
            and call_diff(call, e) is None
            for e in expected
        ]
        for i, call in enumerate(calls)
    ]
    owner = max_matching(ok, len(expected))
    details["matching"] = [[i, j] for j, i in enumerate(owner) if i is not None]
    if None in owner:
        return _fail("value", _unmatched_message(calls, expected, owner), **details)
    return Verdict.score(1.0, f"passed: {len(calls)} call(s) match", **_d(details))


def _d(details: dict[str, Any]) -> dict[str, Any]:
    return {"details": {"failure": None, **details}}


def grade_answer(prep: Prepared, answer: str, max_chars: int = DEFAULT_MAX_CHARS) -> Verdict:
    """Grade one answer against a prepared task (see the module docstring for the order)."""
    if len(answer) > max_chars:
        return _fail("format", f"answer has {len(answer)} characters, over max_chars={max_chars}")
    parsed = parse_calls(answer)
    calls = parsed.calls
    details: dict[str, Any] = {"form": parsed.form, "calls": calls}
    if calls is None:
        return _fail("format", parsed.problem, **details)
    if not calls and (name := _python_style(answer, prep.funcs)):
        msg = f"looks like a Python-style call of {name!r}; write a JSON <tool_call> block"
        return _fail("format", msg, **details)
    if prep.expected == []:
        if calls:
            msg = f"the request fits no offered tool, got {len(calls)} call(s)"
            return _fail("count", msg, **details)
        return Verdict.score(1.0, "passed: no call made, as expected", **_d(details))
    if not calls:
        want = "at least one" if prep.expected is None else str(len(prep.expected))
        return _fail("count", f"no tool call found; expected {want}", **details)
    unknown = [c["name"] for c in calls if c["name"] not in prep.funcs]
    if unknown:
        msg = f"{unknown[0]!r} is not an offered function; offered: {sorted(prep.funcs)}"
        return _fail("unknown_function", msg, **details)
    errs = [_schema_errors(prep.funcs[c["name"]], c["arguments"]) for c in calls]
    if prep.expected is None:
        for i, call in enumerate(calls):
            if errs[i]:
                return _fail("schema", f"call {i + 1} ({call['name']}): {errs[i][0][1]}", **details)
        return Verdict.score(1.0, f"passed: {len(calls)} schema-valid call(s)", **_d(details))
    return _against_expected(prep, calls, errs, details)


def _timed(prep: Prepared, answer: str, max_chars: int) -> Verdict:
    start = time.perf_counter()
    try:
        verdict = grade_answer(prep, answer, max_chars)
    except Exception as e:  # a grader bug must be masked, never scored as 0
        verdict = Verdict.error("grader_error", f"toolcall grader failed: {type(e).__name__}: {e}")
    verdict.duration_s = time.perf_counter() - start
    return verdict


@register_grader("toolcall")
class ToolCallGrader:
    """Grades tool-call answers against a task's tools (JSON Schema) and expected calls."""

    name = "toolcall"

    def __init__(self, *, max_chars: int = DEFAULT_MAX_CHARS, **unknown: Any) -> None:
        if unknown:
            raise ManifestError(
                f"grader 'toolcall': unknown option(s) {sorted(unknown)}",
                "remove them; the toolcall grader takes only max_chars",
            )
        if not isinstance(max_chars, int) or isinstance(max_chars, bool) or max_chars < 1:
            raise ManifestError(
                f"grader 'toolcall': max_chars must be a whole number >= 1, got {max_chars!r}",
                "set grader.options.max_chars to e.g. 100000",
            )
        self.max_chars = max_chars

    def extract(self, completion: str) -> list[ToolCall] | None:
        """The decoded calls ([] when none was attempted), or None when the calls are broken."""
        return parse_calls(completion).calls

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        """One verdict per answer; a malformed task gives grader_error for all of them."""
        try:
            prep = prepare(task.tools, task.gold)
        except TaskSchemaError as e:
            reason = f"task {task.id!r} is malformed: {e}"
            return [Verdict.error("grader_error", reason) for _ in answers]
        return [_timed(prep, a, self.max_chars) for a in answers]


def check(
    tools: list[dict[str, Any]], expected: list[dict[str, Any]] | None, answer: str
) -> Verdict:
    """Grade one answer: `expected` is a BFCL ground truth, `[]` (no call) or None (schema only)."""
    try:
        prep = prepare(tools, expected)
    except TaskSchemaError as e:
        return Verdict.error("grader_error", f"malformed task: {e}")
    return _timed(prep, answer, DEFAULT_MAX_CHARS)
