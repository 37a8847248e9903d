"""The bundled `python`, `javascript`, `go` and `rust` environments are function-judged.

Their hand-written tasks are typed function tasks (datasets/stacks/functions.jsonl for the 17
problems javascript, go and rust share, datasets/python/functions.jsonl for python) graded by
the out-of-process judge; the test-framework versions stay as the opt-in `<stack>-tests`
environments, marked weaker. The full reference check is `rlvr envs validate --references
<stack>`; here a few tasks per stack run in the real sandbox.
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rlvr
from rlvr.cli import app
from rlvr.functions.judge import judge_cases, read_driver_output
from rlvr.functions.task import Case, FunctionTask, read_function_tasks

ROOT = Path(__file__).resolve().parent.parent
STACKS = ("python", "javascript", "go", "rust")
FENCE = {"python": "python", "javascript": "javascript", "go": "go", "rust": "rust"}


def _build_module():
    spec = importlib.util.spec_from_file_location("stacks_build", ROOT / "datasets/stacks/build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_task_files_are_what_the_build_script_writes(tmp_path: Path) -> None:
    build = _build_module()
    build._checks()
    for got, path in (
        (build.shared_tasks(), ROOT / "datasets/stacks/functions.jsonl"),
        (build.python_tasks(), ROOT / "datasets/python/functions.jsonl"),
    ):
        out = tmp_path / path.name
        build.write_function_tasks(out, got)
        assert out.read_text() == path.read_text(), f"run python datasets/stacks/build.py ({path})"


@pytest.mark.parametrize("stack", STACKS)
def test_the_bundled_stack_env_is_function_judged_with_stable_ids(stack: str) -> None:
    env = rlvr.load_env(stack)
    weaker = rlvr.load_env(f"{stack}-tests")
    assert env.grader.name == "function" and weaker.grader.name == "code"
    ids, old = {t.id for t in env.tasks()}, {t.id for t in weaker.tasks()}
    assert all(t.reference and t.meta["judge"] == "function" for t in env.tasks())
    if stack == "python":  # the classes and the untyped functions stay in python-tests only
        untyped = {f"python/{k}" for k in _build_module().UNTYPED}
        assert ids == old - untyped and len(ids) == 16
    else:
        assert ids == old and len(ids) == 17
    assert 0 < len(env.tasks_in("test")) < len(ids)  # a held-out split (the id's hash)


def test_every_old_hidden_edge_case_has_a_hidden_case() -> None:
    """A few edge cases the old hidden tests checked, by problem (spot checks of the port)."""
    tasks = {t.id: t for t in read_function_tasks(ROOT / "datasets/stacks/functions.jsonl")}
    hidden = {i: [c.args for c in t.hidden_cases] for i, t in tasks.items()}
    assert [0] in hidden["fizzbuzz"] and [-3] in hidden["fizzbuzz"]
    assert ["éé  2"] in hidden["rle"]  # rust's by-character test
    assert [["héllo", "hélp"]] in hidden["common-prefix"]
    assert [[[-5, -1]]] in hidden["merge-intervals"]
    assert [0] in hidden["collatz"] and [-4] in hidden["collatz"]
    assert ["ab", -27] in hidden["caesar"] and ["abc", 53] in hidden["caesar"]
    assert sum(len(t.cases) for t in tasks.values()) == 120


def test_a_raises_case_passes_only_when_the_call_fails() -> None:
    """The old tests' pytest.raises(ValueError) became `raises` cases (chunk, fibonacci)."""

    tasks = {t.id: t for t in read_function_tasks(ROOT / "datasets/python/functions.jsonl")}
    assert [c.args for c in tasks["python/chunk"].hidden_cases if c.raises] == [[[1], 0], [[1], -2]]
    task = FunctionTask.model_validate({
        "id": "t", "entry_point": "f", "docstring": "d",
        "signature": {"params": [{"name": "n", "type": "int"}], "returns": "int"},
        "public_cases": [{"args": [1], "expected": 1}],
        "hidden_cases": [{"args": [-1], "raises": True}],
    })  # fmt: skip

    def outcomes(second: str) -> list[str]:
        out = f'@@RLVR-READY\n@@RLVR-CASE {{"case": 0, "ok": true, "value": 1}}\n{second}\n'
        return [o.outcome for o in judge_cases(task, read_driver_output(out, 2))]

    assert outcomes('@@RLVR-CASE {"case": 1, "ok": false, "error": "ValueError: n"}') == [
        "passed",
        "passed",
    ]
    assert outcomes('@@RLVR-CASE {"case": 1, "ok": true, "value": 0}') == ["passed", "failed"]
    assert outcomes("") == ["passed", "missing"]  # an exit is not an error
    with pytest.raises(ValueError, match="raises = true has no expected value"):
        Case(args=[1], expected=2, raises=True)


