"""Turn a sandbox run into a verdict: limits first, then the report, then the test count.

Kept apart from the grader so the decision rules read in one place:
timeout / memory / output limits -> reject with that reason; no runner result -> reject (the
answer interfered with the runner); processes still running when the test command ended ->
reject (they could have rewritten the report); duplicated, missing or unknown test names ->
reject; fewer or more tests than expected -> reject; otherwise reward = all_pass (1 or 0) or
fraction passed.

Two cases are the grader's problem, not a score: a report adapter that raises (`grader_error`
with the exception and its traceback), and a test command that ended before any test ran (no
report, or only the runner's own `(exit status N)` / `<session>` entries; a compile error, a
crashed runner, memory exhausted before the first test). The latter is a `grader_error` with
cause `no_test_ran`; the code grader then runs the task's reference once to tell a broken task
(masked) from an answer that broke the build or ended the test process (scored 0), see grader.py.
Which of the two the answer did is read from the run (`process_end`): a build step that passed,
a test command that exited 0 yet wrote no result, a signal, or a failure whose output names no
error all mean the tests' process started and the answer ended it (System.exit, os.Exit,
process::exit, a halt or a crash); the reason then says so instead of blaming the build.

Every verdict names its failure cause (`Verdict.cause`) and carries the per-test outcomes
(`Verdict.tests`), each marked public or hidden where the task says which tests it showed.
"""

from __future__ import annotations

import re
import traceback
from collections import Counter
from typing import Any

from rlvr.sandbox.reports import ReportAdapter, ReportInput
from rlvr.sandbox.spec import SandboxSpec
from rlvr.types import FailureCause, TestOutcome, Verdict, Visibility

MESSAGE_CHARS = 500
OUTPUT_CHARS = 2000
TRACEBACK_CHARS = 4000
NO_TEST_RAN = "the test command ended before any test ran"


def _last_line(message: str) -> str:
    lines = [ln.strip() for ln in message.strip().splitlines() if ln.strip()]
    return lines[-1][:160] if lines else "no message"


def infra_verdict(detail: str) -> Verdict:
    return Verdict.error("infra_error", f"sandbox failed twice (masked): {detail[:300]}")


RUNNER_OOM = (
    "memory limit exceeded: the out-of-memory killer ended the sandbox's runner during this "
    "answer's job, so the answer filled the memory"
)


def runner_oom_verdict(out: Any) -> Verdict:
    """No result, after an OOM kill during the job (`ExecOutcome.oom`): the answer's failure."""
    return Verdict.reject(RUNNER_OOM, cause="memory_limit",
                          details={"oom": True, "runner_killed": True,
                                   "stderr": str(out.stderr)[-OUTPUT_CHARS:]})  # fmt: skip


def left_behind_verdict(r: dict[str, Any], details: dict[str, Any]) -> Verdict:
    """The wipe after this job found state it could not remove: the job's doing (scored 0), so
    no later job is blamed for it; its container is retired."""
    left = [str(x) for x in r.get("left_behind") or []]
    details["left_behind"] = left
    what = "; ".join(left)[:300]
    return Verdict.reject(f"left state in the sandbox that its wipe could not remove ({what})",
                          details=details, cause="memory_limit")  # fmt: skip


LIMIT_REASONS: dict[FailureCause, str] = {
    "memory_limit": "memory limit exceeded",
    "timeout": "timeout",
    "output_limit": "output limit exceeded",
}


def _limit_hit(r: dict[str, Any]) -> FailureCause | None:
    if r.get("oom"):  # a job slowed to its deadline by memory pressure names the memory
        return "memory_limit"
    if r.get("timed_out"):
        return "timeout"
    if r.get("output_overflow"):
        return "output_limit"
    return None


def public_names(meta: dict[str, Any], public_file: str | None) -> set[str] | None:
    """The names of the tests the prompt shows: the first `n_public` of `meta.test_names`, else
    those in the public test file (pytest ids start with its name); None when unknown."""
    names, n_public = meta.get("test_names"), meta.get("n_public")
    if isinstance(names, list) and isinstance(n_public, int):
        return set(map(str, names[:n_public]))
    if public_file:
        return {public_file.rsplit("/", 1)[-1]}
    return None


