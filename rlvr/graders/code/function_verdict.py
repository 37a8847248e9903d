"""Turn one driver run into a verdict: who is at fault first, then the cases.

Order of the rules: no runner result or a runner error -> that answer alone (rejected, or
`grader_error` when the runner says it broke; no result after an OOM kill in its job is its
memory failure); state the wipe after the job could not remove -> reject (never the next
job's); no `@@RLVR-READY` line -> `grader_error` (the harness failed before any answer code
existed); a limit hit (time, memory, output) or
processes outliving the driver -> reject, with whatever cases did report; a forged or malformed
result line -> reject; no case reported and a failing exit -> reject as "did not compile or
load" with the toolchain's message; otherwise the judge's per-case outcomes decide:
`all_pass` (1 only when every case passed) or `fraction`. Each verdict names its failure cause
and carries one test outcome per case (`case N`, public or hidden as the task declares).
"""

from __future__ import annotations

from typing import Any

from rlvr.functions.judge import CaseOutcome, judge_cases, read_driver_output
from rlvr.functions.task import FunctionTask
from rlvr.graders.code.verdict import left_behind_verdict, runner_oom_verdict
from rlvr.types import FailureCause, TestOutcome, Verdict

OUTPUT_CHARS = 2000


def _tail(text: str, n: int = 600) -> str:
    text = text.strip()
    return text if len(text) <= n else "..." + text[-n:]


def _limit(r: dict[str, Any]) -> tuple[FailureCause, str] | None:
    if r.get("timed_out"):
        return "timeout", "timeout"
    if r.get("oom"):
        return "memory_limit", "memory limit exceeded"
    if r.get("output_overflow"):
        return "output_limit", "output limit exceeded"
    if r.get("lingering"):
        names = ", ".join(str(n) for n in r["lingering"][:5])
        return "lingering_processes", f"processes outlived the driver ({names})"
    return None


def case_tests(outcomes: list[CaseOutcome]) -> list[TestOutcome]:
    """The judge's per-case outcomes as the verdict's test outcomes."""
    return [
        TestOutcome(name=f"case {o.case}", outcome=o.outcome, message=o.reason,
                    visibility="hidden" if o.hidden else "public")
        for o in outcomes
    ]  # fmt: skip


def _details(r: dict[str, Any], outcomes: list[CaseOutcome]) -> dict[str, Any]:
    return {
        "cases": [o.model_dump() for o in outcomes],
        "passed": sum(o.outcome == "passed" for o in outcomes),
        "n_cases": len(outcomes),
        "exit_code": r.get("exit_code"),
        "duration_s": r.get("duration_s"),
        "stderr": str(r.get("stderr", ""))[-OUTPUT_CHARS:],
    }


def _summary(outcomes: list[CaseOutcome]) -> str:
    bad = [o for o in outcomes if o.outcome != "passed"]
    first = bad[0]
    label = "hidden" if first.hidden else "public"
    return (
        f"{len(outcomes) - len(bad)}/{len(outcomes)} cases passed; "
        f"case {first.case} ({label}) {first.outcome}: {first.reason[:240]}"
    )


def function_verdict(task: FunctionTask, out: Any, reward: str) -> Verdict:
    """Verdict for one driver job (out: rlvr.sandbox.docker.ExecOutcome)."""
    if out.watchdog:
        return Verdict.reject("timeout", details={"timed_out": True, "watchdog": True},
                              cause="timeout")  # fmt: skip
    r = out.result
    if r is None and getattr(out, "oom", False):
        return runner_oom_verdict(out)
    if r is None:
        return Verdict.reject(
            "no result from the sandbox runner (the answer killed or disturbed it)",
            details={"exit_code": out.exit_code, "stderr": out.stderr[-OUTPUT_CHARS:]},
            cause="runner_killed",
        )
    if "error" in r:
        return Verdict.error("grader_error", f"sandbox runner: {str(r['error'])[:300]}")
    if r.get("left_behind"):
        return left_behind_verdict(r, {"exit_code": r.get("exit_code")})
    n = len(task.cases)
    report = read_driver_output(str(r.get("stdout", "")), n)
    outcomes = judge_cases(task, report)
    details, tests = _details(r, outcomes), case_tests(outcomes)
    if not report.ready:
        why = _tail(str(r.get("stderr", "")), 300) or f"exit status {r.get('exit_code')}"
        return Verdict.error("grader_error", f"the driver failed before the answer ran: {why}",
                             details=details)  # fmt: skip
    limit = _limit(r)
    if limit:
        return Verdict.reject(limit[1], details=details, tests=tests, cause=limit[0])
    if report.problem:
        return Verdict.reject(report.problem, details=details, tests=tests, cause="bad_report")
    if not report.lines and r.get("exit_code") != 0:
        msg = _tail(str(r.get("stderr", ""))) or f"exit status {r.get('exit_code')}"
        return Verdict.reject(f"the answer did not compile or load: {msg}", details=details,
                              tests=tests, cause="build_failed")  # fmt: skip
    passed = details["passed"]
    if passed == n:
        return Verdict.score(1.0, f"all {n} cases passed", details=details, tests=tests)
    value = passed / n if reward == "fraction" else 0.0
    return Verdict.score(value, _summary(outcomes), passed=False, details=details, tests=tests,
                         cause="tests_failed")  # fmt: skip
