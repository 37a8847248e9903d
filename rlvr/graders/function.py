"""Function grader (kind "function"): a stack's driver calls the answer, the host judges.

Accepts an answer only when every case's result, printed as canonical JSON by the driver that
the stack's translator rendered, equals the expected value under the declared return type
(rlvr.functions.judge). The expected values never enter the sandbox, so a forged report line,
an always-equal object or an early exit gains nothing. Each answer runs in its own job, so an
answer that crashes its driver only fails itself. A task without a function form (`meta
["function"]` absent) goes to the optional `fallback` (HumanEval's in-process `check()`,
weaker); without one it is a `grader_error`.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rlvr.errors import ManifestError
from rlvr.functions.task import FunctionTask
from rlvr.functions.translator import load_translator
from rlvr.graders.base import register_grader
from rlvr.graders.code_verdict import infra_verdict
from rlvr.graders.function_verdict import function_verdict
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
    fallback: Literal["none", "python-check"] = Field(
        default="none", description="How tasks without a function form are graded."
    )


def stack_sandbox(translator: Any) -> dict[str, Any]:
    """The [sandbox] table of the stack folder the translator lives in ({} when it has none)."""
    from rlvr.manifest import read_manifest

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
            from rlvr.manifest import format_validation_error

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
            from rlvr.graders.code import CodeGrader

            self._fallback = CodeGrader(
                sandbox={**table, "runner": "python-check"},
                env_dir=self.options.env_dir, extract="function", reward=self.options.reward,
                pool_size=self.options.pool_size,
            )  # fmt: skip
        self._pool: Any = None
        from rlvr.sandbox.client import install_signal_handlers

        install_signal_handlers()  # a pool made later on a worker thread is still cleaned up

    @property
    def pool(self) -> Any:
        """Warm containers; by default two per CPU: a driver job is one exec whose time is
        mostly Docker's round trip, so one container per core leaves the cores idle."""
        if self._pool is None or self._pool.closed:
            import os

            from rlvr.sandbox.docker import get_pool

            size = self.options.pool_size or 2 * (os.cpu_count() or 1)
            self._pool = get_pool(self.spec, size)
        return self._pool

    @property
    def fallback_grader(self) -> Any:
        """The grader of tasks without a function form (None when there is none)."""
        return self._fallback

    def extract(self, completion: str) -> str | None:
        return completion

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        raw = task.meta.get("function")
        if raw is None:
            if self._fallback is not None:
                return self._fallback.grade_group(task, answers)
            why = f"task {task.id} has no function form (meta.function) and no fallback is set"
            return [Verdict.error("grader_error", why) for _ in answers]
        try:
            ftask = FunctionTask.model_validate(raw)
            files = self.translator.driver(ftask)
        except Exception as e:
            why = f"task {task.id}: cannot build its driver: {str(e)[:300]}"
            return [Verdict.error("grader_error", why) for _ in answers]
        programs = [self._program(ftask, a) for a in answers]
        pool = self.pool

        def one(program: str | None) -> Verdict:
            if program is None:
                langs = list(self.translator.LANGUAGES)
                return Verdict.reject("no code found in the answer", details={"languages": langs})
            return self._run(pool, ftask, {**files, self.spec.answer_file: program})

        with ThreadPoolExecutor(max_workers=max(1, min(len(answers), pool.size))) as ex:
            return list(ex.map(one, programs))

    def _program(self, ftask: FunctionTask, completion: str) -> str | None:
        try:
            return self.translator.program(ftask, completion)
        except Exception:  # a translator must not turn odd model output into a crash
            return None

    def _run(self, pool: Any, ftask: FunctionTask, files: dict[str, str]) -> Verdict:
        from rlvr.sandbox.docker import InfraFailure, new_job_id

        s = self.spec
        last = ""
        for _attempt in range(2):
            payload = {
                "job": new_job_id(), "nonce": secrets.token_hex(16), "argv": s.test_command,
                "env": s.env, "workdir": s.workdir, "writable_workspace": True, "files": files,
                "answer": s.answer_file, "public": s.test_files.public,
                "hidden": s.test_files.hidden, "report_from": "stdout", "report_file": None,
                "timeout_s": s.timeout_s, "output_limit": s.output_limit_kb * 1024,
                "report_limit": s.report_limit_kb * 1024,
            }  # fmt: skip
            try:
                out = pool.run(payload, "run", None)
            except InfraFailure as e:
                last = str(e)
                continue
            try:
                return function_verdict(ftask, out, self.options.reward)
            except Exception as e:  # a judge bug masks this answer, never the run
                return Verdict.error("grader_error", f"judging failed: {e!r}"[:300])
        return infra_verdict(last)


@register_grader("function")
def make_function_grader(**options: Any) -> FunctionGrader:
    """Factory for `grader.kind = "function"`."""
    return FunctionGrader(**options)
