"""The unsafe local judge: function-task drivers run as plain host processes, no sandbox.

For a machine that has no Docker (a rented GPU box) where the user still wants the function
judge's verdicts. It is NEVER a default and never a fallback: it runs only when the environment
variable `RLVR_UNSAFE_LOCAL_JUDGE=1` names it. An answer then runs with the user's own rights:
it can read and write their files, reach the network, and outlive its job: killing the job's
process group misses a process that left it with `setsid()`, and as root with CAP_SYS_RESOURCE
an answer can raise its own hard rlimits. Only the four stacks
whose drivers are known here (python, javascript, go, rust) can run, each only when its
toolchain is on the host's PATH. What it keeps of the sandbox: one fresh temporary folder per
job (HOME and TMPDIR point into it, removed afterwards), a wall-clock limit that kills the
job's whole process group, the output cap, and a CPU-time and file-size rlimit. Every verdict
it produces is marked (`rlvr.graders.code.function` adds UNSAFE_NOTE to details and reason),
and `rlvr eval` reports carry the note too.

`LocalPool` has the part of `ContainerPool`'s interface the function grader uses: `size`,
`closed`, and `run(payload, mode)` with the runner's "run" and "batch" modes and result shape.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rlvr.errors import SandboxSetupError
from rlvr.sandbox.container import ExecOutcome

ENV_VAR = "RLVR_UNSAFE_LOCAL_JUDGE"
UNSAFE_NOTE = "unsafe local judge: answers ran on the host without a sandbox"
UNSAFE_KEY = "unsafe_local_judge"
"""The key of UNSAFE_NOTE in a marked verdict's details (reports look for it)."""
TOOLCHAINS: dict[str, tuple[str, ...]] = {
    "python": ("python3",),
    "javascript": ("node",),
    "go": ("go", "sh"),
    "rust": ("rustc", "sh"),
}
"""The stacks the local judge may run, and the programs each one's driver needs."""
FILE_LIMIT = 64 << 20
"""Largest file a job may write (its stdout and stderr files included)."""
log = logging.getLogger("rlvr.sandbox")


def unsafe_local_requested() -> bool:
    """Whether the user asked for the local judge by name (RLVR_UNSAFE_LOCAL_JUDGE=1)."""
    value = os.environ.get(ENV_VAR, "")
    if value in ("", "0"):
        return False
    if value != "1":
        raise SandboxSetupError(
            f"{ENV_VAR}={value!r}: expected 1 (run answers on this host, unsandboxed) or unset",
            f"export {ENV_VAR}=1 only on a machine whose files you can lose; else unset it",
        )
    return True


def check_toolchain(stack: str) -> None:
    """Refuse stacks the local judge does not know, and stacks whose programs are missing."""
    if not unsafe_local_requested():
        raise SandboxSetupError(
            f"the unsafe local judge was not asked for ({ENV_VAR} is not 1)",
            "grade in the Docker sandbox; set RLVR_UNSAFE_LOCAL_JUDGE=1 only on a throwaway host",
        )
    needs = TOOLCHAINS.get(stack)
    if needs is None:
        raise SandboxSetupError(
            f"the unsafe local judge runs only {', '.join(TOOLCHAINS)} drivers, not {stack!r}",
            "grade this stack in the Docker sandbox (start dockerd)",
        )
    missing = [p for p in needs if shutil.which(p) is None]
    if missing:
        raise SandboxSetupError(
            f"the unsafe local judge cannot run {stack} answers: {', '.join(missing)} is not on "
            "this host's PATH",
            f"install the {stack} toolchain on the host, or grade in the Docker sandbox",
        )


class LocalPool:
    """Runs driver jobs as host processes, `size` at a time (the grader's thread pool)."""

    def __init__(self, stack: str, size: int) -> None:
        check_toolchain(stack)
        self.stack, self.size, self.closed = stack, size, False
        log.warning("%s (%s, %s)", UNSAFE_NOTE, stack, ENV_VAR)

    def close(self) -> None:
        self.closed = True

    def run(
        self, payload: dict[str, Any], mode: str, files: dict[str, str] | None = None
    ) -> ExecOutcome:
        """The runner's modes: "run" (one job) and "batch" (payload["jobs"], in order)."""
        if mode == "batch":
            return ExecOutcome({"results": [run_job(job) for job in payload["jobs"]]}, 0, "")
        if mode != "run":
            raise SandboxSetupError(f"the unsafe local judge has no {mode!r} mode")
        job = {**payload, "files": {**payload.get("files", {}), **(files or {})}}
        return ExecOutcome(run_job(job), 0, "")


