"""Trusted in-container runner: lays out a job, runs its tests under a deadline, cleans up.

Copied by rlvr into /opt/rlvr (a root-owned tmpfs) when a container starts; the host talks to it
through `docker exec` with a JSON job on stdin and reads one JSON result line on stdout.

    python3 -I /opt/rlvr/runner.py setup   (as root)  write /w/<job>/ root-owned, read-only
    python3 -I /opt/rlvr/runner.py run     (as 10001) run the test command, return the result
    python3 -I /opt/rlvr/runner.py check   (as 10001) python-check harness (HumanEval groups)

Standard library only: the image has nothing but python3. The runner turns itself non-dumpable
first so that the answer (same uid) cannot read its memory, file descriptors or stdout through
/proc. The kill sweep only ever runs as uid 10001 so it can never touch a host process.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import time

SANDBOX_UID = 10001
WORK_ROOT = "/w"
SCRATCH_ROOT = "/tmp"
RESULT_MARK = "@@RLVR-RESULT@@"
PR_SET_DUMPABLE = 4


def make_undumpable() -> None:
    """Deny same-uid processes ptrace and /proc/<pid>/{mem,fd,environ} access to us."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def emit(result: dict) -> None:
    sys.stdout.write(RESULT_MARK + json.dumps(result) + "\n")
    sys.stdout.flush()


def remove_tree(path: str) -> None:
    """rm -rf that first restores write permission on directories we own."""
    if not os.path.lexists(path):
        return
    if os.path.isdir(path) and not os.path.islink(path):
        for root, dirs, _files in os.walk(path):
            for d in dirs:
                p = os.path.join(root, d)
                if not os.path.islink(p):
                    with contextlib.suppress(OSError):
                        os.chmod(p, 0o700)
        with contextlib.suppress(OSError):
            os.chmod(path, 0o700)
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            os.unlink(path)


def setup(job: dict) -> dict:
    """As root: drop old workspaces, write this job's files root-owned and read-only."""
    for name in os.listdir(WORK_ROOT):
        remove_tree(os.path.join(WORK_ROOT, name))
    ws = os.path.join(WORK_ROOT, job["job"])
    os.makedirs(ws, mode=0o755)
    for rel, content in job["files"].items():
        path = os.path.normpath(os.path.join(ws, rel))
        if not path.startswith(ws + "/"):
            return {"ok": False, "error": f"file path {rel!r} leaves the workspace"}
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(content)
        os.chmod(path, 0o555 if rel in job.get("executable", []) else 0o444)
    for root, dirs, _files in os.walk(ws):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o755)
    return {"ok": True, "workspace": ws}


def _other_pids(keep: set[int]) -> list[int]:
    """Live (non-zombie) processes of our uid, except `keep`."""
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in keep:
            continue
        try:
            with open(f"/proc/{name}/status") as fh:
                status = fh.read()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        uid = int(fields.get("Uid", "-1").split()[0])
        if uid == SANDBOX_UID and not fields.get("State", "").strip().startswith("Z"):
            pids.append(int(name))
    return pids


def reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def kill_sweep() -> bool:
    """Stop then kill every other process of the sandbox uid; True when none is left."""
    if os.getuid() != SANDBOX_UID:
        return True
    keep = {os.getpid(), os.getppid(), 1}
    for _ in range(400):
        pids = _other_pids(keep)
        if not pids:
            return True
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, sig)
        reap()
        time.sleep(0.002)
    return not _other_pids(keep)


SHARED_DIRS = ("/dev/shm", "/dev/mqueue")
IPC_RMID = 0


def wipe_ipc() -> bool:
    """Remove SysV shared memory, message queues and semaphores of our uid (they outlive jobs)."""
    libc = ctypes.CDLL(None, use_errno=True)
    calls = {"shm": libc.shmctl, "msg": libc.msgctl, "sem": libc.semctl}
    left = False
    for kind, ctl in calls.items():
        try:
            with open(f"/proc/sysvipc/{kind}") as fh:
                header, *rows = [line.split() for line in fh if line.strip()]
        except OSError:
            continue
        id_col = header.index({"shm": "shmid", "msg": "msqid", "sem": "semid"}[kind])
        for row in rows:
            if int(row[header.index("uid")]) != SANDBOX_UID:
                continue
            args = (
                (int(row[id_col]), 0, IPC_RMID)
                if kind == "sem"
                else (int(row[id_col]), IPC_RMID, None)
            )
            left = ctl(*args) != 0 or left
    return not left


