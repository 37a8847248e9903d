"""Trusted in-container runner: lays out a job, runs it under fresh uids and a deadline, cleans up.

Copied by rlvr into /opt/rlvr (a root-owned tmpfs) when a container starts; the host runs it
with `docker exec` as root, which in these containers holds only CAP_SETUID, CAP_SETGID and
CAP_KILL. The job comes as JSON on stdin; the one result line goes to this process's stdout,
which no other process holds.

    python3 -I /opt/rlvr/runner.py run     one command job (a test tool, a driver)
    python3 -I /opt/rlvr/runner.py check   a python-check group (HumanEval), see pycheck.py
    python3 -I /opt/rlvr/runner.py batch   several command jobs, one after another (run_batch)

Each job gets two uids nobody used before: the judge's (J) and the answer's (U). Depending on
the job, the test command runs as:

- plain  (no build, no answer server): everything as U in U's private workspace;
- build  (`build_argv`): J compiles in J's private workspace, then the test command (the
  compiled binary) runs as U; J's workspace, with the test sources, is never readable by U;
- server (`answer_argv`): the test command is the judge and runs as J with the tests; the
  answer runs as U in a separate process that only sees its own file, and the two talk over a
  pair of pipes (rpc.py). The report comes from J on a pipe U cannot reach.

Processes of another uid cannot be signalled, traced, or read through /proc; the runner is root
and non-dumpable. Every process of U runs under a seccomp filter (confine.py) that keeps it from
making itself dumpable again or reaching any process's memory through ptrace-like syscalls.
When the command ends every non-root process is stopped in one kill(-1), then killed; only then
are the pipes read to their end and the files wiped; whatever any uid left (files, IPC objects
of any owner, named sockets, shared memory still charged) is removed or blamed on that job
(`residue`). Every answer process is the OOM killer's first choice (`die_first`). Standard
library only.
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
from dataclasses import dataclass, field

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # -I leaves our folder out
from confine import Filter
from sweep import (
    SCRATCH_ROOT,
    as_uid,
    die_first,
    drop_to,
    exit_status,
    freeze,
    fresh_uids,
    kill_all,
    limit_counters,
    non_root,
    tracked,
    wipe_and_check,
)

RESULT_MARK = "@@RLVR-RESULT@@"
PR_SET_DUMPABLE = 4


def make_undumpable() -> None:
    """Deny ptrace and /proc/<pid>/{mem,fd,environ} access to us (defence in depth: uids differ)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def emit(result: dict) -> None:
    sys.stdout.write(RESULT_MARK + json.dumps(result) + "\n")
    sys.stdout.flush()


class JobError(Exception):
    """The job itself is malformed (a task or manifest bug), not the answer's fault."""


def write_files(ws: str, files: dict, executable: list, public: bool = False) -> str | None:
    """Write files under `ws` (run as the owning uid); the error when a path leaves it.

    `public`: readable (not writable) by other uids, dirs 0755 and files 0644.
    """
    dmode, fmode = (0o755, 0o644) if public else (0o700, 0o600)
    for rel, content in files.items():
        path = os.path.normpath(os.path.join(ws, rel))
        if not path.startswith(ws + "/"):
            return f"file path {rel!r} leaves the workspace"
        parent = os.path.dirname(path)
        os.makedirs(parent, mode=dmode, exist_ok=True)
        while parent != ws:
            os.chmod(parent, dmode)
            parent = os.path.dirname(parent)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(content)
        os.chmod(path, fmode | (0o111 if rel in executable else 0) if public else
                 (0o700 if rel in executable else fmode))  # fmt: skip
    return None


def make_dirs(paths: list[str], mode: int = 0o700) -> None:
    for p in paths:
        os.mkdir(p, mode)
        os.chmod(p, mode)


class Drain:
    """Read several pipes without blocking, keeping at most `cap` bytes of each.

    `wake` (a pidfd of the test command) only wakes the select the moment the command exits.
    """

    def __init__(self, wake: int | None = None) -> None:
        self.sel = selectors.DefaultSelector()
        self.data: dict[str, bytearray] = {}
        self.total: dict[str, int] = {}
        self.cap: dict[str, int] = {}
        self.wake = wake
        if wake is not None:
            self.sel.register(wake, selectors.EVENT_READ, None)

    def add(self, name: str, fd: int, cap: int) -> None:
        os.set_blocking(fd, False)
        self.sel.register(fd, selectors.EVENT_READ, name)
        self.data[name], self.total[name], self.cap[name] = bytearray(), 0, cap

    def pump(self, timeout: float) -> None:
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

    def output_total(self) -> int:
        return sum(n for k, n in self.total.items() if k != "report")

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
        return self.data.get(name, bytearray()).decode("utf-8", "replace")


def open_pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):  # old kernel or seccomp: fall back to polling
        return None


