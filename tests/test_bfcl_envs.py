"""BFCL task loader and environments, on the real data shipped by the installed bfcl-eval."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr.errors import RlvrError
from rlvr.graders.toolcall import ToolCallGrader
from rlvr.graders.toolcall.parse import format_hermes, parse_calls
from rlvr.registry import env_from_manifest
from rlvr.tasksets import bfcl

ENVS = Path(__file__).resolve().parent.parent / "envs"
SIZES = {
    "simple_python": 400,
    "multiple": 200,
    "parallel": 200,
    "parallel_multiple": 200,
    "irrelevance": 240,
}
ENV_CATEGORY = {
    "bfcl-simple": "simple_python",
    "bfcl-multiple": "multiple",
    "bfcl-parallel": "parallel",
    "bfcl-parallel-multiple": "parallel_multiple",
    "bfcl-irrelevance": "irrelevance",
}


@pytest.fixture(scope="module")
def tasks() -> dict[str, list]:
    return {category: bfcl.load(category) for category in SIZES}


def test_category_sizes(tasks: dict[str, list]) -> None:
    assert {c: len(t) for c, t in tasks.items()} == SIZES
    for category, items in tasks.items():
        assert len({t.id for t in items}) == len(items)
        assert all(t.id.startswith(category) for t in items)


def test_task_keeps_bfcl_originals(tasks: dict[str, list]) -> None:
    first = tasks["simple_python"][0]
    assert first.id == "simple_python_0"
    assert first.prompt == (
        "Find the area of a triangle with a base of 10 units and height of 5 units."
    )
    assert first.tools[0]["name"] == "calculate_triangle_area"
    assert first.tools[0]["parameters"]["type"] == "dict"
    assert first.gold == [
        {"calculate_triangle_area": {"base": [10], "height": [5], "unit": ["units", ""]}}
    ]
    assert first.meta["category"] == "simple_python"
    assert all(t.gold == [] for t in tasks["irrelevance"])


def test_reference_leaves_out_optional_parameters_unless_required(tasks: dict[str, list]) -> None:
    by_id = {t.id: t for t in tasks["simple_python"]}
    assert by_id["simple_python_0"].reference == format_hermes(
        [{"name": "calculate_triangle_area", "arguments": {"base": 10, "height": 5}}]
    )
    # `formatted` is marked optional in the ground truth but required by the schema.
    (call,) = parse_calls(by_id["simple_python_17"].reference).calls or []
    assert call["arguments"] == {
        "number": 450,
        "formatted": True,
    }


def test_parallel_does_not_pick_up_live_parallel() -> None:
    assert bfcl._data_file(bfcl.data_dir(), "parallel").name == "BFCL_v4_parallel.json"


def test_every_reference_answer_is_accepted(tasks: dict[str, list]) -> None:
    grader = ToolCallGrader()
    rejected = []
    for items in tasks.values():
        for task in items:
            (verdict,) = grader.grade_group(task, [task.reference])
            if not verdict.passed:
                rejected.append((task.id, verdict.reason))
    assert rejected == []


def test_sample_golds_in_plain_json_and_perturbed(tasks: dict[str, list]) -> None:
    grader = ToolCallGrader()
    for task in tasks["parallel_multiple"][::20]:
        calls = bfcl.reference_calls(task.tools, task.gold)
        reversed_json = json.dumps(list(reversed(calls)))
        extra = format_hermes([*calls, calls[0]])
        missing = format_hermes(calls[1:])
        verdicts = grader.grade_group(task, [reversed_json, extra, missing])
        assert [v.passed for v in verdicts] == [True, False, False], task.id
        assert [v.details["failure"] for v in verdicts[1:]] == ["count", "count"]


def test_irrelevance_rejects_any_call(tasks: dict[str, list]) -> None:
    grader = ToolCallGrader()
    for task in tasks["irrelevance"][::24]:
        name = task.tools[0]["name"]
        call = format_hermes([{"name": name, "arguments": {}}])
        broken = f'<tool_call>{{"name": "{name}", "arguments": {{</tool_call>'
        verdicts = grader.grade_group(task, [task.reference, call, broken])
        assert [v.passed for v in verdicts] == [True, False, False], task.id
        assert verdicts[2].details["failure"] == "format"


def test_unknown_category_names_the_choices() -> None:
    with pytest.raises(RlvrError) as err:
        bfcl.load("simple_rust")
    assert "unknown BFCL category 'simple_rust'" in str(err.value)
    assert "parallel_multiple" in str(err.value)


def test_missing_package_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bfcl.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(RlvrError) as err:
        bfcl.load("simple_python")
    assert "pip install 'rlvr[bfcl]'" in str(err.value)


@pytest.mark.parametrize("name", sorted(ENV_CATEGORY))
def test_manifest_builds_the_environment(name: str) -> None:
    env = env_from_manifest(ENVS / name, n_tasks=3)
    assert env.name == name
    assert isinstance(env.grader, ToolCallGrader)
    task = env.tasks()[0]
    assert task.meta["category"] == ENV_CATEGORY[name]
    prompt = env.format_prompt(task)
    assert task.prompt in prompt
    assert json.dumps(task.tools, indent=2) in prompt
    assert '<tool_call>{"name": "<function name>", "arguments": {' in prompt
    assert "{prompt}" not in prompt and "{tools_json}" not in prompt
    (verdict,) = env.grade(task, [task.reference])
    assert verdict.passed