def visibility_of(name: str, public: set[str] | None) -> Visibility | None:
    """Whether the test called `name` is among the `public` ones (None: not known)."""
    if public is None:
        return None
    return "public" if name in public or name.split("::")[0] in public else "hidden"


def typed_outcomes(outcomes: list[TestOutcome], public: set[str] | None) -> list[TestOutcome]:
    """The outcomes with capped messages, marked public or hidden when `public` is known."""
    return [
        o.model_copy(update={"message": o.message[:MESSAGE_CHARS],
                             "visibility": visibility_of(o.name, public)})
        for o in outcomes
    ]  # fmt: skip


def _run_details(r: dict[str, Any]) -> dict[str, Any]:
    return {
        "exit_code": r.get("exit_code"),
        "duration_s": r.get("duration_s"),
        "timed_out": bool(r.get("timed_out")),
        "oom": bool(r.get("oom")),
        "pids_limit_hit": bool(r.get("pids_max")),
        "lingering": list(r.get("lingering") or []),
        "stdout": str(r.get("stdout", ""))[:OUTPUT_CHARS],
        "stderr": str(r.get("stderr", ""))[:OUTPUT_CHARS],
        "answer_output": str(r.get("answer_output", ""))[:OUTPUT_CHARS],
    }


def _name_problem(outcomes: list[TestOutcome], names: list[str] | None) -> str | None:
    got = Counter(o.name for o in outcomes)
    dups = sorted(n for n, k in got.items() if k > 1)
    if dups:
        return f"duplicate test names in the report: {dups[:5]}"
    if names is None:
        return None
    want = Counter(names)
    missing = sorted((want - got).elements())
    unknown = sorted((got - want).elements())
    if missing or unknown:
        return f"unexpected test names: missing {missing[:5]}, unknown {unknown[:5]}"
    return None


def _no_real_test(outcomes: list[TestOutcome]) -> bool:
    """Only the runner's pseudo-tests (`(exit status N)`, `<session>`): no test ran."""
    return all(o.name.startswith(("(", "<")) for o in outcomes)


def _said(outcomes: list[TestOutcome], details: dict[str, Any]) -> str:
    """What the run said about itself: the first test message, else stderr, else stdout."""
    said = next((o.message for o in outcomes if o.message.strip()), "")
    return said or str(details.get("stderr", "")) or str(details.get("stdout", ""))


def no_test_verdict(
    why: str, outcomes: list[TestOutcome], details: dict[str, Any], built: bool = False
) -> Verdict:
    """Masked verdict for a test command that ended before any test ran (see module docstring);
    `built`: the stack's build step ran and passed before the test command."""
    details["no_test_ran"] = True  # for readers of `rlvr grade` lines; code reads the cause
    ended = process_end(outcomes, details, built)
    if ended:
        details["process_ended"] = ended
    said = _error_line(_said(outcomes, details))
    return Verdict.error("grader_error", f"{NO_TEST_RAN} ({why}): {said}",
                         details=details, tests=typed_outcomes(outcomes, None),
                         cause="no_test_ran")  # fmt: skip


def process_end(outcomes: list[TestOutcome], details: dict[str, Any], built: bool) -> str | None:
    """Why a run without test results looks ended from inside the tests' process rather than
    broken before it started (None: no such evidence; a limit hit is its own reason).

    The task's reference decides whose fault it is (grader.settle_no_test); this only tells an
    answer that ended the process from one that did not compile."""
    code = details.get("exit_code")
    if details.get("limit") or not isinstance(code, int):
        return None
    if built:
        return f"its build passed, then the test command exited with status {code}"
    if code == 0:
        return "the test command exited with status 0 yet wrote no test result"
    if code < 0:
        return f"the test process was killed by signal {-code}"
    texts = [o.message for o in outcomes]
    texts += [str(details.get(k, "")) for k in ("stdout", "stderr", "answer_output")]
    if not any(re.search("error", t, re.I) for t in texts):
        return f"the test command exited with status {code} and nothing it printed names an error"
    return None


