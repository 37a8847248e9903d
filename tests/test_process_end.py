"""An answer that ends the tests' process (System.exit, os.Exit during a test) is told apart from
one that broke the build, from what the run shows; the task's reference decides whose fault."""

from __future__ import annotations

from typing import Any

from rlvr.graders.code.grader import settle_no_test
from rlvr.graders.code.verdict import command_verdict
from rlvr.sandbox.docker import ExecOutcome
from rlvr.sandbox.reports import ReportAdapter
from rlvr.sandbox.reports.junit import parse_junit_xml
from rlvr.sandbox.spec import SandboxSpec
from rlvr.types import Verdict

JUNIT = ReportAdapter("junit-xml", parse_junit_xml)
ONE_COMMAND = SandboxSpec(image="x", test_command=["t"], report_from="file",
                          report_file="{scratch}/r.xml")  # fmt: skip
BUILT = ONE_COMMAND.model_copy(update={"build_command": ["b"]})


def run(spec: SandboxSpec, code: int, stderr: str = "", report: str | None = None) -> Verdict:
    result: dict[str, Any] = {"exit_code": code, "stdout": "", "stderr": stderr,
                              "report": report, "clean": True}  # fmt: skip
    return command_verdict(ExecOutcome(result, 0, ""), JUNIT, "n", 2, None, "all_pass", spec)


def test_exit_zero_without_a_report_is_the_answer_ending_the_test_process() -> None:
    v = run(ONE_COMMAND, 0, "cat: /tmp/reports/*.xml: No such file or directory", report="")
    assert v.status == "grader_error" and v.cause == "no_test_ran"  # until the reference runs
    settled = settle_no_test(v, reference_ran=True)
    assert (settled.status, settled.reward) == ("scored", 0.0)
    assert settled.reason.startswith(
        "the answer ended the test process before any test result was written (the test "
        "command exited with status 0 yet wrote no test result; the task's reference runs its "
        "tests): an exit call (System.exit, os.Exit, process::exit, os._exit)"
    ), settled.reason
    assert "broke the build" not in settled.reason


def test_a_passed_build_step_a_signal_or_a_silent_failure_is_an_ended_process() -> None:
    built = settle_no_test(run(BUILT, 2, "panic: unexpected call to os.Exit(0)"), True)
    assert "(its build passed, then the test command exited with status 2;" in built.reason
    killed = settle_no_test(run(ONE_COMMAND, -9), True)
    assert "(the test process was killed by signal 9;" in killed.reason
    silent = settle_no_test(run(ONE_COMMAND, 1), True)
    assert "exited with status 1 and nothing it printed names an error" in silent.reason
    for v in (built, killed, silent):
        assert v.reason.startswith("the answer ended the test process") and v.reward == 0.0


def test_a_compiler_error_still_reads_as_a_broken_build() -> None:
    error = "Solution.java:3: error: ';' expected\n1 error"
    v = settle_no_test(run(ONE_COMMAND, 1, error), True)
    assert v.reason.startswith("the test command ended before any test ran"), v.reason
    assert "Solution.java:3: error: ';' expected" in v.reason
    assert v.reason.endswith("so the answer broke the build or the runner")


def test_the_task_is_at_fault_when_its_reference_ends_the_same_way() -> None:
    v = settle_no_test(run(ONE_COMMAND, 0, report=""), reference_ran=False)
    assert v.status == "grader_error" and "reference fails the same way" in v.reason
    assert v.details["process_ended"]  # the evidence stays in the details for a reader


def test_a_memory_limit_before_any_test_is_named_as_such() -> None:
    result = {"exit_code": 137, "stdout": "", "stderr": "", "report": None, "oom": True,
              "clean": True}  # fmt: skip
    out = ExecOutcome(result, 0, "")
    v = command_verdict(out, JUNIT, "n", 2, None, "all_pass", BUILT)
    assert "process_ended" not in v.details
    assert settle_no_test(v, True).reason == "memory limit exceeded"
