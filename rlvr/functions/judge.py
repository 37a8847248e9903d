"""The host-side judge of function tasks: read a driver's output, compare each case.

A driver (rendered by the stack's translator, run in the sandbox) calls the answer with each
case's arguments and prints plain data on stdout:

    @@RLVR-READY                                   before any answer code can run
    @@RLVR-CASE {"case": 0, "ok": true, "value": <canonical JSON of the result>}
    @@RLVR-CASE {"case": 1, "ok": false, "error": "ZeroDivisionError: division by zero"}

Every other line (what the answer prints) is ignored. The expected values never leave the
host, so nothing the answer does in its own process can pass a case except producing the right
value: an always-equal object is serialised (or refused) before any comparison, an early exit
leaves cases missing, and a forged line carries no more than a returned value could. A
`@@RLVR-CASE` line that does not validate, names an unknown case or repeats one is the answer's
failure (correct answers never print one). No `@@RLVR-READY` means the harness failed before
the answer existed: that is the grader's fault, never the answer's.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rlvr.functions.task import FunctionTask
from rlvr.functions.typelang import TypeMismatch, decode, parse_type, values_equal

READY = "@@RLVR-READY"
CASE = "@@RLVR-CASE "
MAX_LINE = 1 << 20
Outcome = Literal["passed", "failed", "error", "missing"]


class CaseLine(BaseModel):
    """One result line of a driver (schema-validated; unknown keys rejected)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    case: int = Field(ge=0)
    ok: bool
    value: Any = None
    error: str | None = Field(default=None, max_length=4000)


class CaseOutcome(BaseModel):
    """The judge's decision on one case."""

    model_config = ConfigDict(extra="forbid")

    case: int
    hidden: bool
    outcome: Outcome
    reason: str = ""


class DriverOutput(BaseModel):
    """What a driver's stdout says: whether it got going, its result lines, and any forgery."""

    model_config = ConfigDict(extra="forbid")

    ready: bool
    lines: dict[int, CaseLine]
    problem: str | None = None


def read_driver_output(stdout: str, n_cases: int) -> DriverOutput:
    """Parse a driver's stdout; never raises (a bad result line becomes `problem`)."""
    ready, lines, problem = False, {}, None
    for raw in stdout.splitlines():
        line = raw.rstrip("\r")
        if line == READY:
            ready = True
            continue
        if not line.startswith(CASE) or problem:
            continue
        got = _case_line(line[len(CASE) :], n_cases)
        if isinstance(got, str):
            problem = got
        elif got.case in lines:
            problem = f"case {got.case} was reported twice (a forged result line)"
        else:
            lines[got.case] = got
    return DriverOutput(ready=ready, lines=lines, problem=problem)


def _case_line(text: str, n_cases: int) -> CaseLine | str:
    if len(text) > MAX_LINE:
        return f"a result line is longer than {MAX_LINE} bytes"
    try:
        data = json.loads(text, parse_constant=_no_constant)
        line = CaseLine.model_validate(data)
    except (ValueError, ValidationError, RecursionError) as e:
        return f"malformed result line ({type(e).__name__}: {str(e)[:160]})"
    if line.case >= n_cases:
        return f"result line for case {line.case}, but the task has {n_cases} cases"
    return line


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON; drivers write non-finite floats as strings")


def judge_cases(task: FunctionTask, out: DriverOutput) -> list[CaseOutcome]:
    """One outcome per case, in driver order (public cases first, then hidden)."""
    ret = parse_type(task.signature.returns)
    n_public = len(task.public_cases)
    outcomes = []
    for i, case in enumerate(task.cases):
        hidden = i >= n_public
        line = out.lines.get(i)
        if line is None:
            why = "no result (a crash, an exit or the time limit came first)"
            outcomes.append(CaseOutcome(case=i, hidden=hidden, outcome="missing", reason=why))
            continue
        if case.raises:
            outcomes.append(_must_raise(i, hidden, line))
            continue
        if not line.ok:
            outcomes.append(CaseOutcome(case=i, hidden=hidden, outcome="error",
                                        reason=f"raised {(line.error or '')[:300]}"))  # fmt: skip
            continue
        outcomes.append(_compare(i, hidden, ret, line.value, case.expected, case.abs_tol))
    return outcomes


def _must_raise(i: int, hidden: bool, line: CaseLine) -> CaseOutcome:
    """A `raises` case passes when the call failed, whatever it returned otherwise."""
    if not line.ok:
        return CaseOutcome(case=i, hidden=hidden, outcome="passed")
    reason = f"returned {json.dumps(line.value)[:200]}"
    if not hidden:
        reason += ", expected an error"
    return CaseOutcome(case=i, hidden=hidden, outcome="failed", reason=reason)


def _compare(
    i: int, hidden: bool, ret: Any, got_json: Any, want_json: Any, tol: Any
) -> CaseOutcome:
    shown = json.dumps(got_json)[:200]
    try:
        got = decode(ret, got_json)
    except (TypeMismatch, RecursionError) as e:
        return CaseOutcome(case=i, hidden=hidden, outcome="failed",
                           reason=f"returned {shown}, not a {ret}: {str(e)[:200]}")  # fmt: skip
    want = decode(ret, want_json)
    if values_equal(ret, got, want, tol):
        return CaseOutcome(case=i, hidden=hidden, outcome="passed")
    reason = f"returned {shown}"
    if not hidden:  # hidden expected values stay out of verdicts that may be shown to a model
        reason += f", expected {json.dumps(want_json)[:200]}"
    return CaseOutcome(case=i, hidden=hidden, outcome="failed", reason=reason)
