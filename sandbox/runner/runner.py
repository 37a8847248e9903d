"""Trusted in-container runner: lays out a job, runs its tests under a deadline, cleans up.

Copied by rlvr into /opt/rlvr (a root-owned tmpfs) when a container starts; the host talks to it
through `docker exec` with a JSON job on stdin and reads one JSON result line on stdout.

    python3 -I /opt/rlvr/runner.py setup   (as root)  write /w/<job>/ root-owned, read-only
    python3 -I /opt/rlvr/runner.py run     (as 10001) run the test command, return the result
    python3 -I /opt/rlvr/runner.py check   (as 10001) python-check harness (HumanEval groups)

Standard library only: the image has nothing but python3. The runner turns itself non-dumpable
first so that the answer (same uid) cannot read its memory, file descriptors or stdout through
/proc. The kill sweep (sweep.py) only ever runs as uid 10001 so it can never touch a host
process.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import selectors
import signal
import stat
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves our folder out
from sweep import (
    SCRATCH_ROOT,
    freeze,
    kill_sweep,
    limit_counters,
    remove_tree,
    wipe_scratch,
)

WORK_ROOT = "/w"
RESULT_MARK = "@@RLVR-RESULT@@"
PR_SET_DUMPABLE = 4


def make_undumpable() -> None:
    """Deny same-uid processes ptrace and /proc/<pid>/{mem,fd,environ} access to us."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def emit(result: dict) -> None:
    sys.stdout.write(RESULT_MARK + json.dumps(result) + "\n")
    sys.stdout.flush()


def write_files(ws: str, files: dict, executable: list, file_mode: int) -> str | None:
    """Write a job's files under `ws` (dirs 0755); the error message when a path leaves it."""
    for rel, content in files.items():
        path = os.path.normpath(os.path.join(ws, rel))
        if not path.startswith(ws + "/"):
            return f"file path {rel!r} leaves the workspace"
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(content)
        os.chmod(path, file_mode | (0o111 if rel in executable else 0))
    for root, dirs, _files in os.walk(ws):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
    return None


def setup(job: dict) -> dict:
    """As root: drop old workspaces, write this job's files root-owned and read-only.

    Writable-workspace jobs send no files here: `run` writes them into the job's private scratch
    dir, so no readable copy of their tests exists once the stack's script has deleted them.
    """
    for name in os.listdir(WORK_ROOT):
        remove_tree(os.path.join(WORK_ROOT, name))
    ws = os.path.join(WORK_ROOT, job["job"])
    os.makedirs(ws, mode=0o755)
    error = write_files(ws, job["files"], job.get("executable", []), 0o444)
    return {"ok": False, "error": error} if error else {"ok": True, "workspace": ws}


class Drain:
    """Read several pipes without blocking, keeping at most `cap` bytes of each.

    `wake` (a pidfd of the test command) only wakes the select the moment the command exits.
    """

    def __init__(self, fds: dict[str, tuple[int, int]], wake: int | None = None) -> None:
        self.sel = selectors.DefaultSelector()
        self.data: dict[str, bytearray] = {}
        self.total: dict[str, int] = {}
        self.cap: dict[str, int] = {}
        self.wake = wake
        for name, (fd, cap) in fds.items():
            os.set_blocking(fd, False)
            self.sel.register(fd, selectors.EVENT_READ, name)
            self.data[name], self.total[name], self.cap[name] = bytearray(), 0, cap
        if wake is not None:
            self.sel.register(wake, selectors.EVENT_READ, None)

    def pump(self, timeout: float) -> None:
        """Read what is ready (or wait up to `timeout` for something to be)."""
        if not self.sel.get_map():
            time.sleep(min(timeout, 0.01))
            return
        for key, _ in self.sel.select(timeout):
            name = key.data
            if name is None:
                continue
            try:
                chunk = os.read(key.fd, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                self.sel.unregister(key.fd)
                os.close(key.fd)
                continue
            self.total[name] += len(chunk)
            room = self.cap[name] - len(self.data[name])
            if room > 0:
                self.data[name] += chunk[:room]

    def finish(self, until: float) -> None:
        """After the sweep every writer is gone: read the pipes to their end, then close."""
        if self.wake is not None:
            self.sel.unregister(self.wake)
            os.close(self.wake)
            self.wake = None
        while self.sel.get_map() and time.monotonic() < until:
            self.pump(0.05)
        for key in list(self.sel.get_map().values()):
            self.sel.unregister(key.fd)
            os.close(key.fd)

    def text(self, name: str) -> str:
        return self.data[name].decode("utf-8", "replace")


def open_pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):  # old kernel or seccomp: fall back to polling
        return None


def wait_with_deadline(proc: subprocess.Popen, drain: Drain, deadline: float, hard_out: int):
    """Pump output until the command exits, the deadline passes or the output overflows.

    Then, before any output or report is taken as final, every other process of the sandbox
    uid is stopped (`freeze`) and killed (`kill_sweep`): nothing the answer left behind can add
    to the pipes or rewrite a report file after the command ended. Only then are the pipes read
    to their end. Returns (exit code, timed out, overflow, names of processes that outlived
    the command).
    """
    timed_out = overflow = False
    while proc.poll() is None:
        now = time.monotonic()
        if now >= deadline:
            timed_out = True
            break
        drain.pump(min(deadline - now, 0.05))
        if drain.total["stdout"] + drain.total["stderr"] > hard_out:
            overflow = True
            break
    lingering = freeze(proc.pid)
    kill_sweep()
    if timed_out or overflow:
        proc.kill()
    code = proc.wait()
    drain.finish(time.monotonic() + 1.0)
    return code, timed_out, overflow, lingering