def ended_process_verdict(v: Verdict) -> Verdict:
    """A no-test-ran verdict with `process_ended` evidence, once the task's reference was seen
    to run its tests: the answer ended the tests' process (scored 0, the reason says how)."""
    said = _error_line(_said(v.tests, v.details))
    reason = (
        "the answer ended the test process before any test result was written "
        f"({v.details['process_ended']}; the task's reference runs its tests): an exit call "
        "(System.exit, os.Exit, process::exit, os._exit), a halt or a crash during the tests; "
        f"the run said: {said}"
    )
    return Verdict.reject(reason, details=v.details, tests=v.tests, cause=v.cause)


def _error_line(text: str) -> str:
    """The first line that names an error (a compiler's first complaint), else the last line."""
    for line in text.splitlines():
        if re.search(r"\berror\b", line, re.I):
            return line.strip()[:160]
    return _last_line(text)


def score_outcomes(
    outcomes: list[TestOutcome], expected: int, names: list[str] | None, reward: str,
    details: dict[str, Any], public: set[str] | None = None,
) -> Verdict:  # fmt: skip
    """The decision on a parsed report (see module docstring); `public`: see `public_names`."""
    tests = typed_outcomes(outcomes, public)
    details["expected"] = expected
    passed = sum(o.outcome == "passed" for o in outcomes)
    details["passed"] = passed
    problem = _name_problem(outcomes, names)
    if problem:
        return Verdict.reject(problem, details=details, tests=tests, cause="bad_report")
    if len(outcomes) != expected:
        why = next((o for o in outcomes if o.outcome != "passed"), None)
        hint = f" ({why.name}: {_last_line(why.message)})" if why else ""
        return Verdict.reject(f"ran {len(outcomes)} tests but {expected} were expected{hint}",
                              details=details, tests=tests, cause="bad_report")  # fmt: skip
    if passed == expected:
        return Verdict.score(1.0, f"all {expected} tests passed", details=details, tests=tests)
    failed = [o.name for o in outcomes if o.outcome != "passed"]
    value = passed / expected if reward == "fraction" and expected else 0.0
    reason = f"{passed}/{expected} tests passed; failed: {failed[:3]}{_one_cause(outcomes)}"
    return Verdict.score(value, reason, passed=False, details=details, tests=tests,
                         cause="tests_failed")  # fmt: skip


def _one_cause(outcomes: list[TestOutcome]) -> str:
    """`; every failure: WHY` when two or more tests failed and every message starts with the
    same line (the answer's process ended, it does not compile): the reason says what happened."""
    bad = [o for o in outcomes if o.outcome != "passed"]
    firsts = {(o.message.strip().splitlines() or [""])[0].strip() for o in bad}
    line = firsts.pop() if len(bad) > 1 and len(firsts) == 1 else ""
    return f"; every failure: {line[:200]}" if line else ""


def _without_report(out: Any) -> Verdict | None:
    """The verdict of a run whose report does not matter (no result, a runner error, state left
    behind, the host's watchdog), else None."""
    if out.watchdog:
        return Verdict.reject("timeout", details={"timed_out": True, "watchdog": True},
                              cause="timeout")  # fmt: skip
    r = out.result
    if r is None and getattr(out, "oom", False):
        return runner_oom_verdict(out)
    if r is None:  # no answer can reach the runner: the sandbox failed, mask it
        return infra_verdict(f"no valid result from the sandbox runner: {out.stderr[:200]}")
    if "error" in r:
        return Verdict.error("grader_error", f"sandbox runner: {r['error']}")
    if r.get("left_behind"):
        return left_behind_verdict(r, _run_details(r))
    return None


