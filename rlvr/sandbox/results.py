"""The runner's result line, validated: the only thing the host reads from a container.

The runner (root in the container, a uid no answer has) writes one line `@@RLVR-RESULT@@{json}`
on its own stdout. The host reads that stream with a byte cap and a deadline, takes the *first*
line that parses and validates against these models, and ignores everything else. A line that
is missing, oversized, too deeply nested for the parser or of the wrong shape is no result: the
caller masks that job (never a crash, never a pass).
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

RESULT_MARK = b"@@RLVR-RESULT@@"


class _Result(BaseModel):
    model_config = ConfigDict(extra="ignore")


class InstallResult(_Result):
    ok: bool


class RawResult(_Result):
    """Any JSON object (probes of the container itself, `rlvr sandbox doctor`)."""

    model_config = ConfigDict(extra="allow")


class ErrorResult(_Result):
    """The runner could not run the job (a task or manifest bug, a runner crash)."""

    error: str = Field(max_length=100_000)
    clean: bool = False
    agent_fault: bool = False
    """The episode runner could not judge because of what the agent left (scored 0)."""
    stale: bool = False
    """The container held state before the exec's first job: no answer is to blame."""


class LimitsResult(_Result):
    """The container's OOM-kill count (docker.OOM_KILLS), asked after an exec with no result."""

    oom_kills: int = 0


class RunResult(_Result):
    """One command job (runner.py `run`)."""

    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    answer_output: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    report: str | None = None
    duration_s: float = 0.0
    timed_out: bool = False
    output_overflow: bool = False
    build_failed: bool = False
    oom: bool = False
    pids_max: bool = False
    lingering: list[str] = Field(default_factory=list)
    left_behind: list[str] = Field(default_factory=list, max_length=64)
    """What the wipe after this job could not remove: the job is blamed, the container retired."""
    clean: bool = False
    mode: Literal["plain", "build", "server"] = "plain"


class BatchItem(RunResult):
    """One job of a batch: a RunResult, or the runner's reason it could not run that job."""

    error: str | None = Field(default=None, max_length=100_000)


class BatchResult(_Result):
    """Several command jobs in one exec (runner.py `batch`): one item per job that ran, in
    order; the runner stops after a job that leaves the container in doubt."""

    results: list[BatchItem] = Field(max_length=256)
    clean: bool = False


class CheckOne(_Result):
    outcome: Literal["passed", "failed", "error", "skipped"] = "failed"
    message: str = ""
    output: str = ""
    timed_out: bool = False
    duration_s: float = 0.0
    oom: bool = False
    pids_max: bool = False
    left_behind: list[str] = Field(default_factory=list, max_length=64)


class CheckResult(_Result):
    """One python-check group (runner.py `check`): one item per answer that ran, in order; the
    runner stops after an answer that leaves the container in doubt."""

    results: list[CheckOne]
    clean: bool = False
    oom: bool = False
    pids_max: bool = False


def parse_result(out: bytes | bytearray, kind: type[_Result]) -> dict[str, Any] | None:
    """The first well-formed result line of `kind` (or an ErrorResult) in `out`, else None."""
    for line in bytes(out).split(b"\n"):
        if not line.startswith(RESULT_MARK):
            continue
        text = line[len(RESULT_MARK) :].decode("utf-8", "replace")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            continue
        if not isinstance(data, dict):
            continue
        model = ErrorResult if "error" in data else kind
        try:
            return model.model_validate(data).model_dump()
        except ValidationError:
            continue
    return None
