"""Worker results of the math grader, turned into verdicts.

A gold that cannot be read in time, or at all, is masked (`timeout` or `grader_error`, no
reward). An answer that crashes the checker scores 0 with a flag, and one whose check outlasted
its second deadline scores 0 (cause `timeout`) unless the options mask it: masked, either would
let an answer dodge the zero of a wrong one.
"""

from __future__ import annotations

from typing import Any

from rlvr.graders.bounded import JobResult
from rlvr.shorten import shorten
from rlvr.types import Flag, Verdict

DETAIL_CHARS = 300


def clip(text: str) -> str:
    """Shorten a string for `details`."""
    return shorten(text, DETAIL_CHARS)


def gold_problem(result: JobResult, timeout_s: float) -> Verdict | None:
    """The masked verdict every answer of a group gets when its gold cannot be read."""
    if result.status == "timeout":
        return Verdict.error("timeout", f"reading the gold answer took longer than {timeout_s:g} s")
    if result.status != "ok":
        return Verdict.error("grader_error", f"reading the gold answer failed: {result.error}")
    if result.value["status"] != "ok":
        return Verdict.error("grader_error", result.value["reason"])
    return None


def worker_verdict(
    result: JobResult, details: dict[str, Any], timeout_s: float, reject_late: bool = False
) -> Verdict:
    """The verdict of one answer from its worker result, after its second try: a crash scores
    0 with a `checker_exception` flag; a timeout scores 0 when `reject_late` and is masked
    otherwise."""
    details = {**details, "path": "worker"}
    if result.status == "timeout":
        if reject_late:
            reason = (
                f"checking the answer took longer than {timeout_s:g} s, and {2 * timeout_s:g} s "
                "on a second try: an answer must be cheap to check"
            )
            details["timed_out"] = True
            return Verdict.reject(
                reason, cause="timeout", details=details, duration_s=result.duration_s
            )
        reason = f"checking the answer took longer than {timeout_s:g} s; the worker was replaced"
        return Verdict.error("timeout", reason, details=details, duration_s=result.duration_s)
    if result.status != "ok":  # the gold was read: it is this answer that broke the checker
        return broke_checker(str(result.error), details, result.duration_s)
    value = result.value
    if value["status"] != "scored":
        return Verdict.error("grader_error", value["reason"], details=details)
    details["gold_parsed"] = clip(value["gold_parsed"])
    details["answer_parsed"] = [clip(a) for a in value["answer_parsed"]]
    passed = bool(value["passed"])
    flags = [Flag(kind="checker_exception", evidence=e) for e in value["checker_exceptions"]]
    return Verdict.score(
        1.0 if passed else 0.0,
        value["reason"],
        passed=passed,
        details=details,
        flags=flags,
        duration_s=result.duration_s,
    )


def broke_checker(error: str, details: dict[str, Any], duration_s: float | None = None) -> Verdict:
    """An answer that crashes the checker (a readable gold) scores 0 with a `checker_exception`
    flag: masked, a crash would let an answer dodge the 0 of a wrong one."""
    return Verdict.reject(
        f"the math checker failed on this answer ({clip(error)}): an answer must be checkable",
        details=details,
        flags=[Flag(kind="checker_exception", evidence=clip(error))],
        duration_s=duration_s,
    )
