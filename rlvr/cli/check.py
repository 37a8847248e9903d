"""`rlvr check`: grade bare (gold, answer) pairs without an environment.

Contract: one JSON line per input line, `{"accepted", "status", "reason", ...copied keys}`, in
input order. The single-pair form exits 0 if accepted, 1 if rejected, 2 on a grader error.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Annotated, Any

import typer

from rlvr.cli.common import emit, read_jsonl, require_file
from rlvr.graders.math import check as math_check
from rlvr.graders.toolcall import check as toolcall_check
from rlvr.types import Verdict

app = typer.Typer(help="Check answers against golds with one grader.", no_args_is_help=True)

CasesOpt = Annotated[
    Path | None, typer.Option("--cases", help="JSONL file of cases ('-' for stdin).")
]
WorkersOpt = Annotated[int, typer.Option("--workers", help="Cases checked at once.", min=1)]

CaseChecker = Callable[[dict[str, Any]], Verdict]


def _row(case: dict[str, Any], verdict: Verdict, consumed: tuple[str, ...]) -> dict[str, Any]:
    row: dict[str, Any] = {
        "accepted": verdict.is_scored and verdict.passed,
        "status": verdict.status,
        "reason": verdict.reason,
    }
    row.update({k: v for k, v in case.items() if k not in consumed and k not in row})
    return row


def _run_cases(
    path: Path, check: CaseChecker, needs: tuple[str, ...], consumed: tuple[str, ...], workers: int
) -> None:
    require_file(path, "cases file")

    def one(item: tuple[int, dict[str, Any] | str]) -> dict[str, Any]:
        lineno, case = item
        if isinstance(case, str):
            return {"accepted": False, "status": "input_error", "reason": case}
        missing = [k for k in needs if k not in case]
        if missing:
            reason = f"line {lineno}: missing key(s) {missing}; each line needs {list(needs)}"
            return _row(case, Verdict.error("grader_error", reason), consumed) | {
                "status": "input_error"
            }
        return _row(case, check(case), consumed)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for row in pool.map(one, read_jsonl(path)):
            emit(row)


def _exit_for(verdict: Verdict) -> int:
    if not verdict.is_scored:
        return 2
    return 0 if verdict.passed else 1


@app.command("math")
def check_math(
    gold: Annotated[str | None, typer.Argument(help="Gold answer.")] = None,
    answer: Annotated[str | None, typer.Argument(help="Model answer or completion.")] = None,
    cases: CasesOpt = None,
    workers: WorkersOpt = 4,
) -> None:
    """Is ANSWER mathematically equivalent to GOLD? Or check every line of --cases."""
    if cases is not None:
        needs = ("gold", "answer")
        _run_cases(
            cases, lambda c: math_check(str(c["gold"]), str(c["answer"])), needs, needs, workers
        )
        return
    if gold is None or answer is None:
        raise typer.BadParameter("give GOLD and ANSWER, or --cases FILE")
    verdict = math_check(gold, answer)
    emit(_row({}, verdict, ()))
    raise typer.Exit(_exit_for(verdict))


@app.command("toolcall")
def check_toolcall(cases: CasesOpt = None, workers: WorkersOpt = 4) -> None:
    """Check tool calls: each --cases line has `tools`, `expected` (or null) and `answer`."""
    if cases is None:
        raise typer.BadParameter("give --cases FILE")
    _run_cases(
        cases,
        lambda c: toolcall_check(c["tools"], c.get("expected"), str(c["answer"])),
        ("tools", "answer"),
        ("tools", "expected", "answer"),
        workers,
    )
