"""`rlvr envs validate --references`: every reference is graded; one that fails names itself."""

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from rlvr.env import Environment
from rlvr.references import check_references, choose_tasks, reference_completion
from rlvr.registry import validate_env_folder
from rlvr.types import Task, Verdict

RLVR = [sys.executable, "-m", "rlvr.cli"]


@pytest.fixture(scope="module")
def docker() -> None:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request")
    from rlvr.sandbox.client import docker_available

    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")


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
    folder.mkdir(parents=True)
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


MANY = [
    {"id": f"t/{i}", "prompt": f"{i}+0?", "gold": str(i), "reference": f"\\boxed{{{i}}}"}
    for i in range(12)
]


def test_choose_tasks_first_n_or_a_stable_hash_subset(tmp_path: Path) -> None:
    env = validate_env_folder(_env(tmp_path, MANY))
    tasks = env.tasks()
    assert [t.id for t in choose_tasks(tasks, 3)] == ["t/0", "t/1", "t/2"]
    picked = choose_tasks(tasks, 4, "hash")
    assert len(picked) == 4 and picked != tasks[:4]
    assert [t.id for t in picked] == [t.id for t in tasks if t in picked]  # the set's order
    assert choose_tasks(list(reversed(tasks)), 4, "hash") == list(reversed(picked))
    assert choose_tasks(tasks, 99, "hash") == tasks and choose_tasks(tasks, None) == tasks


