"""Specification-gap audit: candidates for math and tool calls, the audit of real environments
(math and BFCL without Docker; python, humaneval and javascript in the sandbox), the report and
`rlvr audit graders`. Tests using the `docker` fixture fail loudly without Docker unless
RLVR_SKIP_DOCKER=1."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rlvr
from rlvr.audit.specgap.audit import GapOptions, audit_env, audit_task
from rlvr.audit.specgap.candidates import equivalent_forms, perturbed_golds, toolcall_candidates
from rlvr.cli import app
from rlvr.graders.math import check

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def docker() -> None:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request")
    from rlvr.sandbox.client import docker_available

    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")


@pytest.mark.parametrize(
    "gold",
    ["42", "-7", "1596", "\\frac{104}{55}", "\\frac{3}{8}", "6\\sqrt{7}", "(-8, 9)", "\\{3, 5\\}"],
)
def test_math_forms_pass_and_perturbations_fail(gold):
    forms = equivalent_forms(gold)
    wrong = perturbed_golds(gold)
    assert len(forms) >= 2 and len(wrong) >= 2
    for name, answer in forms:
        assert check(gold, answer).passed, (name, answer)
    for desc, answer in wrong:
        assert answer != gold
        assert not check(gold, f"$\\boxed{{{answer}}}$").passed, (desc, answer)


def test_toolcall_candidates_violate_the_schema():
    task = rlvr.load_env("bfcl-simple").tasks()[0]
    cands = toolcall_candidates(task)
    ops = {c.operator for c in cands if c.role == "mutant"}
    assert {"wrong_type", "unknown_key", "unknown_function", "missing_required"} <= ops
    assert [c.role for c in cands].count("reference") == 1


@pytest.mark.parametrize(
    "env_name", ["math", "bfcl-simple", "bfcl-parallel-multiple", "bfcl-irrelevance"]
)
def test_audit_without_sandbox_finds_no_gap_in_shipped_graders(env_name):
    env = rlvr.load_env(env_name)
    audits, summary = audit_env(env, env.tasks()[:25], GapOptions(max_mutants=10))
    assert summary.tasks == 25 and summary.reference_failed == 0
    assert summary.mutants > 0 and summary.mutation_score == 1.0
    assert all(not a.gap for a in audits), [a.reasons for a in audits if a.gap]
    if env_name == "math":
        assert summary.equivalents > 0 and summary.equivalents_passed == summary.equivalents


def test_cli_graders_writes_jsonl_html_and_png(tmp_path):
    out = tmp_path / "audit"
    result = CliRunner().invoke(
        app,
        ["audit", "graders", "--env", "math", "--tasks", "6", "--pick", "hash", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["tasks"] == 6 and summary["mutation_score"] == 1.0
    lines = [json.loads(x) for x in (out / "tasks.jsonl").read_text().splitlines()]
    assert len(lines) == 6
    from rlvr.references import choose_tasks

    hashed = [t.id for t in choose_tasks(rlvr.load_env("math").tasks(), 6, "hash")]
    assert (
        [x["task_id"] for x in lines] == hashed != [t.id for t in rlvr.load_env("math").tasks()[:6]]
    )
    for line in lines:
        assert {
            "task_id",
            "reference_passed",
            "mutants",
            "mutants_killed",
            "mutation_score",
            "trivial_failed",
        } <= set(line)
    page = (out / "report.html").read_text()
    assert (
        "mutation_scores.png" in page
        and (out / "mutation_scores.png").read_bytes()[:4] == b"\x89PNG"
    )


def _weak_env(tmp_path: Path) -> rlvr.Environment:
    folder = tmp_path / "weak"
    shutil.copytree(ROOT / "envs" / "python-tests", folder)
    task = {
        "id": "weak/clamp",
        "entry_point": "clamp",
        "prompt": "Write clamp(x, lo, hi): x limited to the range [lo, hi].",
        "reference": (
            "def clamp(x, lo, hi):\n    if x < lo:\n"
            "        return lo\n    if x > hi:\n        return hi\n    return x\n"
        ),
        "public_tests": (
            "from solution import clamp\n\ndef test_mid():\n    assert clamp(5, 0, 10) == 5\n"
        ),
        "hidden_tests": (
            "from solution import clamp\n\ndef test_other():\n    assert clamp(7, 0, 10) == 7\n"
        ),
        "meta": {"n_public": 1, "n_hidden": 1},
    }
    (folder / "tasks.jsonl").write_text(json.dumps(task) + "\n")
    toml = (folder / "env.toml").read_text()
    toml = toml.replace('name = "python-tests"', 'name = "weak"').replace(
        "../../datasets/python/tasks.jsonl", "tasks.jsonl"
    )
    dockerfile = repr(str(ROOT / "envs" / "python" / "Dockerfile"))
    toml = toml.replace('"../python/Dockerfile"', dockerfile)
    (folder / "env.toml").write_text(toml)
    return rlvr.registry.env_from_manifest(folder)


def test_weak_tests_show_surviving_mutants_and_passing_trivials(docker, tmp_path):
    env = _weak_env(tmp_path)
    audit = audit_task(env, env.tasks()[0], GapOptions(max_mutants=8))
    assert audit.reference_passed is True
    assert audit.trivial_failed is False
    assert any(t.name == "return_arg:x" and t.passed for t in audit.trivials)
    assert audit.mutants > 0 and audit.surviving and audit.mutation_score < 1.0
    assert audit.gap and any("survive" in r for r in audit.reasons)
    assert all(s.diff.startswith("--- reference") for s in audit.surviving)


def test_humaneval_and_javascript_audits_in_the_sandbox(docker):
    for name, task_ids in (
        ("humaneval", ["HumanEval/0", "HumanEval/12"]),
        ("javascript", ["js-palindrome"]),
    ):
        env = rlvr.load_env(name)
        tasks = [env.task(t) for t in task_ids]
        audits, summary = audit_env(env, tasks, GapOptions(max_mutants=4))
        assert summary.reference_failed == 0 and summary.trivial_passed == 0, [
            a.reasons for a in audits
        ]
        assert summary.mutants > 0 and summary.mutants_masked == 0
        for a in audits:
            assert len(a.trivials) >= 4 and a.mutation_score is not None


def test_mutants_that_never_ran_are_stillborn_not_killed():
    from rlvr.audit.specgap.audit import stillborn
    from rlvr.types import TestOutcome, Verdict

    build = [TestOutcome(name="(exit status 3)", outcome="error")]
    assert stillborn(
        Verdict.reject(
            "unexpected test names", tests=build, cause="bad_report", details={"exit_code": 3}
        )
    )
    no_report = "the test command ended before any test ran (no test report was written): x"
    assert stillborn(Verdict.error("grader_error", no_report, cause="no_test_ran"))
    assert stillborn(
        Verdict.reject(no_report + "; the answer broke the build", cause="no_test_ran")
    )
    ran = [TestOutcome(name="TestA", outcome="failed"), *build]
    assert not stillborn(
        Verdict.reject("1 failed", tests=ran, cause="tests_failed", details={"exit_code": 1})
    )
    assert not stillborn(Verdict.reject("timeout", cause="timeout", details={"timed_out": True}))
