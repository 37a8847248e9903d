"""Function grader (kind "function"): a stack's driver calls the answer, the host judges.

Accepts an answer only when every case's result, printed as canonical JSON by the driver that
the stack's translator rendered, equals the expected value under the declared return type
(rlvr.functions.judge). The expected values never enter the sandbox, so a forged report line,
an always-equal object or an early exit gains nothing. Each answer runs in its own job (its own
uids, deadline, sweep and wipe), so an answer that crashes its driver only fails itself; up to
`batch_size` jobs (a group, or several groups' answers) share one `docker exec`, run one after
another by the runner (`runner.py batch`): the exec's round trip was most of a job's cost. A
task without a function form (`meta["function"]` absent) goes to the optional `fallback`
(HumanEval's in-process `check()`, weaker); without one it is a `grader_error`.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rlvr.errors import ManifestError
from rlvr.functions.judge import DriverOutput, read_driver_output
from rlvr.functions.task import FunctionTask
from rlvr.functions.translator import load_translator
from rlvr.graders.base import register_grader
from rlvr.graders.code.function_verdict import function_verdict
from rlvr.graders.code.grader import CodeGrader
from rlvr.graders.code.verdict import infra_verdict
from rlvr.manifest import format_validation_error, read_manifest
from rlvr.sandbox.client import install_signal_handlers
from rlvr.sandbox.docker import ExecOutcome, InfraFailure, get_pool, new_job_id
from rlvr.sandbox.local import (
    ENV_VAR,
    UNSAFE_KEY,
    UNSAFE_NOTE,
    LocalPool,
    unsafe_local_requested,
)
from rlvr.sandbox.spec import SandboxSpec, load_spec
from rlvr.types import Task, Verdict

SANDBOX_KEYS_KEPT = (
    "image", "dockerfile", "timeout_s", "memory_mb", "pids_limit", "cpus", "tmpfs_mb",
    "output_limit_kb", "nofile", "fsize_mb", "env",
)  # fmt: skip


class FunctionOptions(BaseModel):
    """`[grader.options]` of a function-task environment (the registry adds sandbox, env_dir)."""

    model_config = ConfigDict(extra="forbid")

    stack: str = Field(description="Stack whose translator renders the driver ('go'), or a path.")
    sandbox: dict[str, Any] | None = Field(
        default=None,
        description="The manifest's [sandbox] table; without one, the stack folder's image and "
        "limits (so an environment over a stack never builds or retags the stack's image).",
    )
    limits: dict[str, Any] = Field(
        default_factory=dict, description="Overrides of image limits, e.g. {timeout_s = 20}."
    )
    env_dir: str | None = None
    reward: Literal["all_pass", "fraction"] = "all_pass"
    pool_size: int | None = Field(default=None, ge=1, le=256)
    batch_size: int = Field(
        default=8, ge=1, le=64,
        description="Answers judged per `docker exec`, one after another, each in its own job "
        "(a GRPO group of 8 is one exec); 1 gives every answer its own exec.",
    )  # fmt: skip
    fallback: Literal["none", "python-check"] = Field(
        default="none", description="How tasks without a function form are graded."
    )


def stack_sandbox(translator: Any) -> dict[str, Any]:
    """The [sandbox] table of the stack folder the translator lives in ({} when it has none)."""
    folder = Path(translator.__file__).resolve().parent
    try:
        return read_manifest(folder).sandbox or {}
    except ManifestError:
        return {}


def function_spec(translator: Any, table: dict[str, Any], env_dir: Path | None) -> SandboxSpec:
    """The translator's driver settings plus the manifest's image and limits."""
    data = {k: v for k, v in table.items() if k in SANDBOX_KEYS_KEPT}
    merged = {**translator.SANDBOX, **data, "runner": "command", "report_from": "stdout"}
    merged["env"] = {**translator.SANDBOX.get("env", {}), **data.get("env", {})}
    return load_spec(merged, env_dir)


class FunctionGrader:
    """Runs one driver job per answer in a warm pool; one verdict per answer, never raises."""

    name = "function"

    def __init__(self, **options: Any) -> None:
        try:
            self.options = FunctionOptions.model_validate(options)
        except ValidationError as e:
            raise ManifestError(format_validation_error("function grader options", e)) from None
        self.env_dir = Path(self.options.env_dir) if self.options.env_dir else None
        stack = self.options.stack
        if stack.endswith(".py") and self.env_dir is not None:
            stack = str((self.env_dir / stack).resolve())
        self.translator = load_translator(stack)
        table = self.options.sandbox
        if table is None:
            table = stack_sandbox(self.translator)
        self.spec = function_spec(self.translator, {**table, **self.options.limits}, self.env_dir)
        self._fallback: Any = None
        if self.options.fallback == "python-check":
            self._fallback = CodeGrader(
                sandbox={**table, "runner": "python-check"},
                env_dir=self.options.env_dir, extract="function", reward=self.options.reward,
                pool_size=self.options.pool_size,
            )  # fmt: skip
        self._pool: Any = None
        install_signal_handlers()  # a pool made later on a worker thread is still cleaned up

    @property
    def pool(self) -> Any:
        """Warm containers; by default two per CPU: part of an exec's time is Docker's round
        trip and the runner's sweeps, so one container per core leaves the cores idle."""
        local = unsafe_local_requested()
        if self._pool is None or self._pool.closed or isinstance(self._pool, LocalPool) != local:
            size = self.options.pool_size or 2 * (os.cpu_count() or 1)
            if local:  # asked for by name (RLVR_UNSAFE_LOCAL_JUDGE=1), never a default
                self._pool = LocalPool(str(self.translator.STACK), os.cpu_count() or 1)
            else:
                self._pool = get_pool(self.spec, size)
        return self._pool

    @property
    def fallback_grader(self) -> Any:
        """The grader of tasks without a function form (None when there is none)."""
        return self._fallback

    def extract(self, completion: str) -> str | None:
        return completion

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        return self.grade_groups([(task, answers)])[0]

    def grade_groups(
        self,
        groups: Sequence[tuple[Task, Sequence[str]]],
        on_group_done: Callable[[int], None] | None = None,
    ) -> list[list[Verdict]]:
        """Grade several groups at once: their driver jobs go to the pool in batches of up to
        `batch_size` (consecutive answers, across groups); `on_group_done(g)` when group g
        has all its verdicts."""
        local = unsafe_local_requested()  # read once: every verdict of the call is marked alike
        verdicts: list[list[Verdict | None]] = [[None] * len(a) for _, a in groups]
        jobs: list[_Job] = []
        for g, (task, answers) in enumerate(groups):
            if task.meta.get("function") is None:
                verdicts[g] = list(self._no_function(task, answers))
                continue
            for i, prepared in enumerate(self._prepare(task, answers)):
                if isinstance(prepared, Verdict):
                    verdicts[g][i] = prepared
                else:
                    jobs.append(_Job(g, i, *prepared))
        left = [sum(v is None for v in row) for row in verdicts]
        if on_group_done:
            for g, n in enumerate(left):
                if n == 0:
                    on_group_done(g)
        lock = threading.Lock()

        def run_chunk(chunk: list[_Job]) -> None:
            for job, verdict in self._run_batch(pool, chunk):
                with lock:  # also serialises the callback (a progress bar)
                    verdicts[job.group][job.index] = verdict
                    left[job.group] -= 1
                    if left[job.group] == 0 and on_group_done:
                        on_group_done(job.group)

        if jobs:
            pool = self.pool
            chunks = _chunks(jobs, self.options.batch_size)
            with ThreadPoolExecutor(max_workers=max(1, min(len(chunks), pool.size))) as ex:
                list(ex.map(run_chunk, chunks))
        out = [[v for v in row if v is not None] for row in verdicts]
        return [[_mark_unsafe(v) for v in row] for row in out] if local else out

    def driver_outputs(self, runs: Sequence[tuple[FunctionTask, str]]) -> list[DriverOutput | None]:
        """What the driver printed for each (task, answer file), parsed but not judged: the
        values a reference returns, for tools that compute expected values in the sandbox
        (case augmentation). None where the job brought back no result."""
        payloads = [self._payload({**self.translator.driver(t), self.spec.answer_file: src})
                    for t, src in runs]  # fmt: skip
        size = self.options.batch_size
        chunks = [list(range(i, min(i + size, len(runs)))) for i in range(0, len(runs), size)]
        out: list[DriverOutput | None] = [None] * len(runs)

        def keep(i: int, item: Any) -> None:
            stdout = str(item.get("stdout", "")) if isinstance(item, dict) else ""
            out[i] = read_driver_output(stdout, len(runs[i][0].cases))

        def run_chunk(chunk: list[int]) -> None:
            try:
                res = self.pool.run({"jobs": [payloads[i] for i in chunk]}, "batch")
                items = [] if res.watchdog or res.result is None else res.result["results"]
            except (InfraFailure, KeyError, TypeError):
                items = []
            for i, item in zip(chunk, items, strict=False):
                keep(i, item)
            for i in chunk[len(items) :]:  # what the batch did not bring back runs alone, once
                try:
                    res = self.pool.run(payloads[i], "run", None)
                except InfraFailure:
                    continue
                if not res.watchdog and res.result is not None:
                    keep(i, res.result)

        if chunks:
            with ThreadPoolExecutor(max_workers=max(1, min(len(chunks), self.pool.size))) as ex:
                list(ex.map(run_chunk, chunks))
        return out

    def _no_function(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        if self._fallback is not None:
            return self._fallback.grade_group(task, answers)
        why = f"task {task.id} has no function form (meta.function) and no fallback is set"
        return [Verdict.error("grader_error", why) for _ in answers]

    def _prepare(
        self, task: Task, answers: Sequence[str]
    ) -> list[Verdict | tuple[FunctionTask, dict[str, str]]]:
        """Per answer: its verdict already (no code, no driver), or (task, files) to run."""
        try:
            ftask = FunctionTask.model_validate(task.meta["function"])
            files = self.translator.driver(ftask)
        except Exception as e:
            why = f"task {task.id}: cannot build its driver: {str(e)[:300]}"
            return [Verdict.error("grader_error", why) for _ in answers]
        out: list[Verdict | tuple[FunctionTask, dict[str, str]]] = []
        for answer in answers:
            program = self._program(ftask, answer)
            if program is None:
                langs = list(self.translator.LANGUAGES)
                out.append(Verdict.reject("no code found in the answer", cause="no_code",
                                          details={"languages": langs}))  # fmt: skip
            else:
                out.append((ftask, {**files, self.spec.answer_file: program}))
        return out

    def _program(self, ftask: FunctionTask, completion: str) -> str | None:
        try:
            return self.translator.program(ftask, completion)
        except Exception:  # a translator must not turn odd model output into a crash
            return None

    def _payload(self, files: dict[str, str]) -> dict[str, Any]:
        s = self.spec
        return {
            "job": new_job_id(), "nonce": secrets.token_hex(16), "argv": s.test_command,
            "env": s.env, "workdir": s.workdir, "writable_workspace": True, "files": files,
            "answer": s.answer_file, "public": s.test_files.public,
            "hidden": s.test_files.hidden, "report_from": "stdout", "report_file": None,
            "timeout_s": s.timeout_s, "output_limit": s.output_limit_kb * 1024,
            "report_limit": s.report_limit_kb * 1024,
        }  # fmt: skip

    def _judge(self, ftask: FunctionTask, out: ExecOutcome) -> Verdict:
        try:
            return function_verdict(ftask, out, self.options.reward)
        except Exception as e:  # a judge bug masks this answer, never the run
            return Verdict.error("grader_error", f"judging failed: {e!r}"[:300])

    def _run_batch(self, pool: Any, chunk: list[_Job]) -> list[tuple[_Job, Verdict]]:
        """Judge `chunk` in as few execs as the runner allows: it stops a batch after a job
        that leaves the container in doubt (the pool then replaces it) and the rest go to the
        next container. A batch that brings back nothing usable (the daemon failed, the
        watchdog fired) is not blamed on any one answer: each job left runs alone, as without
        batching (retried once, then masked); a batch of one job that ran past the watchdog or
        lost its runner to an OOM kill is judged as it is (that job's doing)."""
        pending, done = list(chunk), []
        while pending:
            try:
                out = pool.run({"jobs": [self._payload(j.files) for j in pending]}, "batch")
            except InfraFailure:
                break
            items = [] if out.watchdog or out.result is None else out.result.get("results", [])
            if not items and len(pending) == 1 and (out.watchdog or out.oom):
                return [*done, (pending[0], self._judge(pending[0].ftask, out))]  # its doing
            if not items or len(items) > len(pending):
                break
            for job, item in zip(pending, items, strict=False):
                if item.get("error") is None:
                    item.pop("error", None)
                done.append((job, self._judge(job.ftask, ExecOutcome(item, None, ""))))
            pending = pending[len(items) :]
        return done + [(j, self._run(pool, j.ftask, j.files)) for j in pending]

    def _run(self, pool: Any, ftask: FunctionTask, files: dict[str, str]) -> Verdict:
        """One answer in one exec: retried once on a fresh container, then masked."""
        last = ""
        for _attempt in range(2):
            try:
                out = pool.run(self._payload(files), "run", None)
            except InfraFailure as e:
                last = str(e)
                continue
            return self._judge(ftask, out)
        return infra_verdict(last)


def _mark_unsafe(verdict: Verdict) -> Verdict:
    """A verdict of the unsafe local judge, saying so in its reason and details."""
    details = {**verdict.details, UNSAFE_KEY: UNSAFE_NOTE, "enabled_by": ENV_VAR}
    reason = f"{verdict.reason} [{UNSAFE_NOTE}]" if verdict.reason else f"[{UNSAFE_NOTE}]"
    return verdict.model_copy(update={"details": details, "reason": reason})


@dataclass
class _Job:
    """One answer's driver job and where its verdict goes."""

    group: int
    index: int
    ftask: FunctionTask
    files: dict[str, str]


def _chunks(jobs: list[_Job], size: int) -> list[list[_Job]]:
    """`jobs` in consecutive chunks of at most `size`, as even as possible."""
    n = -(-len(jobs) // size)
    step, extra = divmod(len(jobs), n)
    out, at = [], 0
    for k in range(n):
        width = step + (k < extra)
        out.append(jobs[at : at + width])
        at += width
    return out


@register_grader("function")
def make_function_grader(**options: Any) -> FunctionGrader:
    """Factory for `grader.kind = "function"`."""
    return FunctionGrader(**options)
