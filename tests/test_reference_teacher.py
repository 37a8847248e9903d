"""`rlvr rollout --model reference`: each task's reference played as a teacher episode and
judged like any policy's, so distillation has verified episodes before any teacher exists."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.episodes.reference_teacher import reference_turns
from rlvr.registry import load_env


def _rollout(tmp_path: Path, env: str, *args: str) -> list[dict]:
    out = tmp_path / f"{env}.jsonl"
    result = CliRunner().invoke(app, ["rollout", "-e", env, "-m", "reference", "-o", str(out),
                                      *args])  # fmt: skip
    assert result.exit_code == 0, result.output
    return [json.loads(x) for x in out.read_text().splitlines()]


def test_reference_episodes_pass_the_judge_in_repair_and_terminal(tmp_path: Path) -> None:
    groups = _rollout(tmp_path, "repair-python", "-G", "2", "--n-tasks", "2")
    groups += _rollout(tmp_path, "terminal", "-G", "1", "--n-tasks", "1")
    assert [g["env"] for g in groups] == ["repair-python"] * 2 + ["terminal"]
    for g in groups:
        assert all(v["status"] == "scored" and v["reward"] == 1.0 for v in g["verdicts"]), g
        for s in g["samples"]:
            tools = [[c["name"] for c in t.get("calls", [])] for t in s["episode"]["turns"]]
            assert tools in (
                [["run_public_tests"], ["submit"]],
                [["bash"], ["submit"]],
            ), tools


def test_the_turns_are_the_fenced_fix_or_the_script_then_submit() -> None:
    repair = load_env("repair-python")
    task = next(t for t in repair.tasks_in("train") if t.reference)
    first, last = reference_turns(repair, task) or ["", ""]
    assert first.startswith("```python\n") and task.reference.strip() in first
    assert first.endswith('{"name": "run_public_tests", "arguments": {}}</tool_call>')
    assert last == '<tool_call>{"name": "submit", "arguments": {}}</tool_call>'
    terminal = load_env("terminal")
    script = next(t for t in terminal.tasks_in("train") if t.reference)
    bash, _ = reference_turns(terminal, script) or ["", ""]
    assert json.loads(bash.removeprefix("<tool_call>").removesuffix("</tool_call>")) == {
        "name": "bash", "arguments": {"command": script.reference}}  # fmt: skip


def test_an_environment_without_episodes_is_refused_with_the_fix(tmp_path: Path) -> None:
    math = load_env("math")
    assert reference_turns(math, math.tasks()[0]) is None
    out = tmp_path / "m.jsonl"
    result = CliRunner().invoke(app, ["rollout", "-e", "math", "-m", "reference", "-o", str(out),
                                      "--n-tasks", "2"])  # fmt: skip
    assert result.exit_code != 0
    said = result.output + str(result.exception)
    assert "has a reference episode" in said and "repair-" in said
