"""Code-test grader (kind "code"): run the task's public and hidden tests in the Docker sandbox.

Accepts an answer only when every expected test was reported as passed by a report the answer
could not forge (a nonce-signed pipe for pytest; the stack's report otherwise) and the number and
names of the reported tests match what the task defines. The exit code alone never passes;
skipped, errored, xfail and xpass tests fail; a session cut short (sys.exit, os._exit, exec) fails.
A run past the deadline is scored 0 with reason "timeout": the sandbox bounded it, so it is the
answer's fault and must be trained on (masking it would reward infinite loops). A dead daemon or
container is retried once on a fresh container, then becomes `infra_error` (masked).
A test command that ended before any test ran is masked only when the task's own reference
fails the same way (a broken task); when the reference runs its tests, the answer broke the build
or the runner, or ended the tests' process (System.exit during a test: the reason says which the
run shows), and is scored 0 (masking it would let crashing answers escape every penalty).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from rlvr.errors import ManifestError, RlvrError
from rlvr.graders.base import register_grader
from rlvr.graders.code.extract import extract_fenced, function_program
from rlvr.graders.code.verdict import (
    command_verdict,
    ended_process_verdict,
    infra_verdict,
    public_names,
    pycheck_verdicts,
)
from rlvr.sandbox.asserts import strict_asserts
from rlvr.sandbox.client import install_signal_handlers
from rlvr.sandbox.docker import InfraFailure, get_pool, new_job_id
from rlvr.sandbox.reports import get_report_adapter
from rlvr.sandbox.spec import SandboxSpec, load_spec
from rlvr.types import Task, Verdict

CHECK_CHUNK = 8
KILLED = Verdict.reject(
    "no result from the sandbox runner (the answer killed or disturbed it)", cause="runner_killed"
)


class CodeOptions(BaseModel):
    """`[grader.options]` of a code environment (the registry adds sandbox and env_dir)."""

    model_config = ConfigDict(extra="forbid")

    sandbox: dict[str, Any] = Field(description="The manifest's [sandbox] table.")
    env_dir: str | None = Field(default=None, description="The environment folder.")
    language: list[str] = Field(default_factory=lambda: ["python", "py"])
    extract: Literal["fenced", "whole", "function"] = "fenced"
    reward: Literal["all_pass", "fraction"] = "all_pass"
    pool_size: int | None = Field(default=None, ge=1, le=256)


class CodeGrader:
    """Runs tests in a warm container pool; one verdict per answer, never raises on answers."""

    name = "code"

    def __init__(self, **options: Any) -> None:
        try:
            self.options = CodeOptions.model_validate(options)
        except Exception as e:
            raise ManifestError(
                f"code grader options: {e}",
                "see the `grader.options` (code) and `[sandbox]` tables in envs/README.md",
            ) from e
        self.env_dir = Path(self.options.env_dir) if self.options.env_dir else None
        self.spec: SandboxSpec = load_spec(self.options.sandbox, self.env_dir)
        if self.spec.runner == "command":
            self.adapter = get_report_adapter(self.spec.report, self.env_dir)
        self._extra = {
            dest: (self.env_dir / src).read_text(encoding="utf-8")  # type: ignore[operator]
            for dest, src in self.spec.files.items()
        }
        self._pool: Any = None
        self._reference_runs: dict[str, bool | None] = {}
        self._probe_lock = threading.Lock()
        install_signal_handlers()  # from the thread that makes the grader (usually the main one)

    @property
    def pool(self) -> Any:
        """The warm pool, made on first use (SandboxError when no daemon / no image)."""
        if self._pool is None or self._pool.closed:
            self._pool = get_pool(self.spec, self.options.pool_size)
        return self._pool

    def extract(self, completion: str) -> str | None:
        if self.options.extract == "whole":
            return completion
        if self.options.extract == "function":
            return completion
        return extract_fenced(completion, self.options.language)

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        if self.spec.runner == "python-check":
            return self._grade_pycheck(task, answers)
        return self._grade_command(task, answers)

    def _tests(self, task: Task) -> tuple[str, str]:
        public, hidden = task.public_tests or "", task.hidden_tests or ""
        if self.spec.strict_asserts:
            public, hidden = strict_asserts(public), strict_asserts(hidden)
        return public, hidden

    def _expected(self, task: Task) -> tuple[int | None, list[str] | None]:
        names = task.meta.get("test_names")
        if isinstance(names, list) and names:
            return len(names), [str(n) for n in names]
        if "n_public" in task.meta and "n_hidden" in task.meta:
            return int(task.meta["n_public"]) + int(task.meta["n_hidden"]), None
        count = self.adapter.count_tests
        if count is None:
            return None, None
        a, b = count(task.public_tests or ""), count(task.hidden_tests or "")
        return (a + b if a is not None and b is not None else None), None

    def _grade_command(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        try:
            public, hidden = self._tests(task)
        except SyntaxError as e:
            return [Verdict.error("grader_error", f"task {task.id}: test file does not parse: {e}")
                    for _ in answers]  # fmt: skip
        expected, names = self._expected(task)
        shown = public_names(task.meta, self.spec.test_files.public)
        if expected is None:
            reason = f"task {task.id}: cannot tell how many tests to expect"
            return [Verdict.error("grader_error", reason + "; add meta.n_public/n_hidden")] * len(
                answers
            )
        codes = [self.extract(a) for a in answers]
        signature = self._signature(task)
        pool = self.pool

        def one(code: str | None) -> Verdict:
            try:
                return answer(code)
            except RlvrError:  # the set-up is wrong (no image, no daemon): the user must know
                raise
            except Exception as e:  # a grader bug masks this answer only, never the run
                return Verdict.error("grader_error", f"grading failed: {type(e).__name__}: {e}")

        def answer(code: str | None) -> Verdict:
            if code is None:
                return Verdict.reject("no code block found", cause="no_code",
                                      details={"languages": self.options.language})  # fmt: skip
            files = {
                **self._extra,
                **signature,
                self.spec.answer_file: code,
                self.spec.test_files.public: public,
                self.spec.test_files.hidden: hidden,
            }
            return self._run_command(pool, files, expected, names, shown)

        with ThreadPoolExecutor(max_workers=max(1, min(len(answers), pool.size))) as ex:
            verdicts = list(ex.map(one, codes))
        if any(v.cause == "no_test_ran" for v in verdicts):
            ref = task.reference
            runs = self._reference_ran(task, lambda: one(ref) if ref else None)
            verdicts = [settle_no_test(v, runs) for v in verdicts]
        return verdicts

    def _signature(self, task: Task) -> dict[str, str]:
        """{signature_file: the task's stated signature} when the stack pins answers to it."""
        if not self.spec.signature_file:
            return {}
        stated = task.meta.get("signature")
        if not isinstance(stated, str):
            stated = extract_fenced(task.prompt, self.options.language) or ""
        return {self.spec.signature_file: stated}

    def _reference_ran(self, task: Task, grade_reference: Any) -> bool | None:
        """Did the task's reference run its tests? Once per task (and tests) per grader."""
        key = hashlib.sha256(
            "\0".join([task.id, task.reference or "", task.public_tests or "",
                        task.hidden_tests or ""]).encode()
        ).hexdigest()  # fmt: skip
        with self._probe_lock:
            if key not in self._reference_runs:
                v = grade_reference()
                ran = None if v is None or v.status == "infra_error" else v.is_scored
                self._reference_runs[key] = ran
            return self._reference_runs[key]

    def _command_payload(self, job: str, nonce: str) -> dict[str, Any]:
        s = self.spec
        return {
            "job": job, "nonce": nonce, "argv": s.test_command, "env": s.env, "workdir": s.workdir,
            "build_argv": s.build_command, "answer_argv": s.answer_command, "revoke": s.revoke,
            "nonce_stdin": s.nonce_stdin,
            "writable_workspace": s.writable_workspace, "answer": s.answer_file,
            "public": s.test_files.public, "hidden": s.test_files.hidden,
            "report_from": s.report_from, "report_file": s.report_file,
            "timeout_s": s.timeout_s, "output_limit": s.output_limit_kb * 1024,
            "report_limit": s.report_limit_kb * 1024,
        }  # fmt: skip

    def _run_command(
        self, pool: Any, files: dict[str, str], expected: int, names: Any, shown: Any
    ) -> Verdict:
        last = ""
        for _attempt in range(2):
            nonce = secrets.token_hex(16)
            payload = self._command_payload(new_job_id(), nonce)
            payload["files"] = files
            try:
                out = pool.run(payload, "run")
            except InfraFailure as e:
                last = str(e)
                continue
            return command_verdict(
                out, self.adapter, nonce, expected, names, self.options.reward, self.spec, shown
            )
        return infra_verdict(last)

    def _grade_pycheck(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        if not task.entry_point or not task.hidden_tests:
            return [Verdict.error("grader_error", f"task {task.id}: needs entry_point and tests")
                    for _ in answers]  # fmt: skip
        try:
            test = strict_asserts(task.hidden_tests, import_line=False)
        except SyntaxError as e:
            return [Verdict.error("grader_error", f"task {task.id}: test does not parse: {e}")
                    for _ in answers]  # fmt: skip
        programs = [function_program(task.prompt, a, task.entry_point) for a in answers]
        chunks = [list(range(i, min(i + CHECK_CHUNK, len(programs))))
                  for i in range(0, len(programs), CHECK_CHUNK)]  # fmt: skip
        pool = self.pool
        verdicts: list[Verdict | None] = [None] * len(programs)

        def run_chunk(idx: list[int]) -> None:
            try:
                got = self._check_answers(pool, task, test, [programs[i] for i in idx])
            except RlvrError:
                raise
            except Exception as e:  # a grader bug masks these answers only, never the run
                got = [Verdict.error("grader_error", f"grading failed: {e}") for _ in idx]
            for i, v in zip(idx, got, strict=True):
                verdicts[i] = v

        with ThreadPoolExecutor(max_workers=max(1, min(len(chunks), pool.size))) as ex:
            list(ex.map(run_chunk, chunks))
        return [v for v in verdicts if v is not None]

    def _check_answers(
        self, pool: Any, task: Task, test: str, programs: list[str]
    ) -> list[Verdict]:
        """One verdict per program: as few groups as the runner allows (it stops a group after
        an answer that left state; the rest go on), then one by one when a runner died."""
        verdicts: list[Verdict] = []
        while len(verdicts) < len(programs):
            got = self._check_chunk(pool, task, test, programs[len(verdicts) :])
            if not got:
                break
            verdicts.extend(got)
        pending = programs[len(verdicts) :]
        if len(pending) == 1:  # it alone brought back nothing usable
            return [*verdicts, KILLED]
        for program in pending:  # the runner died: rerun one by one to find who
            verdicts.extend((self._check_chunk(pool, task, test, [program]) or [KILLED])[:1])
        return verdicts

    def _check_chunk(
        self, pool: Any, task: Task, test: str, programs: list[str]
    ) -> list[Verdict] | None:
        last = ""
        for _attempt in range(2):
            payload = {
                "job": new_job_id(), "nonce": secrets.token_hex(16), "answers": programs,
                "prompt": task.prompt, "test": test, "entry_point": task.entry_point,
                "timeout_s": self.spec.timeout_s, "output_limit": self.spec.output_limit_kb * 1024,
            }  # fmt: skip
            try:
                out = pool.run(payload, "check")
            except InfraFailure as e:
                last = str(e)
                continue
            return pycheck_verdicts(out, len(programs), self.options.reward)
        return [infra_verdict(last) for _ in programs]


def settle_no_test(v: Verdict, reference_ran: bool | None) -> Verdict:
    """A no-test-ran verdict once the reference was tried: the answer's fault when the reference
    runs its tests (scored 0), else the task's (masked, the reason says why)."""
    if v.cause != "no_test_ran":
        return v
    if reference_ran:
        if v.details.get("limit"):  # "memory limit exceeded": the answer's, as such
            return Verdict.reject(str(v.details["limit"]), details=v.details, tests=v.tests,
                                  cause="memory_limit")  # fmt: skip
        if v.details.get("process_ended"):  # the build passed, an exit 0, a signal: see verdict
            return ended_process_verdict(v)
        why = "; the task's reference runs its tests, so the answer broke the build or the runner"
        return Verdict.reject(v.reason + why, details=v.details, tests=v.tests, cause=v.cause)
    why = (
        "; the task has no reference to compare with (or its run failed in the sandbox)"
        if reference_ran is None
        else "; the task's reference fails the same way: fix the task's tests or test command"
    )
    return Verdict.error("grader_error", v.reason + why, details=v.details, tests=v.tests,
                         cause=v.cause)  # fmt: skip


@register_grader("code")
def make_code_grader(**options: Any) -> CodeGrader:
    """Factory for `grader.kind = "code"`."""
    return CodeGrader(**options)