def test_tasks_checks_only_n_and_says_so(tmp_path: Path) -> None:
    folder = _env(tmp_path, [*MANY, BAD])
    for pick, ids in (("first", ["t/0", "t/1"]), ("hash", None)):
        result = subprocess.run(
            [*RLVR, "envs", "validate", str(folder), "--references", "--tasks", "2",
             "--pick", pick, "--json"],
            capture_output=True, text=True,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        assert "all 2 reference solutions pass (2 of 13 tasks)" in result.stderr
        rows = [json.loads(x)["task_id"] for x in result.stdout.splitlines()]
        assert len(rows) == 2 and (ids is None or rows == ids)


def test_skip_missing_lists_and_skips_tasks_without_a_reference(tmp_path: Path) -> None:
    folder = _env(tmp_path, [GOOD, NONE])
    result = subprocess.run(
        [*RLVR, "envs", "validate", str(folder), "--references", "--skip-missing", "--json"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "SKIP t/no-ref: the task has no reference solution" in result.stderr
    assert "all 1 reference solutions pass (1 without a reference skipped)" in result.stderr
    rows = {json.loads(x)["task_id"]: json.loads(x) for x in result.stdout.splitlines()}
    assert rows["t/no-ref"]["skipped"] and not rows["t/ok"]["skipped"]
    # a failing reference still fails; a set with no reference at all is not a pass
    folder = _env(tmp_path / "b", [BAD, NONE])
    result = subprocess.run(
        [*RLVR, "envs", "validate", str(folder), "--references", "--skip-missing"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 1 and "1 of 1 reference solutions do not pass" in result.stderr
    folder = _env(tmp_path / "c", [NONE])
    result = subprocess.run(
        [*RLVR, "envs", "validate", str(folder), "--references", "--skip-missing"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 1
    assert "none of the 1 tasks checked has a reference solution" in result.stderr
    assert 'add a "reference" field to the task\'s line in' in result.stderr
    assert "tasks.jsonl" in result.stderr
    assert "--skip-missing" not in result.stderr.split("fix:")[-1]  # it was passed already


HUMANEVAL = Path(__file__).resolve().parent.parent / "datasets" / "humaneval" / "functions.jsonl"
FUNCTION_MANIFEST = """
name = "fn-refs"
[tasks]
loader = "rlvr.tasksets.functions:load"
args = {{ path = "{path}", stack = "{stack}", references = "{refs}" }}
[prompt]
template = "{{prompt}}"
[grader]
kind = "function"
[grader.options]
stack = "{stack}"
"""


def _function_env(tmp_path: Path, stack: str, n: int = 3) -> tuple[Path, Path, list[dict]]:
    """A function-task environment over the first n HumanEval tasks, their references taken
    out of the task file (so they can only come from the references folder)."""
    lines = [json.loads(x) for x in HUMANEVAL.read_text().splitlines()[:n]]
    data, refs, folder = tmp_path / "data.jsonl", tmp_path / "refs", tmp_path / "fn-refs"
    data.write_text("".join(json.dumps({**x, "references": {}}) + "\n" for x in lines))
    refs.mkdir()
    folder.mkdir()
    manifest = FUNCTION_MANIFEST.format(path=data, stack=stack, refs=refs)
    (folder / "env.toml").write_text(manifest)
    return folder, refs, lines


def test_a_missing_function_reference_names_the_file_to_add(tmp_path: Path) -> None:
    folder, refs, _ = _function_env(tmp_path, "go")
    result = subprocess.run([*RLVR, "envs", "validate", str(folder), "--references", "--json"],
                            capture_output=True, text=True)  # fmt: skip
    assert result.returncode == 1
    assert f"FAIL HumanEval/0: [missing] the task has no reference solution (add {refs}/" \
           "HumanEval_0.go)" in result.stderr  # fmt: skip
    assert f"add the reference file {refs}/HumanEval_0.go (and 2 more like it), or pass " \
           "--skip-missing" in " ".join(result.stderr.split())  # fmt: skip
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert [r["reference_file"] for r in rows] == [
        f"{refs}/HumanEval_{i}.go" for i in range(3)]  # fmt: skip


def test_function_references_from_their_folder_pass_and_missing_ones_are_skipped(
    tmp_path: Path, docker: None
) -> None:
    folder, refs, lines = _function_env(tmp_path, "python")
    (refs / "HumanEval_1.py").write_text(lines[1]["references"]["python"])
    env = validate_env_folder(folder)
    assert reference_completion(env, env.task("HumanEval_1".replace("_", "/"))).startswith(
        "```python\n"
    )
    results = check_references(env, skip_missing=True)
    assert [(r.task_id, r.passed, r.skipped) for r in results] == [
        ("HumanEval/0", False, True), ("HumanEval/1", True, False), ("HumanEval/2", False, True)
    ]  # fmt: skip
    assert results[0].reference_file == f"{refs}/HumanEval_0.py"


class SpreadJudge:
    """A batching grader (pool of 4, batch size 8): records the groups of each call."""

    name = "spread"

    def __init__(self) -> None:
        self.pool = SimpleNamespace(size=4)
        self.options = SimpleNamespace(batch_size=8)
        self.calls: list[list[str]] = []
        self.lock = threading.Lock()

    def grade_group(self, task: Task, answers: list[str]) -> list[Verdict]:
        return self.grade_groups([(task, answers)])[0]

    def grade_groups(self, groups, done=None):  # type: ignore[no-untyped-def]
        with self.lock:
            self.calls.append([t.id for t, _ in groups])
        rows = [[Verdict.score(0.0 if t.id == "t3" else 1.0) for _ in answers]
                for t, answers in groups]  # fmt: skip
        for g in range(len(groups)):
            if done:
                done(g)
        return rows


def test_few_references_to_a_batching_grader_are_spread_over_its_pool() -> None:
    tasks = [Task(id=f"t{i}", prompt="p", reference=f"r{i}") for i in range(40)]
    judge = SpreadJudge()
    env = Environment(name="spread", grader=judge, load_tasks=lambda: tasks)  # type: ignore[arg-type]
    seen: list[int] = []
    results = check_references(env, on_progress=seen.append, n_tasks=10)
    assert sorted(len(c) for c in judge.calls) == [2, 2, 3, 3]  # 2 execs of 8 -> one per container
    assert sorted(x for c in judge.calls for x in c) == [f"t{i}" for i in range(10)]
    assert [r.task_id for r in results] == [f"t{i}" for i in range(10)] and sum(seen) == 10
    assert [r.passed for r in results] == [i != 3 for i in range(10)]
    judge.calls.clear()
    check_references(env, n_tasks=2)
    assert sorted(len(c) for c in judge.calls) == [1, 1]
    judge.calls.clear()
    check_references(env, n_tasks=32)  # 4 execs of 8 fill the pool: one call, as grading does
    assert [len(c) for c in judge.calls] == [32]