@dataclass
class Role:
    """One uid's view of the job: its private workspace, scratch dir and placeholders."""

    uid: int
    home: str
    ws: str
    scratch: str
    places: dict[str, str] = field(default_factory=dict)

    def expand(self, value: str) -> str:
        for key, repl in self.places.items():
            value = value.replace("{" + key + "}", repl)
        return value

    def argv(self, argv: list[str], job: dict) -> list[str]:
        out: list[str] = []
        for arg in argv:
            out.extend([job["public"], job["hidden"]] if arg == "{tests}" else [self.expand(arg)])
        return out

    def env(self, job: dict) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("RLVR")}
        env.update({"HOME": self.scratch, "TMPDIR": self.scratch})
        env.update({k: self.expand(v) for k, v in job.get("env", {}).items()})
        return env

    def run_dir(self, job: dict) -> str:
        return os.path.normpath(os.path.join(self.ws, job.get("workdir", ".")))


def job_mode(job: dict) -> str:
    if job.get("answer_argv"):
        return "server"
    return "build" if job.get("build_argv") else "plain"


def _as_each(sides: list) -> None:
    """Run each (uid, fn) as its uid; JobError with the first failure."""
    for uid, fn in sides:
        err = as_uid(uid, fn)
        if err:
            raise JobError(err)


def prepare(job: dict, judge: int, answer: int) -> tuple[Role, Role, str]:
    """Make both uids' private dirs and write each one the files it may see.

    plain: the files go to U's own workspace when the stack wants it writable, else to a
    workspace J owns and U may only read (U cannot edit the tests it runs). build: J gets
    every file. server: J gets every file but the answer, U gets only the answer.
    """
    tag = job["job"]
    if not str(tag).isalnum():
        raise JobError(f"job id {tag!r} must be alphanumeric")
    j_home, u_home = (os.path.join(SCRATCH_ROOT, f"rlvr-{r}-{tag}") for r in ("j", "u"))
    shared = os.path.join(SCRATCH_ROOT, f"rlvr-x-{tag}")
    j = Role(judge, j_home, j_home + "/ws", j_home + "/scratch")
    u = Role(answer, u_home, u_home + "/ws", u_home + "/scratch")
    mode = job_mode(job)
    files, exe = job.get("files", {}), job.get("executable", [])
    answer_rel = job["answer"]
    readonly = mode == "plain" and not job.get("writable_workspace")
    judge_files = {k: v for k, v in files.items() if mode == "build" or k != answer_rel}

    def judge_side() -> str | None:
        make_dirs([j.home], 0o711 if readonly else 0o700)
        make_dirs([j.ws], 0o755 if readonly else 0o700)
        make_dirs([j.scratch])
        make_dirs([shared], 0o711)  # J puts what U may execute (not read) here
        if readonly:
            return write_files(j.ws, files, exe, public=True)
        return write_files(j.ws, judge_files, exe) if mode != "plain" else None

    def answer_side() -> str | None:
        make_dirs([u.home, u.ws, u.scratch])
        if mode == "plain" and not readonly:
            return write_files(u.ws, files, exe)
        if mode == "server" and answer_rel in files:
            return write_files(u.ws, {answer_rel: files[answer_rel]}, exe)
        return None

    # a plain writable job has nothing for the judge's uid: one helper process less per job
    judge_needed = mode != "plain" or readonly
    _as_each([(judge, judge_side)] * judge_needed + [(answer, answer_side)])
    if readonly:
        u.ws = j.ws
    for role in (j, u):
        role.places = {"workspace": role.ws, "scratch": role.scratch, "shared": shared,
                       "answer_dir": u.ws, "run": role.run_dir(job)}  # fmt: skip
        role.places.update({k: job[k] for k in ("answer", "public", "hidden")})
        if job.get("report_file"):
            report = os.path.join(role.places["run"], role.expand(job["report_file"]))
            role.places["report_file"] = report
    return j, u, mode


def spawn(argv: list[str], role: Role, job: dict, cwd: str, out: int | None, err: int | None,
          fds: tuple[int, ...] = (), extra_env: dict | None = None, stdin: int = subprocess.DEVNULL,
          confine: Filter | None = None) -> subprocess.Popen:  # fmt: skip
    """Start `argv` as the role's uid; `confine`: the answer's seccomp filter (confine.py), and
    the answer is the OOM killer's first choice."""
    env = role.env(job)
    env.update(extra_env or {})

    def child() -> None:
        if confine is not None:
            die_first()  # while still root: after the uid change /proc/self is not ours
        drop_to(role.uid)
        os.chdir(cwd)  # after the uid change: root may not enter their dirs
        if confine is not None:
            confine.install()

    return tracked(subprocess.Popen(
        argv, preexec_fn=child, env=env, stdin=stdin,
        stdout=out if out is not None else subprocess.PIPE,
        stderr=err if err is not None else subprocess.PIPE, pass_fds=fds,
        start_new_session=True,
    ))  # fmt: skip


