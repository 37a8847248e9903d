"""The unsafe local judge: refused unless RLVR_UNSAFE_LOCAL_JUDGE=1 names it, limited to known
stacks with their toolchain present, and every verdict and eval report it touches says so."""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rlvr
from rlvr.cli import app
from rlvr.errors import SandboxSetupError
from rlvr.sandbox import local
from rlvr.sandbox.local import ENV_VAR, UNSAFE_KEY, UNSAFE_NOTE, LocalPool, unsafe_local_requested
from rlvr.sft import reference_answer


def test_refused_unless_asked_for_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert unsafe_local_requested() is False
    with pytest.raises(SandboxSetupError, match=ENV_VAR):
        LocalPool("python", 1)
    env = rlvr.load_env("synth-python")  # an answer with no code needs no pool: nothing is run
    (verdict,) = env.grader.grade_group(env.tasks_in("test")[0], ["no code"])
    assert UNSAFE_KEY not in verdict.details and UNSAFE_NOTE not in verdict.reason
    for value in ("yes", "true", "unsafe"):
        monkeypatch.setenv(ENV_VAR, value)
        with pytest.raises(SandboxSetupError, match="expected 1"):
            unsafe_local_requested()
    monkeypatch.setenv(ENV_VAR, "0")
    assert unsafe_local_requested() is False


def test_only_known_stacks_with_their_toolchain_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(ENV_VAR, "1")
    with pytest.raises(SandboxSetupError, match="runs only python, javascript, go, rust"):
        LocalPool("kotlin", 1)
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no toolchain at all
    with pytest.raises(SandboxSetupError, match="python3 is not on this host's PATH"):
        LocalPool("python", 1)


@pytest.mark.skipif(shutil.which("python3") is None, reason="python3 is not on this host")
def test_grades_python_answers_on_the_host_and_marks_every_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENV_VAR, "1")
    env = rlvr.load_env("synth-python")
    task = env.tasks_in("test")[0]
    wrong = "```python\ndef nothing():\n    return None\n```"
    loop = "```python\nwhile True:\n    pass\n```"
    verdicts = env.grader.grade_group(task, [reference_answer(env, task), wrong, "no code", loop])
    assert [v.passed for v in verdicts] == [True, False, False, False]
    for v in verdicts:
        assert v.details[UNSAFE_KEY] == UNSAFE_NOTE and UNSAFE_NOTE in v.reason


@pytest.mark.skipif(shutil.which("python3") is None, reason="python3 is not on this host")
def test_an_eval_report_it_touches_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV_VAR, "1")
    env = rlvr.load_env("synth-python")
    tasks = env.tasks_in("test")[:2]
    replay = tmp_path / "answers.jsonl"
    lines = [{"task_id": t.id, "completion": reference_answer(env, t)} for t in tasks]
    replay.write_text("".join(json.dumps(x) + "\n" for x in lines))
    ids = tmp_path / "tasks.jsonl"
    ids.write_text("".join(json.dumps({"id": t.id}) + "\n" for t in tasks))
    out = tmp_path / "eval"
    argv = ["eval", "--env", "synth-python", "--model", f"replay:{replay}", "-n", "1"]
    result = CliRunner().invoke(app, [*argv, "--tasks", str(ids), "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["warnings"] == [UNSAFE_NOTE] and summary["pass@1"]["mean"] == 1.0
    assert UNSAFE_NOTE in (out / "report.html").read_text()


def test_a_training_report_whose_groups_it_graded_says_so(tmp_path: Path) -> None:
    from rlvr import report

    assert report.UNSAFE_KEY == UNSAFE_KEY  # the report's copy (a lower layer) is the same key
    (tmp_path / "metrics.jsonl").write_text(json.dumps({"step": 1, "reward_mean": 0.5}) + "\n")
    verdict = {"details": {UNSAFE_KEY: UNSAFE_NOTE}}
    lines = [{"task_id": "a", "verdicts": [verdict]}, {"task_id": "b", "verdicts": [{}]}]
    (tmp_path / "groups.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert report.grading_warnings(tmp_path) == [UNSAFE_NOTE]
    assert UNSAFE_NOTE in report.write_report(tmp_path).read_text()
    (tmp_path / "groups.jsonl").write_text(json.dumps(lines[1]) + "\n")
    assert report.grading_warnings(tmp_path) == []


@pytest.mark.parametrize("wrapper", ["prlimit", "python"])
def test_answers_run_under_cpu_and_file_size_limits_without_forking_the_parent(
    wrapper: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The limits come from an exec wrapper (prlimit, or a Python one-liner where prlimit is
    missing), not a preexec_fn, which would fork the whole training process per answer."""
    # util-linux (prlimit) is an essential Debian package: every machine .ci/run sets up has it
    assert wrapper == "python" or shutil.which("prlimit"), "prlimit (util-linux) is missing"
    if wrapper == "python":
        real = shutil.which
        monkeypatch.setattr(local.shutil, "which", lambda n: None if n == "prlimit" else real(n))
    argv = local.limited(["python3", "-c", "while True: pass"], 1, 1 << 20)
    assert (argv[0].endswith("prlimit")) == (wrapper == "prlimit")
    spin = subprocess.run(argv, timeout=60, cwd=tmp_path)
    # stopped by the CPU limit (SIGKILL at the hard limit); the test's timeout would raise
    assert spin.returncode in (-signal.SIGXCPU, -signal.SIGKILL)
    big = "open('f', 'wb').write(b'x' * 2_000_000)"
    write = subprocess.run(
        local.limited(["python3", "-c", big], 5, 1 << 20), cwd=tmp_path, capture_output=True
    )
    assert write.returncode != 0 and b"File too large" in write.stderr
    assert (tmp_path / "f").stat().st_size <= 1 << 20


def test_an_output_flood_on_either_stream_is_an_output_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A flood on stderr (stopped by the file-size limit) is judged as the sandbox judges it,
    past the output limit, not as an answer that did not build."""
    monkeypatch.setenv(ENV_VAR, "1")
    env = rlvr.load_env("synth-python")
    task = env.tasks_in("test")[0]
    flood = "```python\nimport sys\nwhile True:\n    sys.{}.write('x' * 65536)\n```"
    verdicts = env.grader.grade_group(task, [flood.format("stderr"), flood.format("stdout")])
    assert [v.passed for v in verdicts] == [False, False]
    assert [v.cause for v in verdicts] == ["output_limit", "output_limit"], [
        v.reason for v in verdicts
    ]
