"""The CLI contracts other tools rely on, driven through the real console script."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

RLVR = [sys.executable, "-m", "rlvr.cli"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*RLVR, *args], capture_output=True, text=True, input=stdin)


def lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("gold", "answer", "code", "status"),
    [
        ("\\frac{1}{2}", "so the answer is \\boxed{0.5}", 0, "scored"),
        ("2", "\\boxed{2} or maybe \\boxed{3}", 1, "scored"),
        ("\\frac{1}{", "\\boxed{1}", 2, "grader_error"),
    ],
)
def test_check_math_single_pair_exit_codes(gold, answer, code, status):
    result = run("check", "math", gold, answer)
    assert result.returncode == code, result.stderr
    (row,) = lines(result.stdout)
    assert row["status"] == status
    assert row["accepted"] is (code == 0)
    assert row["reason"]


def test_check_math_cases_copies_keys_and_keeps_order(tmp_path):
    cases = tmp_path / "cases.jsonl"
    cases.write_text(
        json.dumps({"gold": "3", "answer": "\\boxed{3}", "id": "a", "note": {"k": 1}})
        + "\n\n"
        + json.dumps({"gold": "3", "answer": "\\boxed{4}", "id": "b"})
        + "\n"
        + "not json\n"
        + json.dumps({"answer": "x", "id": "c"})
        + "\n"
    )
    result = run("check", "math", "--cases", str(cases))
    assert result.returncode == 0, result.stderr
    rows = lines(result.stdout)
    assert [r.get("id") for r in rows] == ["a", None, "b", None, "c"]
    assert rows[0] == {
        "accepted": True,
        "status": "scored",
        "reason": rows[0]["reason"],
        "id": "a",
        "note": {"k": 1},
    }
    assert rows[1]["status"] == "input_error" and rows[1]["reason"] == "line 2: empty line"
    assert rows[2]["accepted"] is False and rows[2]["status"] == "scored"
    assert rows[3]["status"] == "input_error" and "line 4: not valid JSON" in rows[3]["reason"]
    assert rows[4]["status"] == "input_error" and "missing key(s) ['gold']" in rows[4]["reason"]


def test_check_toolcall_cases_from_stdin():
    tools = [
        {
            "name": "add",
            "description": "add two integers",
            "parameters": {
                "type": "dict",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
                "required": ["a", "b"],
            },
        }
    ]
    expected = [{"add": {"a": [1], "b": [2]}}]
    good = '<tool_call>{"name": "add", "arguments": {"a": 1, "b": 2}}</tool_call>'
    bad = '<tool_call>{"name": "add", "arguments": {"a": true, "b": 2}}</tool_call>'
    stdin = "".join(
        json.dumps({"tools": tools, "expected": expected, "answer": a, "n": i}) + "\n"
        for i, a in enumerate([good, bad])
    )
    result = run("check", "toolcall", "--cases", "-", stdin=stdin)
    assert result.returncode == 0, result.stderr
    rows = lines(result.stdout)
    assert [(r["n"], r["accepted"]) for r in rows] == [(0, True), (1, False)]
    assert "tools" not in rows[0] and "expected" not in rows[0] and "answer" not in rows[0]


def test_grade_contract_with_unknown_ids_and_bad_lines(tmp_path):
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        json.dumps({"task_id": "math/add1-001", "completion": "2 + 9 = 11, so \\boxed{11}"})
        + "\n"
        + json.dumps({"task_id": "math/nope", "completion": "\\boxed{1}"})
        + "\n"
        + "{broken\n"
        + json.dumps({"task_id": "math/add1-001", "completion": "\\boxed{12}"})
        + "\n"
    )
    out = tmp_path / "out.jsonl"
    result = run("grade", "--env", "math", "--answers", str(answers), "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = lines(out.read_text())
    keys = {"task_id", "status", "reward", "passed", "reason", "cause", "flags", "details"}
    assert all(set(r) == keys for r in rows)
    assert [(r["task_id"], r["status"], r["reward"]) for r in rows] == [
        ("math/add1-001", "scored", 1.0),
        ("math/nope", "input_error", None),
        (None, "input_error", None),
        ("math/add1-001", "scored", 0.0),
    ]
    assert "has no task 'math/nope'" in rows[1]["reason"]


def test_grade_of_an_episode_env_says_it_grades_single_turn_answers(tmp_path):
    """A stored retry pass trained at 0.5 reads 1.0 here: the command says why, once."""
    answers = tmp_path / "answers.jsonl"
    row = {"task_id": "math-columns/add2-001", "completion": "\\boxed{0}"}
    answers.write_text(json.dumps(row) + "\n")
    result = run("grade", "--env", "math-columns-retry", "--answers", str(answers))
    assert result.returncode == 0, result.stderr
    assert "runs episodes" in result.stderr and "single-turn answer" in result.stderr
    plain = run("grade", "--env", "math", "--answers", str(answers))
    assert "runs episodes" not in plain.stderr


def test_grade_keeps_one_line_per_input_line_whatever_the_bytes(tmp_path):
    """Bytes that are not UTF-8, JSON nested past the parser's depth, blank lines and a BOM
    each cost one input_error line; the verdicts around them are kept and stay aligned."""
    good = json.dumps({"task_id": "math/add1-001", "completion": "\\boxed{11}"}).encode()
    deep = b'{"task_id": "math/add1-001", "completion": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    answers = tmp_path / "answers.jsonl"
    answers.write_bytes(
        b"\xef\xbb\xbf" + good + b"\n"
        + b'{"task_id": "math/add1-001", "completion": "\xff\xfe"}\n'
        + deep + b"\n"
        + b"\n   \n"
        + good + b"\n\n\n"
    )  # fmt: skip
    out = tmp_path / "out.jsonl"
    result = run("grade", "--env", "math", "--answers", str(answers), "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = lines(out.read_text())
    assert [r["status"] for r in rows] == ["scored"] + ["input_error"] * 4 + ["scored"]
    assert [r["reward"] for r in rows if r["status"] == "scored"] == [1.0, 1.0]
    assert "line 2: not UTF-8" in rows[1]["reason"]
    assert "line 3: JSON nested too deeply" in rows[2]["reason"]
    assert [r["reason"] for r in rows[3:5]] == ["line 4: empty line", "line 5: empty line"]


def test_envs_list_json_includes_builtins():
    result = run("envs", "list", "--json")
    assert result.returncode == 0, result.stderr
    names = {r["name"] for r in lines(result.stdout)}
    assert {"math", "bfcl-simple", "bfcl-parallel-multiple"} <= names


def test_envs_validate_bad_manifest_prints_fix_without_traceback(tmp_path: Path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "env.toml").write_text(
        'name = "broken"\n[tasks]\npath = "t.jsonl"\n[grader]\nkind = "math"\nmemry_mb = 5\n'
    )
    result = run("envs", "validate", str(folder))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "grader.memry_mb: Extra inputs are not permitted" in result.stderr
    assert "fix" in result.stderr or "remove it" in result.stderr


def test_unknown_env_is_a_clear_error():
    result = run("grade", "--env", "nope", "--answers", __file__)
    assert result.returncode == 1
    assert "no environment named 'nope'" in result.stderr
    assert "Traceback" not in result.stderr