def wipe_scratch() -> bool:
    """Remove what the sandbox uid left in /tmp, /dev/shm, /dev/mqueue and SysV IPC.

    True when all of them are empty again (else the container is replaced).
    """
    clean = True
    for root in (SCRATCH_ROOT, *SHARED_DIRS):
        try:
            names = os.listdir(root)
        except OSError:
            continue
        for name in names:
            remove_tree(os.path.join(root, name))
        clean = clean and not os.listdir(root)
    if os.getuid() == SANDBOX_UID:
        clean = wipe_ipc() and clean
    return clean


def cgroup_counter(path: str, key: str) -> int:
    try:
        with open(path) as fh:
            for line in fh:
                k, _, v = line.partition(" ")
                if k == key:
                    return int(v)
    except (OSError, ValueError):
        pass
    return 0


def limit_counters() -> tuple[int, int]:
    oom = cgroup_counter("/sys/fs/cgroup/memory/memory.oom_control", "oom_kill")
    pids = cgroup_counter("/sys/fs/cgroup/pids/pids.events", "max")
    return oom, pids


class Drain:
    """Read several pipes without blocking, keeping at most `cap` bytes of each."""

    def __init__(self, fds: dict[str, tuple[int, int]]) -> None:
        self.sel = selectors.DefaultSelector()
        self.data: dict[str, bytearray] = {}
        self.total: dict[str, int] = {}
        self.cap: dict[str, int] = {}
        for name, (fd, cap) in fds.items():
            os.set_blocking(fd, False)
            self.sel.register(fd, selectors.EVENT_READ, name)
            self.data[name], self.total[name], self.cap[name] = bytearray(), 0, cap

    def pump(self, timeout: float) -> bool:
        """Read what is ready; False once every pipe is closed."""
        if not self.sel.get_map():
            time.sleep(min(timeout, 0.01))
            return False
        for key, _ in self.sel.select(timeout):
            name = key.data
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
        return bool(self.sel.get_map())

    def close(self) -> None:
        for key in list(self.sel.get_map().values()):
            self.sel.unregister(key.fd)
            os.close(key.fd)

    def text(self, name: str) -> str:
        return self.data[name].decode("utf-8", "replace")


def wait_with_deadline(proc: subprocess.Popen, drain: Drain, deadline: float, hard_out: int):
    """Pump output until the process exits (plus a short grace for the pipes), or the deadline.

    Daemons the command left behind may hold its pipes open: they do not extend the wait; the
    kill sweep that follows removes them.
    """
    timed_out = overflow = False
    grace_end = None
    while True:
        now = time.monotonic()
        if now >= deadline:
            timed_out = grace_end is None
            break
        if grace_end is not None and now >= grace_end:
            break
        open_pipes = drain.pump(min(deadline - now, 0.05))
        if drain.total["stdout"] + drain.total["stderr"] > hard_out:
            overflow = True
            break
        if proc.poll() is not None:
            if not open_pipes:
                break
            grace_end = grace_end or now + 0.2
    if timed_out or overflow:
        kill_sweep()
        proc.kill()
    code = proc.wait()
    drain.pump(0)
    drain.close()
    return code, timed_out, overflow


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
    if job.get("writable_workspace"):
        base = os.path.join(scratch, "ws")
        shutil.copytree(ws, base)
        for root, dirs, files in os.walk(base):
            for n in dirs:
                os.chmod(os.path.join(root, n), 0o755)
            for n in files:
                os.chmod(os.path.join(root, n), 0o644)
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
    if not path:
        return None
    try:
        with open(path, "rb") as fh:
            return fh.read(cap).decode("utf-8", "replace")
    except OSError:
        return None


def run(job: dict) -> dict:
    """As the sandbox uid: run the test command, then kill leftovers and wipe /tmp."""
    kill_sweep()
    wipe_scratch()
    oom0, pids0 = limit_counters()
    argv, env, run_dir, _scratch, report_file = prepare_run(job)
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
    drain = Drain(fds)
    deadline = start + float(job["timeout_s"])
    code, timed_out, overflow = wait_with_deadline(proc, drain, deadline, out_cap * 16)
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
            sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
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
