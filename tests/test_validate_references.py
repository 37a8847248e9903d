"""`rlvr envs validate --references`: every reference is graded; one that fails names itself."""

import json
import subprocess
import sys
from pathlib import Path

from rlvr.references import check_references, reference_completion
from rlvr.registry import validate_env_folder

RLVR = [sys.executable, "-m", "rlvr.cli"]
MANIFEST = """
name = "tiny-math"
[tasks]
path = "tasks.jsonl"
[prompt]
template = "{prompt}"
[grader]
kind = "math"
"""


def _env(tmp_path: Path, tasks: list[dict]) -> Path:
    folder = tmp_path / "tiny-math"
    folder.mkdir()
    (folder / "env.toml").write_text(MANIFEST)
    (folder / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return folder


GOOD = {"id": "t/ok", "prompt": "1+1?", "gold": "2", "reference": "so \\boxed{2}"}
BAD = {"id": "t/wrong-ref", "prompt": "2+2?", "gold": "4", "reference": "so \\boxed{5}"}
NONE = {"id": "t/no-ref", "prompt": "3+3?", "gold": "6"}


def test_references_that_pass_exit_zero(tmp_path: Path) -> None:
    folder = _env(tmp_path, [GOOD])
    result = subprocess.run([*RLVR, "envs", "validate", str(folder), "--references"],
                            capture_output=True, text=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "all 1 reference solutions pass" in result.stderr


def test_a_failing_and_a_missing_reference_fail_with_their_reasons(tmp_path: Path) -> None:
    folder = _env(tmp_path, [GOOD, BAD, NONE])
    result = subprocess.run(
        [*RLVR, "envs", "validate", str(folder), "--references", "--json"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "FAIL t/wrong-ref: [scored]" in result.stderr
    assert "FAIL t/no-ref: [missing] the task has no reference solution" in result.stderr
    assert "2 of 3 reference solutions do not pass (first: t/wrong-ref" in result.stderr
    assert "fix:" in result.stderr
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert [(r["task_id"], r["passed"]) for r in rows] == [
        ("t/ok", True), ("t/wrong-ref", False), ("t/no-ref", False)]  # fmt: skip


def test_validate_without_references_does_not_grade(tmp_path: Path) -> None:
    folder = _env(tmp_path, [BAD])
    result = subprocess.run([*RLVR, "envs", "validate", str(folder)], capture_output=True,
                            text=True)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ok: tiny-math (1 tasks")


def test_library_call_and_reference_completion(tmp_path: Path) -> None:
    env = validate_env_folder(_env(tmp_path, [GOOD, BAD]))
    results = check_references(env)
    assert [r.passed for r in results] == [True, False]
    assert reference_completion(env, env.task("t/ok")) == "so \\boxed{2}"