def _expand(value: str, places: dict[str, str]) -> str:
    for key, repl in places.items():
        value = value.replace("{" + key + "}", repl)
    return value


def prepare_run(job: dict) -> tuple[list[str], dict[str, str], str, str, str | None]:
    """Scratch dir, run dir, argv and env with placeholders filled in."""
    ws = os.path.join(WORK_ROOT, job["job"])
    scratch = os.path.join(SCRATCH_ROOT, "rlvr-" + job["job"])
    os.makedirs(scratch, mode=0o700)
    base = ws
    if job.get("writable_workspace"):  # the only copy of the files, private to this job
        base = os.path.join(scratch, "ws")
        os.makedirs(base, mode=0o755)
        error = write_files(base, job["files"], job.get("executable", []), 0o644)
        if error:
            raise ValueError(error)
    run_dir = os.path.normpath(os.path.join(base, job.get("workdir", ".")))
    places = {"workspace": base, "scratch": scratch, "run": run_dir}
    places.update({k: job[k] for k in ("answer", "public", "hidden")})
    report_file = job.get("report_file")
    if report_file:
        report_file = os.path.join(run_dir, _expand(report_file, places))
        places["report_file"] = report_file
    argv: list[str] = []
    for arg in job["argv"]:
        argv.extend([job["public"], job["hidden"]] if arg == "{tests}" else [_expand(arg, places)])
    env = dict(os.environ)
    env.update({"HOME": scratch, "TMPDIR": scratch})
    env.update({k: _expand(v, places) for k, v in job.get("env", {}).items()})
    return argv, env, run_dir, scratch, report_file


def read_capped(path: str | None, cap: int) -> str | None:
    """The report file's text, or None when it is missing or not a regular file (a FIFO the
    answer put there must not block us)."""
    if not path:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(cap).decode("utf-8", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)


def run(job: dict) -> dict:
    """As the sandbox uid: run the test command, then kill leftovers and wipe /tmp.

    The report (fd pipe or file) is read only after the kill sweep, so nothing the answer left
    running can change it once the command has ended.
    """
    kill_sweep()
    wipe_scratch()
    oom0, pids0 = limit_counters()
    try:
        argv, env, run_dir, _scratch, report_file = prepare_run(job)
    except ValueError as e:
        return {"error": str(e), "clean": kill_sweep() and wipe_scratch()}
    out_cap = int(job["output_limit"])
    pass_fds: tuple[int, ...] = ()
    fds = {}
    if job.get("report_from") == "fd":
        nonce_r, nonce_w = os.pipe()
        os.write(nonce_w, job["nonce"].encode())
        os.close(nonce_w)
        rep_r, rep_w = os.pipe()
        env.update({"RLVR_NONCE_FD": str(nonce_r), "RLVR_REPORT_FD": str(rep_w)})
        pass_fds = (nonce_r, rep_w)
        fds["report"] = (rep_r, int(job["report_limit"]))
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            cwd=run_dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            pass_fds=pass_fds,
            start_new_session=True,
        )
    except OSError as e:
        return {"error": f"cannot start {argv[0]!r}: {e}", "clean": kill_sweep() and wipe_scratch()}
    for fd in pass_fds:
        os.close(fd)
    assert proc.stdout is not None and proc.stderr is not None
    fds.update(
        {"stdout": (proc.stdout.fileno(), out_cap), "stderr": (proc.stderr.fileno(), out_cap)}
    )
    drain = Drain(fds, wake=open_pidfd(proc.pid))
    deadline = start + float(job["timeout_s"])
    code, timed_out, overflow, lingering = wait_with_deadline(proc, drain, deadline, out_cap * 16)
    duration = time.monotonic() - start
    report = (
        drain.text("report")
        if "report" in fds
        else read_capped(report_file, int(job["report_limit"]))
    )
    clean = kill_sweep()
    clean = wipe_scratch() and clean
    oom1, pids1 = limit_counters()
    return {
        "exit_code": code,
        "stdout": drain.text("stdout"),
        "stderr": drain.text("stderr"),
        "stdout_bytes": drain.total["stdout"],
        "stderr_bytes": drain.total["stderr"],
        "report": report,
        "duration_s": round(duration, 4),
        "timed_out": timed_out,
        "output_overflow": overflow,
        "oom": oom1 > oom0,
        "pids_max": pids1 > pids0,
        "lingering": lingering,
        "clean": clean,
    }


def main() -> int:
    make_undumpable()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    job = json.loads(sys.stdin.buffer.read())
    try:
        if mode == "setup":
            emit(setup(job))
        elif mode == "run":
            emit(run(job))
        elif mode == "check":
            import pycheck

            emit(pycheck.run_group(job, kill_sweep, wipe_scratch, limit_counters))
        else:
            emit({"error": f"unknown mode {mode!r}; use setup, run or check", "clean": False})
            return 2
    except Exception as e:  # a runner bug must surface as such, never as the answer's fault
        import traceback

        tail = "".join(traceback.format_exception(e)[-3:])
        emit({"error": f"runner crashed: {tail[-600:]}", "clean": False})
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