def wait_for(proc: subprocess.Popen, drain: Drain, deadline: float, hard_out: int) -> str:
    """Pump output until `proc` exits; 'exited', 'timeout' or 'overflow'."""
    while proc.poll() is None:
        now = time.monotonic()
        if now >= deadline:
            return "timeout"
        drain.pump(min(deadline - now, 0.05))
        if drain.output_total() > hard_out:
            return "overflow"
    return "exited"


def read_capped(path: str | None, cap: int, uid: int) -> str | None:
    """The report file's text, read as its writer's uid (a FIFO or a link does not count)."""
    if not path:
        return None
    r, w = os.pipe()

    def copy() -> None:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        os.write(w, os.read(fd, cap))

    err = as_uid(uid, copy, timeout=5.0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        data = fh.read(cap)
    return None if err else data.decode("utf-8", "replace")


def build(job: dict, j: Role, deadline: float, out_cap: int) -> dict | None:
    """Run the build as J; None when it succeeded, else the result that ends the job."""
    proc = spawn(j.argv(job["build_argv"], job), j, job, j.run_dir(job), None, None)
    drain = Drain(open_pidfd(proc.pid))
    assert proc.stdout is not None and proc.stderr is not None
    drain.add("stdout", proc.stdout.fileno(), out_cap)
    drain.add("stderr", proc.stderr.fileno(), out_cap)
    how = wait_for(proc, drain, deadline, out_cap * 16)
    freeze()
    kill_all()
    code = exit_status(proc)
    drain.finish(time.monotonic() + 1.0)
    if how == "exited" and code == 0:
        return None
    return {"exit_code": code, "build_failed": True, "stdout": drain.text("stdout"),
            "stderr": drain.text("stderr"), "timed_out": how == "timeout",
            "output_overflow": how == "overflow", "lingering": []}  # fmt: skip


def run_test(job: dict, j: Role, u: Role, mode: str, deadline: float, out_cap: int) -> dict:
    """The test command (and the answer server); the pipes are read only after the sweep."""
    main = u if mode != "server" else j
    pipes: list[int] = []  # fds this process must close once the children have them
    main_fds: list[int] = []
    extra: dict[str, str] = {}
    drain_fds: dict[str, tuple[int, int]] = {}
    if job.get("report_from") == "fd":
        nonce_r, nonce_w = os.pipe()
        os.write(nonce_w, job["nonce"].encode())
        os.close(nonce_w)
        rep_r, rep_w = os.pipe()
        extra.update({"RLVR_NONCE_FD": str(nonce_r), "RLVR_REPORT_FD": str(rep_w)})
        main_fds += [nonce_r, rep_w]
        drain_fds["report"] = (rep_r, int(job["report_limit"]))
    server = None
    if mode == "server":
        j2a_r, j2a_w = os.pipe()
        a2j_r, a2j_w = os.pipe()
        out_r, out_w = os.pipe()
        extra["RLVR_RPC_FDS"] = f"{a2j_r},{j2a_w}"
        main_fds += [a2j_r, j2a_w]
        server = spawn(u.argv(job["answer_argv"], job), u, job, u.ws, out_w, out_w,
                       (j2a_r, a2j_w), {"RLVR_RPC_FDS": f"{j2a_r},{a2j_w}"},
                       confine=Filter())  # fmt: skip
        pipes += [j2a_r, a2j_w, out_w]
        drain_fds["answer_output"] = (out_r, out_cap)
    start = time.monotonic()
    cwd = main.run_dir(job) if mode != "build" else u.scratch
    stdin = subprocess.DEVNULL
    if job.get("nonce_stdin"):  # read by the stack's main before any answer code runs
        stdin, nonce_w = os.pipe()
        os.write(nonce_w, job["nonce"].encode() + b"\n")
        os.close(nonce_w)
        pipes.append(stdin)
    try:
        proc = spawn(main.argv(job["argv"], job), main, job, cwd, None, None, tuple(main_fds),
                     extra, stdin, Filter() if main is u else None)  # fmt: skip
    finally:
        for fd in pipes + main_fds:
            os.close(fd)
    if job.get("revoke"):  # the binary U just started may not be run (or read) again
        as_uid(j.uid, lambda: [os.chmod(j.expand(p), 0) for p in job["revoke"]] and None)
    drain = Drain(open_pidfd(proc.pid))
    assert proc.stdout is not None and proc.stderr is not None
    drain.add("stdout", proc.stdout.fileno(), out_cap)
    drain.add("stderr", proc.stderr.fileno(), out_cap)
    for name, (fd, cap) in drain_fds.items():
        drain.add(name, fd, cap)
    how = wait_for(proc, drain, deadline, out_cap * 16)
    # who may still write to the report: U in plain/build mode, only J in server mode
    watched = {j.uid, u.uid} if mode != "server" else {j.uid}
    alive = freeze(skip={server.pid} if server else None)
    uids = non_root()
    lingering = sorted({_comm(p) for p in alive if uids.get(p) in watched})
    kill_all()
    code = exit_status(proc)
    if server is not None:
        exit_status(server)  # not server.wait(): the sweep may have collected it
    drain.finish(time.monotonic() + 1.0)
    report = drain.text("report") if "report" in drain_fds else None
    if job.get("report_from") == "file":
        report = read_capped(main.places.get("report_file"), int(job["report_limit"]), main.uid)
    return {
        "exit_code": code, "stdout": drain.text("stdout"), "stderr": drain.text("stderr"),
        "answer_output": drain.text("answer_output"), "stdout_bytes": drain.total["stdout"],
        "stderr_bytes": drain.total["stderr"], "report": report,
        "duration_s": round(time.monotonic() - start, 4), "timed_out": how == "timeout",
        "output_overflow": how == "overflow", "lingering": lingering,
    }  # fmt: skip


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as fh:
            return fh.read().strip() or "?"
    except OSError:
        return "?"


def run(job: dict) -> dict:
    """One command job: lay out, (build,) test, sweep, wipe. See the module docstring.

    After the wipe, whatever is still in the container (`residue`) is this job's doing: it is
    listed in `left_behind` and the job is not clean, so the host blames it and retires the
    container before any other job meets it."""
    oom0, pids0 = limit_counters()
    judge, answer = fresh_uids(2)
    out_cap = int(job["output_limit"])
    start = time.monotonic()
    deadline = start + float(job["timeout_s"])
    try:
        j, u, mode = prepare(job, judge, answer)
        result = None
        if mode == "build":
            result = build(job, j, deadline, out_cap)
        if result is None:
            result = run_test(job, j, u, mode, deadline, out_cap)
    except JobError as e:
        return {"error": str(e), "clean": False}
    except OSError as e:
        return {"error": f"cannot start the job: {e}", "clean": False}
    result["duration_s"] = round(time.monotonic() - start, 4)
    left = wipe_and_check((judge, answer))
    oom1, pids1 = limit_counters()
    result.update(oom=oom1 > oom0, pids_max=pids1 > pids0, clean=not left, left_behind=left,
                  mode=mode)  # fmt: skip
    return result


def stale() -> dict | None:
    """The error result when the container is not clean before an exec's first job (never the
    case after a clean job: then the host replaces the container and blames no answer)."""
    left = wipe_and_check()
    if not left:
        return None
    return {"error": f"the container held state before this job: {'; '.join(left)}"[:2000],
            "clean": False, "stale": True}  # fmt: skip


MAX_BATCH = 256
SUSPECT = ("timed_out", "oom", "pids_max", "output_overflow", "lingering", "left_behind")


def suspect(result: dict) -> bool:
    """Did this job leave the container in doubt (the host replaces such a container)?"""
    return "error" in result or not result.get("clean") or any(result.get(k) for k in SUSPECT)


def run_batch(payload: dict) -> dict:
    """Several command jobs in one exec (one `docker exec` less per answer), each exactly as
    `run` does it: fresh uids, its own deadline, sweep and wipe before the next starts, so
    siblings never run at the same time nor meet each other's processes or files.

    The batch stops after the first job that leaves the container in doubt (a limit hit, a
    leftover, a failed wipe): the host runs the rest on a fresh container, as it would after
    a single job. One result per job that ran, in order.
    """
    jobs = payload.get("jobs")
    if not isinstance(jobs, list) or not 0 < len(jobs) <= MAX_BATCH:
        return {"error": f"a batch needs a list of 1 to {MAX_BATCH} jobs", "clean": False}
    results = []
    for job in jobs:
        result = run(job)
        results.append(result)
        if suspect(result):
            break
    return {"results": results, "clean": not any(suspect(r) for r in results)}


def main() -> int:
    make_undumpable()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        job = json.loads(sys.stdin.buffer.read())
        before = stale()
        if before is not None:
            emit(before)
            return 0
        if mode == "run":
            emit(run(job))
        elif mode == "check":
            import pycheck

            emit(pycheck.run_group(job))
        elif mode == "batch":
            emit(run_batch(job))
        else:
            emit({"error": f"unknown mode {mode!r}; use run, check or batch", "clean": False})
            return 2
    except Exception as e:  # a runner bug must surface as such, never as the answer's fault
        import traceback

        tail = "".join(traceback.format_exception(e)[-3:])
        emit({"error": f"runner crashed: {tail[-600:]}", "clean": False})
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