_SHIM = (
    "import os,resource as r,sys;c,f=int(sys.argv[1]),int(sys.argv[2]);"
    "r.setrlimit(r.RLIMIT_CPU,(c,c));r.setrlimit(r.RLIMIT_FSIZE,(f,f));"
    "os.execvp(sys.argv[3],sys.argv[3:])"
)


def limited(argv: list[str], cpu_s: int, fsize: int) -> list[str]:
    """argv under a CPU-seconds and a file-size rlimit, set by a small program that then execs
    it (util-linux's prlimit, else a Python one-liner).

    Not a `preexec_fn`: with one, Python must fork() the whole parent, one job at a time, and a
    training process is large: 46 ms a job from a 1 GiB parent, 233 ms from 6 GiB, against
    1.9 ms through prlimit (bench/local_judge_spawn.py). A GRPO step of 128 answers on a GPU
    machine spent 70-90 s grading that way.
    """
    prlimit = shutil.which("prlimit")
    if prlimit:
        return [prlimit, f"--cpu={cpu_s}", f"--fsize={fsize}", "--", *argv]
    return [sys.executable, "-S", "-c", _SHIM, str(cpu_s), str(fsize), *argv]


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """One command job in a fresh temporary folder: the runner's result fields."""
    root = Path(tempfile.mkdtemp(prefix="rlvr-local-"))
    try:
        ws, scratch = root / "ws", root / "scratch"
        ws.mkdir()
        scratch.mkdir()
        places = {"workspace": str(ws), "scratch": str(scratch)}
        for rel, text in job.get("files", {}).items():
            path = (ws / rel).resolve()
            if not path.is_relative_to(ws.resolve()):
                return {"error": f"file {rel!r} leaves the workspace", "clean": True}
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
        env.update({"HOME": str(scratch), "TMPDIR": str(scratch)})
        env.update({k: _expand(str(v), places) for k, v in job.get("env", {}).items()})
        argv = [_expand(a, places) for a in job["argv"]]
        cwd = os.path.normpath(ws / job.get("workdir", "."))
        return _execute(argv, cwd, env, float(job["timeout_s"]), int(job["output_limit"]))
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _expand(value: str, places: dict[str, str]) -> str:
    for key, repl in places.items():
        value = value.replace("{" + key + "}", repl)
    return value


def _head(path: Path, n: int) -> bytes:
    with path.open("rb") as fh:
        return fh.read(n)


def _execute(argv: list[str], cwd: str, env: dict[str, str], timeout: float, cap: int) -> dict:
    """Run argv with stdout and stderr in files (the file-size rlimit caps them, so an answer
    that prints forever fills no memory and holds no pipe open), killed with its group at the
    deadline."""
    start, cpu = time.monotonic(), int(timeout) + 1
    logs = Path(env["TMPDIR"]).parent
    with (logs / "stdout").open("wb") as out, (logs / "stderr").open("wb") as err:
        proc = subprocess.Popen(
            limited(argv, cpu, FILE_LIMIT), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
            stdout=out, stderr=err, start_new_session=True,
        )  # fmt: skip
        try:
            proc.wait(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
        with contextlib.suppress(ProcessLookupError):  # its children (a built binary) go too
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    sizes = [(logs / name).stat().st_size for name in ("stdout", "stderr")]
    stdout, stderr = (_head(logs / name, cap) for name in ("stdout", "stderr"))
    # the sandbox runner's rule: both streams together past 16 caps (a flood on stderr too, which
    # the file-size limit stops with SIGXFSZ, is an output verdict, not a failed build)
    flood = sum(sizes) > 16 * cap or max(sizes) >= FILE_LIMIT
    return {
        "exit_code": proc.returncode, "stdout": stdout.decode("utf-8", "replace"),
        "stderr": stderr.decode("utf-8", "replace"),
        "duration_s": round(time.monotonic() - start, 4), "timed_out": timed_out,
        "output_overflow": flood, "lingering": [], "oom": False, "clean": True,
        "left_behind": [], "mode": "plain", "unsafe_local": True,
    }  # fmt: skip