def command_verdict(
    out: Any, adapter: ReportAdapter, nonce: str, expected: int, names: list[str] | None,
    reward: str, spec: SandboxSpec, public: set[str] | None = None,
) -> Verdict:  # fmt: skip
    """Verdict for one `run` job (out: rlvr.sandbox.docker.ExecOutcome)."""
    early = _without_report(out)
    if early is not None:
        return early
    r = out.result
    details = _run_details(r)
    limit = _limit_hit(r)
    reason = LIMIT_REASONS[limit] if limit else None
    if limit and limit != "memory_limit":
        return Verdict.reject(LIMIT_REASONS[limit], details=details, cause=limit)
    if r.get("build_failed"):
        why = (str(r.get("stderr", "")).strip() or str(r.get("stdout", "")).strip())[-300:]
        return Verdict.reject(f"the answer does not build: {_last_line(why)}", details=details,
                              cause="build_failed")  # fmt: skip
    if r.get("lingering"):  # they could have rewritten the report after the command ended
        names = ", ".join(str(n) for n in r["lingering"][:5])
        return Verdict.reject(
            f"processes outlived the test command ({names}); its report is not trusted",
            details=details, cause="lingering_processes",
        )  # fmt: skip
    report = r.get("stdout") if spec.report_from == "stdout" else r.get("report")
    if reason:  # a limit hit before any test ran: the answer's, unless the reference hits it too
        details["limit"] = reason
    built = bool(spec.build_command)
    if report is None:
        return no_test_verdict(reason or "no test report was written", [], details, built)
    inp = ReportInput(stdout=r.get("stdout", ""), stderr=r.get("stderr", ""), report=report,
                      exit_code=r.get("exit_code"), nonce=nonce)  # fmt: skip
    try:
        outcomes = adapter.parse(inp)
    except Exception as e:
        details["traceback"] = traceback.format_exc()[-TRACEBACK_CHARS:]
        return Verdict.error("grader_error", f"report adapter {adapter.name!r} raised "
                             f"{type(e).__name__}: {e}"[:500], details=details)  # fmt: skip
    if _no_real_test(outcomes):
        return no_test_verdict(reason or "the report lists no test", outcomes, details, built)
    if reason:  # memory exhausted after some tests ran
        return Verdict.reject(reason, details=details, tests=typed_outcomes(outcomes, public),
                              cause="memory_limit")  # fmt: skip
    return score_outcomes(outcomes, expected, names, reward, details, public)


def pycheck_verdicts(out: Any, n: int, reward: str) -> list[Verdict] | None:
    """Verdicts for one python-check chunk, one per answer that ran (the runner stops after an
    answer that leaves the container in doubt; the caller runs the rest elsewhere); None when
    the runner returned nothing usable."""
    r = out.result
    if r is not None and "error" in r:
        return [Verdict.error("grader_error", f"sandbox runner: {r['error']}") for _ in range(n)]
    if r is None and getattr(out, "oom", False) and n == 1:
        return [runner_oom_verdict(out)]
    if out.watchdog or r is None or not 0 < len(r.get("results", [])) <= n:
        return None
    verdicts = []
    for res in r["results"]:
        details = {"duration_s": res.get("duration_s"), "timed_out": bool(res.get("timed_out")),
                   "output": str(res.get("output", ""))[:OUTPUT_CHARS],
                   "oom": bool(res.get("oom")),
                   "pids_limit_hit": bool(res.get("pids_max"))}  # fmt: skip
        outcome = TestOutcome(name="check", outcome=res.get("outcome", "failed"),
                              message=str(res.get("message", ""))[:MESSAGE_CHARS])  # fmt: skip
        if res.get("left_behind"):
            verdicts.append(left_behind_verdict(res, details))
        elif res.get("timed_out"):
            verdicts.append(Verdict.reject("timeout", details=details, cause="timeout"))
        elif res.get("oom"):
            verdicts.append(Verdict.reject(LIMIT_REASONS["memory_limit"], details=details,
                                           tests=[outcome], cause="memory_limit"))  # fmt: skip
        else:
            verdicts.append(score_outcomes([outcome], 1, None, reward, details))
    return verdicts
