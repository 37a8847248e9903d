"""The sandbox pieces that need no Docker: spec validation, assert rewriting, the strict
comparison helper, the pytest report parser, answer extraction, and the no-daemon error."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rlvr.errors import ManifestError, SandboxError
from rlvr.graders.code.extract import extract_fenced, function_program
from rlvr.sandbox.asserts import strict_asserts
from rlvr.sandbox.reports import ReportInput, count_pytest, get_report_adapter, parse_pytest
from rlvr.sandbox.spec import load_spec

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "sandbox" / "runner"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, RUNNER / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


strict = _load("rlvr_strict")


def test_spec_defaults_and_limits_key():
    spec = load_spec({"image": "x:1", "test_command": ["true"]})
    assert spec.timeout_s == 10.0 and spec.memory_mb == 512 and spec.report == "pytest"
    assert spec.limits_key[0] == "x:1"


def test_spec_error_names_file_field_and_value(tmp_path):
    with pytest.raises(ManifestError) as e:
        load_spec({"image": "x", "test_command": ["t"], "memory_mb": "512MB"}, tmp_path)
    msg = str(e.value)
    assert "env.toml: sandbox: memory_mb" in msg and "'512MB'" in msg


def test_spec_rejects_paths_outside_workspace_and_unknown_keys():
    with pytest.raises(ManifestError, match="relative path inside the workspace"):
        load_spec({"image": "x", "test_command": ["t"], "answer_file": "../etc/passwd"})
    with pytest.raises(ManifestError, match="timeout"):
        load_spec({"image": "x", "test_command": ["t"], "timeout": 3})


def test_spec_needs_command_and_report_file():
    with pytest.raises(ManifestError, match="test_command is required"):
        load_spec({"image": "x"})
    with pytest.raises(ManifestError, match="report_file"):
        load_spec({"image": "x", "test_command": ["t"], "report_from": "file"})


def test_spec_extra_file_must_exist(tmp_path):
    with pytest.raises(ManifestError, match="does not exist"):
        load_spec({"image": "x", "test_command": ["t"], "files": {"go.mod": "go.mod"}}, tmp_path)


def test_rewrite_turns_comparisons_into_helper_calls():
    src = (
        '"""doc"""\nfrom __future__ import annotations\ndef test_a():\n    assert f(1) == 2, "m"\n'
    )
    out = strict_asserts(src)
    lines = out.splitlines()
    assert lines[2] == "import rlvr_strict as _rlvr"
    assert "assert _rlvr.truth(_rlvr.eq(f(1), 2)), 'm'" in out


def test_rewrite_covers_not_chains_membership_and_keeps_identity():
    out = strict_asserts(
        "assert not f(x)\nassert 1 < g() <= 3\nassert a in b\nassert h() is None\n"
        "assert all(k(i) != 0 for i in r)\nassert not (p() and q())\n",
        import_line=False,
    )
    assert "assert _rlvr.falsy(f(x))" in out
    assert "_rlvr.chain(['<', '<='], 1, g(), 3)" in out
    assert "_rlvr.contains(a, b)" in out
    assert "_rlvr.truth(h() is None)" in out
    assert "_rlvr.ne(k(i), 0)" in out
    assert "_rlvr.falsy(p()) or _rlvr.falsy(q())" in out


def test_rewrite_leaves_comparisons_outside_asserts():
    assert "x == 1" in strict_asserts("y = x == 1\n", import_line=False)


class AlwaysEqual:
    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __bool__(self) -> bool:
        return True

    __hash__ = object.__hash__


def test_strict_eq_rejects_objects_that_claim_equality():
    assert strict.eq(AlwaysEqual(), 4) is False
    assert strict.eq([AlwaysEqual()], [1]) is False
    assert strict.contains(AlwaysEqual(), [1, 2]) is False
    assert strict.truth(AlwaysEqual()) is False
    assert strict.falsy(AlwaysEqual()) is False
    assert strict.order("<", AlwaysEqual(), 3) is False


def test_strict_eq_follows_python_for_builtins():
    assert strict.eq(2, 2.0) and strict.eq({"a": [1, (2, 3)]}, {"a": [1, (2, 3)]})
    assert not strict.eq(True, 1) and not strict.eq([1], (1,)) and not strict.eq("1", 1)
    assert strict.eq({1, 2}, {2, 1}) and strict.ne({1}, {2})
    assert strict.eq(float("nan"), float("nan"))
    from collections import Counter, namedtuple

    assert strict.eq(Counter("aab"), {"a": 2, "b": 1})
    point = namedtuple("point", "x y")
    assert strict.eq(point(1, 2), point(1, 2)) and not strict.eq(point(1, 2), (1, 2))
    assert strict.chain(["<", "<"], 1, 2, 3) and not strict.chain(["<", "<"], 1, 3, 2)


def test_strict_eq_compares_user_objects_by_state():
    class P:
        def __init__(self, x: int) -> None:
            self.x = x

        def __eq__(self, other: object) -> bool:
            return True

    assert strict.eq(P(1), P(1)) and not strict.eq(P(1), P(2))


def test_count_pytest_counts_functions_classes_and_literal_parametrize():
    src = (
        "import pytest\ndef test_a(): pass\ndef helper(): pass\nclass TestX:\n"
        "    def test_b(self): pass\n@pytest.mark.parametrize('v', [1, 2, 3])\n"
        "def test_c(v): pass\n"
    )
    assert count_pytest(src) == 5
    assert count_pytest("@pytest.mark.parametrize('v', VALUES)\ndef test_a(v): pass\n") is None


def _line(nonce: str, **rec) -> str:
    import json

    return f"{nonce} {json.dumps(rec)}"


def test_pytest_report_needs_nonce_and_done_line():
    good = "\n".join([
        _line("N", kind="test", name="t::a", outcome="passed", message=""),
        "X " + '{"kind": "test", "name": "t::b", "outcome": "passed", "message": ""}',
        _line("N", kind="done", exitstatus=0),
    ])  # fmt: skip
    got = parse_pytest(ReportInput(report=good, nonce="N"))
    assert [(o.name, o.outcome) for o in got] == [("t::a", "passed")]
    cut = _line("N", kind="test", name="t::a", outcome="passed", message="")
    got = parse_pytest(ReportInput(report=cut, nonce="N"))
    assert got[-1].name == "<session>" and got[-1].outcome == "error"
    assert parse_pytest(ReportInput(report=good, nonce=""))[-1].name == "<session>"


def test_adapter_lookup_builtin_file_and_errors(tmp_path):
    assert get_report_adapter("pytest").count_tests is count_pytest
    (tmp_path / "rep.py").write_text(
        "from rlvr.sandbox.reports import TestOutcome\n"
        "def parse(inp):\n    return [TestOutcome(name='x', outcome='passed')]\n"
        "def count_tests(src):\n    return 7\n"
    )
    ad = get_report_adapter("rep.py:parse", tmp_path)
    assert ad.parse(ReportInput())[0].name == "x" and ad.count_tests("") == 7
    with pytest.raises(ManifestError, match="unknown report adapter"):
        get_report_adapter("nope")
    with pytest.raises(ManifestError, match="cannot be imported"):
        get_report_adapter("no_such_module:parse")


def test_extract_fenced_prefers_last_tagged_block():
    text = "```python\na = 1\n```\nthen\n```\nb = 2\n```\n```py\nc = 3\n```\n"
    assert extract_fenced(text, ["python", "py"]) == "c = 3\n"
    assert extract_fenced("```\nonly = 1\n```", ["python"]) == "only = 1\n"
    assert extract_fenced("```js\nx\n```", ["python"]) is None
    assert extract_fenced("no code here", ["python"]) is None


def test_function_program_accepts_body_or_full_function():
    prompt = 'def add(a, b):\n    """Add."""\n'
    assert function_program(prompt, "    return a + b\n", "add") == prompt + "    return a + b\n"
    full = function_program(prompt, "```python\ndef add(a, b):\n    return a + b\n```", "add")
    ns: dict = {}
    exec(full, ns)
    assert ns["add"](2, 3) == 5
    body = function_program(prompt, "```python\nreturn a + b\n```", "add")
    exec(body, ns)
    assert ns["add"](1, 1) == 2


def test_no_daemon_gives_clear_sandbox_error():
    code = (
        "from rlvr.sandbox.client import get_client\n"
        "from rlvr.errors import SandboxError\n"
        "try:\n    get_client()\nexcept SandboxError as e:\n    print('ERR', e)\n"
    )
    env = {**os.environ, "DOCKER_HOST": "unix:///nonexistent/docker.sock"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert "ERR no Docker daemon answers at unix:///nonexistent/docker.sock" in out.stdout
    assert "start it with `dockerd`" in out.stdout
    assert SandboxError.__name__ == "SandboxError"


def test_import_rlvr_never_touches_docker():
    code = "import rlvr, rlvr.graders, rlvr.sandbox.docker; print(rlvr.sandbox.client._client)"
    env = {**os.environ, "DOCKER_HOST": "unix:///nonexistent/docker.sock"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "None"


def test_load_env_python_without_daemon_builds_grader():
    code = (
        "import rlvr\nfor n in ('python', 'python-tests'):\n"
        "    e = rlvr.load_env(n); print(e.grader.name, len(e.tasks()))"
    )
    env = {**os.environ, "DOCKER_HOST": "unix:///nonexistent/docker.sock"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.split() == ["function", "16", "code", "20"], out.stderr


def test_result_parser_takes_the_first_valid_line_and_never_raises():
    from rlvr.sandbox.results import RESULT_MARK, CheckResult, RunResult, parse_result

    good = RESULT_MARK + b'{"exit_code": 0, "clean": true, "report": "r"}'
    forged = RESULT_MARK + b'{"exit_code": 0, "clean": true, "report": "forged"}'
    assert parse_result(b"noise\n" + good + b"\n" + forged + b"\n", RunResult)["report"] == "r"
    deep = RESULT_MARK + b"[" * 200_000 + b"]" * 200_000
    wrong_shape = RESULT_MARK + b'{"exit_code": "zero", "stdout": {"a": 1}}'
    for bad in (
        b"",
        b"nothing",
        deep,
        wrong_shape,
        RESULT_MARK + b"{not json",
        RESULT_MARK + b"[]",
    ):
        assert parse_result(bad, RunResult) is None
    assert parse_result(deep + b"\n" + good, RunResult)["report"] == "r"  # later valid line
    got = parse_result(RESULT_MARK + b'{"error": "runner crashed: x"}', RunResult)
    assert got == {"error": "runner crashed: x", "clean": False, "agent_fault": False,
                   "stale": False}  # fmt: skip
    check = RESULT_MARK + b'{"results": [{"outcome": "hacked"}], "clean": true}'
    assert parse_result(check, CheckResult) is None  # outcome outside the schema


def test_a_raising_report_adapter_masks_that_answer_only():
    from rlvr.graders.code.verdict import command_verdict
    from rlvr.sandbox.docker import ExecOutcome
    from rlvr.sandbox.reports import ReportAdapter
    from rlvr.sandbox.spec import SandboxSpec

    def boom(_inp):
        raise RecursionError("adapter bug")

    spec = SandboxSpec(image="x", test_command=["t"], report_from="stdout")
    out = ExecOutcome({"exit_code": 0, "stdout": "x", "clean": True}, 0, "")
    v = command_verdict(out, ReportAdapter("boom", boom), "n", 1, None, "all_pass", spec)
    assert v.status == "grader_error" and v.reward is None
    v = command_verdict(ExecOutcome(None, 1, "gone"), ReportAdapter("b", boom), "n", 1, None,
                        "all_pass", spec)  # fmt: skip
    assert v.status == "infra_error"


def test_the_job_that_left_state_or_filled_the_memory_is_scored_never_masked():
    """What each job left (`left_behind`) and a runner lost to an OOM kill (`ExecOutcome.oom`)
    are scored 0 for that job, cause memory_limit, flagged; a check group's partial results
    (it stops after an answer that left state) are judged as far as they go."""
    from rlvr.flags.sandbox import verdict_flags
    from rlvr.graders.code.verdict import command_verdict, pycheck_verdicts
    from rlvr.sandbox.docker import ExecOutcome
    from rlvr.sandbox.reports import ReportAdapter
    from rlvr.sandbox.spec import SandboxSpec

    spec = SandboxSpec(image="x", test_command=["t"], report_from="stdout")
    adapter = ReportAdapter("pytest", lambda _inp: [])
    what = ["SysV shm 3 (owner uid 0, creator uid 1234)"]
    left = ExecOutcome({"exit_code": 0, "stdout": "", "clean": False, "left_behind": what}, 0, "")
    oom = ExecOutcome(None, 137, "", oom=True)
    for out in (left, oom):
        v = command_verdict(out, adapter, "n", 1, None, "all_pass", spec)
        assert (v.status, v.reward, v.cause) == ("scored", 0.0, "memory_limit"), v.reason
        assert any(f.kind == "sandbox_abuse" for f in verdict_flags(v)), v
    v = command_verdict(oom, adapter, "n", 1, None, "all_pass", spec)
    assert "out-of-memory killer ended the sandbox's runner" in v.reason
    items = [{"outcome": "passed"}, {"outcome": "failed", "left_behind": ["9 entries in /tmp"]}]
    got = pycheck_verdicts(ExecOutcome({"results": items, "clean": False}, 0, ""), 3, "all_pass")
    assert got is not None
    assert [(v.reward, v.cause) for v in got] == [(1.0, None), (0.0, "memory_limit")]
    assert pycheck_verdicts(oom, 1, "all_pass")[0].cause == "memory_limit"  # type: ignore[index]
    assert pycheck_verdicts(oom, 2, "all_pass") is None  # rerun one by one to find who


def test_workspace_wipe_is_not_recursive(tmp_path):
    sweep = _load("sweep")
    os.chdir(tmp_path)
    try:
        top = os.open(".", os.O_RDONLY)
        for _ in range(3000):  # deeper than the recursion limit, longer than PATH_MAX
            os.mkdir("dd")
            os.chdir("dd")
            with open("f", "w") as fh:
                fh.write("x")
        os.chmod(".", 0o500)
        os.chdir(tmp_path)
        sweep.remove_tree_at(top, "dd", [10**7, time.monotonic() + 600])
        os.close(top)
    finally:
        os.chdir(ROOT)
    assert not (tmp_path / "dd").exists()
