"""The tool-call grader: conformance cases, extraction, verdict shape and task defects."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

from rlvr.errors import ManifestError
from rlvr.graders import make_grader
from rlvr.graders.toolcall import ToolCallGrader, check
from rlvr.graders.toolcall import grader as toolcall_grader
from rlvr.graders.toolcall.parse import parse_calls
from rlvr.types import Task

CASES_PATH = Path(__file__).resolve().parent.parent / "graders" / "toolcall" / "cases.jsonl"
CASES = [json.loads(line) for line in CASES_PATH.read_text(encoding="utf-8").splitlines() if line]

TRI = [
    {
        "name": "calculate_triangle_area",
        "parameters": {
            "type": "dict",
            "properties": {"base": {"type": "integer"}, "height": {"type": "integer"}},
            "required": ["base", "height"],
        },
    }
]
TRI_X = [{"calculate_triangle_area": {"base": [10], "height": [5]}}]
GOOD = '<tool_call>{"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}'
GOOD += "</tool_call>"


def _outcome(verdict: Any) -> str:
    if verdict.status == "grader_error":
        return "grader_error"
    return "accept" if verdict.passed else "reject"


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{i + 1}-{c['note'][:40]}" for i, c in enumerate(CASES)]
)
def test_conformance_case(case: dict[str, Any]) -> None:
    verdict = check(case["tools"], case["expected"], case["answer"])
    assert _outcome(verdict) == case["expect"], verdict.reason
    if case["expect"] == "reject":
        assert verdict.reward == 0.0
        assert verdict.details["failure"] == case["failure"], verdict.reason
        assert verdict.reason.startswith(case["failure"] + ":")
    if case["expect"] == "accept":
        assert verdict.reward == 1.0


def test_cases_file_covers_the_required_ground() -> None:
    assert len(CASES) >= 100
    assert {c["expect"] for c in CASES} == {"accept", "reject", "grader_error"}
    failures = {c.get("failure") for c in CASES}
    assert {"format", "unknown_function", "schema", "value", "count"} <= failures
    notes = " ".join(c["note"] for c in CASES)
    for topic in ("1 is not a boolean", "'15' is not '1.5'", "Hermes", "OpenAI", "fenced"):
        assert topic in notes


def test_module_examples_run() -> None:
    assert doctest.testmod(toolcall_grader).failed == 0


def test_registered_under_toolcall_with_options() -> None:
    grader = make_grader("toolcall", {"max_chars": 50})
    assert isinstance(grader, ToolCallGrader)
    assert grader.name == "toolcall"
    task = Task(id="t", prompt="p", tools=TRI, gold=TRI_X)
    (verdict,) = grader.grade_group(task, [GOOD + " " * 60])
    assert verdict.details["failure"] == "format"
    assert "max_chars=50" in verdict.reason


def test_bad_options_are_manifest_errors() -> None:
    with pytest.raises(ManifestError, match="unknown option"):
        make_grader("toolcall", {"max_char": 10})
    with pytest.raises(ManifestError, match="max_chars must be a whole number >= 1, got 0"):
        make_grader("toolcall", {"max_chars": 0})


def test_grade_group_returns_one_verdict_per_answer_with_calls() -> None:
    task = Task(id="t", prompt="p", tools=TRI, gold=TRI_X)
    verdicts = ToolCallGrader().grade_group(task, [GOOD, "no idea", GOOD.replace("5}", "6}")])
    assert [v.reward for v in verdicts] == [1.0, 0.0, 0.0]
    assert verdicts[0].details["calls"] == [
        {"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}
    ]
    assert verdicts[0].details["matching"] == [[0, 0]]
    assert verdicts[2].details["failure"] == "value"
    assert "height: got 6, expected 5" in verdicts[2].reason
    assert all(v.duration_s is not None for v in verdicts)


def test_malformed_task_masks_every_answer() -> None:
    task = Task(id="bad", prompt="p", tools=TRI, gold=[{"nope": {}}])
    verdicts = ToolCallGrader().grade_group(task, [GOOD, "text"])
    assert [v.status for v in verdicts] == ["grader_error", "grader_error"]
    assert all(v.reward is None for v in verdicts)
    assert "task 'bad' is malformed" in verdicts[0].reason
    assert "'nope' is not among the offered tools" in verdicts[0].reason


def test_task_without_tools_is_a_grader_error() -> None:
    (verdict,) = ToolCallGrader().grade_group(Task(id="t", prompt="p", gold=TRI_X), [GOOD])
    assert verdict.status == "grader_error"
    assert "offers no tools" in verdict.reason


def test_a_crash_inside_the_grader_is_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(_text: str) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(toolcall_grader, "parse_calls", explode)
    verdict = check(TRI, TRI_X, GOOD)
    assert verdict.status == "grader_error"
    assert verdict.reward is None
    assert "KeyError" in verdict.reason


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (GOOD, [{"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}]),
        (
            '{"f": {"a": 1}, "g": {}}',
            [{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {}}],
        ),
        (
            '{"name": "f", "arguments": "{\\"a\\": [1, 2]}"}',
            [{"name": "f", "arguments": {"a": [1, 2]}}],
        ),
        ("The answer is 42.", []),
        ("[]", []),
        ("[Note] No function fits; the area is 25.", []),
        (
            '<tool_call>{"name": "f", "arguments": {}}<tool_call>{"name": "g"}',
            [{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}}],
        ),
    ],
)
def test_extract_decodes_calls(text: str, expected: list[dict[str, Any]]) -> None:
    assert ToolCallGrader().extract(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"name": "f", "arguments": {</tool_call>',
        '{"name": "f", "arguments": {"a": 1}',
        '```json\n{"a": 1,}\n```',
        '{"name": "f", "arguments": {"a": Infinity}}',
        "[" * 5000,
        "Call: {'name': 'f', 'arguments': {}}",
    ],
)
def test_extract_returns_none_for_broken_attempts(text: str) -> None:
    parsed = parse_calls(text)
    assert parsed.calls is None
    assert parsed.problem


def test_integer_and_number_decisions() -> None:
    tools = [
        {
            "name": "f",
            "parameters": {
                "type": "dict",
                "properties": {"n": {"type": "integer"}, "x": {"type": "float"}},
                "required": ["n", "x"],
            },
        }
    ]

    def answer(n: str, x: str) -> str:
        return f'{{"f": {{"n": {n}, "x": {x}}}}}'

    assert check(tools, None, answer("1", "2")).passed
    assert check(tools, None, answer("1", "2.5")).passed
    assert not check(tools, None, answer("1.0", "2")).passed
    assert not check(tools, None, answer("true", "2")).passed
    assert not check(tools, None, answer("1", "false")).passed
    assert check(tools, [{"f": {"n": [1], "x": [2.0]}}], answer("1", "2")).passed


def test_huge_answers_are_rejected_without_reading() -> None:
    verdict = check(TRI, TRI_X, GOOD + "x" * 200_000)
    assert verdict.details["failure"] == "format"
    assert "characters" in verdict.reason


def test_many_braces_in_prose_stay_plain_text() -> None:
    verdict = check(TRI, [], "Sorry, " + "{ [ " * 5000 + "no call here")
    assert verdict.passed
    assert check(TRI, [], "{ " * 5000).details["failure"] == "format"  # starts like JSON


def test_string_arguments_that_encode_no_object_are_named_as_such():
    """A call whose `arguments` is a plain string ("hello") is told what is wrong with it,
    not only that some JSON somewhere failed; an encoded object (OpenAI's form) still reads."""
    bad = parse_calls('<tool_call>{"name": "f", "arguments": "hello"}</tool_call>')
    assert bad.calls is None
    assert "arguments of 'f' are a string that is not an encoded JSON object" in bad.problem
    good = parse_calls('<tool_call>{"name": "f", "arguments": "{\\"a\\": 1}"}</tool_call>')
    assert good.calls == [{"name": "f", "arguments": {"a": 1}}]
