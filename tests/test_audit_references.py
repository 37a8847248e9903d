"""`rlvr audit graders`: answers fenced with the stack's own tag, no audit without references,
progress counted in answers."""

import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace

import pytest

from rlvr.audit.specgap.audit import NO_REFERENCE, GapOptions, audit_env, code_candidates
from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.types import Task, Verdict

RLVR = [sys.executable, "-m", "rlvr.cli"]
KOTLIN = "fun add(a: Int, b: Int): Int {\n    if (a < b) { return a + b }\n    return a + b\n}\n"
TASK = Task(id="kt/add", prompt="fun add(a: Int, b: Int): Int", reference=KOTLIN,
            entry_point="add")  # fmt: skip


class FakeJudge:
    """A function judge over a stack the audits have no syntax for (Kotlin): it batches, and
    passes an answer only when its fenced code is the reference."""

    name = "function"

    def __init__(self, batch_size: int = 3) -> None:
        self.translator = SimpleNamespace(LANGUAGES=["kotlin", "kt"])
        self.options = SimpleNamespace(batch_size=batch_size)
        self.seen: list[str] = []
        self.calls = 0

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        return self.grade_groups([(task, answers)])[0]

    def grade_groups(
        self,
        groups: Sequence[tuple[Task, Sequence[str]]],
        done: Callable[[int], None] | None = None,
    ) -> list[list[Verdict]]:
        self.calls += 1
        out = []
        for g, (_task, answers) in enumerate(groups):
            self.seen += answers
            out.append([Verdict.score(1.0) if a == f"```kotlin\n{KOTLIN}```\n"
                        else Verdict.reject("wrong") for a in answers])  # fmt: skip
            if done:
                done(g)
        return out


def _env(grader: object, tasks: list[Task]) -> Environment:
    return Environment(name="kotlin-fn", grader=grader, load_tasks=lambda: tasks)  # type: ignore[arg-type]


def test_a_stack_without_syntax_support_is_fenced_with_its_own_tag() -> None:
    env = _env(FakeJudge(), [TASK])
    cands = code_candidates(env, TASK, "text", GapOptions(max_mutants=5))
    fenced = [c.completion for c in cands if c.name != "empty"]
    assert len(fenced) > 3 and all(c.startswith("```kotlin\n") for c in fenced)
    assert not any("```text" in c.completion for c in cands)
    # a grader the audit knows no fence tag for: an untagged block, which extractors accept
    plain = _env(SimpleNamespace(name="other"), [TASK])
    assert code_candidates(plain, TASK, "text", GapOptions(max_mutants=0))[0].completion == (
        f"```\n{KOTLIN}```\n"
    )
    whole = _env(SimpleNamespace(name="code", options=SimpleNamespace(extract="whole")), [TASK])
    assert code_candidates(whole, TASK, "text", GapOptions(max_mutants=0))[0].completion == KOTLIN


def test_progress_counts_answers_as_the_batches_end() -> None:
    judge = FakeJudge(batch_size=3)
    env = _env(judge, [TASK, TASK.model_copy(update={"id": "kt/add2"})])
    planned: list[int] = []
    graded: list[int] = []
    audits, summary = audit_env(env, env.tasks(), GapOptions(max_mutants=6, workers=1),
                                on_graded=graded.append, on_planned=planned.append)  # fmt: skip
    assert len(planned) == 1 and sum(graded) == planned[0] == len(judge.seen)
    assert len(graded) > 2 * 2 and max(graded) <= 3  # several steps per task, one per batch
    assert judge.calls == 2  # still one grade_groups call per task
    assert all(a.reference_passed for a in audits) and summary.tasks_without_reference == 0


def test_an_environment_without_references_is_refused() -> None:
    bare = TASK.model_copy(update={"id": "kt/bare", "reference": None})
    env = _env(FakeJudge(), [bare])
    with pytest.raises(RlvrError) as e:
        audit_env(env, [bare], GapOptions())
    assert "none of the 1 tasks to audit has a reference solution" in e.value.message
    assert "--skip-missing" not in (e.value.fix or "")
    # some without: audited with what there is, and each one is a gap that says why
    audits, summary = audit_env(env, [TASK, bare], GapOptions(max_mutants=2))
    assert audits[1].gap and audits[1].reasons[0] == NO_REFERENCE
    assert summary.tasks_without_reference == 1


MANIFEST = """
name = "cpp-noref"
[tasks]
path = "tasks.jsonl"
[prompt]
template = "{prompt}"
[grader]
kind = "code"
[grader.options]
language = ["cpp"]
[sandbox]
image = "rlvr-test-cpp:bookworm"
answer_file = "solution.cpp"
test_files = { hidden = "hidden_test.cpp" }
test_command = ["true"]
report = "junit-xml"
report_from = "file"
report_file = "{scratch}/report.xml"
"""


def test_cli_audit_without_references_exits_nonzero_with_the_fix(tmp_path: Path) -> None:
    folder = tmp_path / "envs" / "cpp-noref"
    folder.mkdir(parents=True)
    (folder / "env.toml").write_text(MANIFEST)
    task = {"id": "c/add", "prompt": "int add(int a, int b)", "hidden_tests": "x"}
    (folder / "tasks.jsonl").write_text(json.dumps(task) + "\n")
    result = subprocess.run(
        [*RLVR, "audit", "graders", "--env", "cpp-noref", "--env-path", str(tmp_path / "envs"),
         "--out", str(tmp_path / "out")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    err = " ".join(result.stderr.split())
    assert "cpp-noref: none of the 1 tasks to audit has a reference solution" in err
    assert 'add a "reference" field to the task\'s line in' in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()