def test_envs_list_and_show_mark_the_test_framework_mode_weaker() -> None:
    result = CliRunner().invoke(app, ["envs", "list", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in map(json.loads, result.stdout.splitlines())}
    for stack in STACKS:
        assert rows[stack]["judge"] == "function"
        assert rows[f"{stack}-tests"]["judge"] == "tests (weaker)"
    shown = CliRunner().invoke(app, ["envs", "show", "go-tests", "--json"])
    info = json.loads(shown.stdout.splitlines()[-1])
    assert "WEAKER" in info["judge"] and "test framework's own process" in info["judge"]
    assert "WEAKER" in info["description"]


# --- in the real sandbox --------------------------------------------------------------------

WRONG = {
    "python": "def reverse_words(s):\n    return s\n",
    "javascript": (
        "function caesar(text, shift) {\n  return text;\n}\nmodule.exports = { caesar };\n"
    ),
    "go": "package solution\n\nfunc Caesar(text string, shift int) string {\n\treturn text\n}\n",
    "rust": "fn caesar(text: String, shift: i64) -> String {\n    text\n}\n",
}
FORGED = {  # prints a result line for every case before returning a wrong value
    "python": (
        'for i in range(64):\n    print(\'@@RLVR-CASE \' + \'{"case": %d, "ok": true, '
        '"value": ""}\' % i)\ndef reverse_words(s):\n    return s\n'
    ),
    "javascript": (
        'for (let i = 0; i < 64; i++) console.log(`@@RLVR-CASE {"case": ${i}, "ok": true, '
        '"value": ""}`);\nfunction caesar(text, shift) {\n  return text;\n}\n'
        "module.exports = { caesar };\n"
    ),
    "go": (
        'package solution\n\nimport "fmt"\n\nfunc init() {\n\tfor i := 0; i < 64; i++ {\n'
        '\t\tfmt.Printf("@@RLVR-CASE {\\"case\\": %d, \\"ok\\": true, \\"value\\": \\"\\"}\\n", i)'
        "\n\t}\n}\n\nfunc Caesar(text string, shift int) string {\n\treturn text\n}\n"
    ),
    "rust": (
        "fn caesar(text: String, shift: i64) -> String {\n    for i in 0..64 {\n"
        '        println!("@@RLVR-CASE {{\\"case\\": {}, \\"ok\\": true, "'
        ' \\"value\\": \\"\\"}}", i);'
        "\n    }\n    text\n}\n"
    ),
}
TASK = {"python": "python/reverse_words", "javascript": "js-caesar", "go": "go-caesar",
        "rust": "rust-caesar"}  # fmt: skip


@pytest.fixture(scope="module")
def docker() -> None:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request")
    from rlvr.sandbox.client import docker_available

    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")


@pytest.mark.parametrize("stack", STACKS)
def test_references_pass_and_wrong_or_forged_answers_fail_in_the_sandbox(
    docker: None, stack: str
) -> None:
    env = rlvr.load_env(stack)
    task = env.task(TASK[stack])
    fence = FENCE[stack]
    answers = [f"```{fence}\n{code}```" for code in (task.reference, WRONG[stack], FORGED[stack])]
    right, wrong, forged = env.grade(task, answers)
    assert right.passed and right.reward == 1.0, right.reason
    assert wrong.status == "scored" and wrong.reward == 0.0, wrong.reason
    assert forged.status == "scored" and forged.reward == 0.0, forged.reason
    # two more tasks of the stack: their references pass too (the full check is
    # `rlvr envs validate --references <stack>`)
    for other in [t for t in env.tasks() if t.id != task.id][:2]:
        (v,) = env.grade(other, [f"```{fence}\n{other.reference}```"])
        assert v.passed, (other.id, v.reason)


def test_every_shared_problem_has_a_python_reference_in_the_subset(tmp_path: Path) -> None:
    """A new stack's `reference_from_python` renders references from these: each is in the
    renderable subset and passes every case under the Python function judge (the sandbox)."""
    from typer.testing import CliRunner

    from rlvr.cli import app
    from rlvr.functions.pysubset import outside

    tasks = read_function_tasks(ROOT / "datasets/stacks/functions.jsonl")
    assert len(tasks) == 17
    assert {t.id: outside(t.references.get("python", "")) for t in tasks} == {
        t.id: [] for t in tasks
    }
    folder = tmp_path / "envs" / "python-shared"
    folder.mkdir(parents=True)
    (folder / "env.toml").write_text(
        'name = "python-shared"\n[tasks]\nloader = "rlvr.tasksets.functions:load"\n'
        'args = { path = "stacks/functions.jsonl", stack = "python" }\n'
        # 60 s per job, as the bundled stacks allow: one job grades every case of a task, and
        # the suite's two lanes load the machine
        '[grader]\nkind = "function"\n[grader.options]\nstack = "python"\n'
        "limits = { timeout_s = 60 }\n",
        encoding="utf-8",
    )
    done = CliRunner().invoke(app, ["envs", "validate", "--references", str(folder)])
    assert done.exit_code == 0 and "all 17 reference solutions pass" in done.output, done.output
