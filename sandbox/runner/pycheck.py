"""The python-check harness: a group of Python answers against one `check(candidate)` test.

Used for HumanEval. Two kinds of process under uids that share nothing:

- per answer, an answer server (answer_server.py) as a uid of its own, fresh for this answer;
  it holds only the program (prompt + completion, sent on its stdin at its turn) and answers
  calls over a pair of pipes. The next answer's server starts while this one is checked (it
  only waits for its program), which hides an interpreter start-up per answer;
- one judge per group, forked from this runner and turned into the group's judge uid: for each
  answer it receives the server's pipe ends over a unix socket, builds the test's namespace from
  the task's trusted prompt, runs `check(candidate)` with `candidate` a proxy (rpc.py) and
  writes the outcome to a pipe only the runner reads.

So an answer cannot see the test code, the expected values or another answer, cannot patch
what the judge calls, cannot exit or print its way to a pass, and cannot signal or read its
siblings (different uids). Answers run one at a time; everything of an answer's uid is killed
and wiped before the next answer's program arrives. A judge that overran an answer's deadline
is replaced for the next one.

Also runnable on its own (`python3 pycheck.py --local < job.json`, no uids, no proxy) for the
unsandboxed benchmark floor.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rlvr_strict
from confine import Filter
from sweep import die_first, drop_to, fresh_uids, kill_all, limit_counters, wipe_and_check

RESULT_MARK = "@@RLVR-RESULT@@"
HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = "rlvr_answer"


def _check(job: dict, candidate) -> dict:
    """Run the test's `check` on `candidate` in this (judge) process; the outcome as data."""
    try:
        test_ns: dict = {"__name__": "rlvr_check", "_rlvr": rlvr_strict}
        exec(compile(job["prompt"], "prompt.py", "exec"), test_ns)
        test_ns[job["entry_point"]] = candidate  # as in HumanEval's harness (HumanEval/33)
        exec(compile(job["test"], "test.py", "exec"), test_ns)
        test_ns["check"](candidate)
        return {"outcome": "passed", "message": ""}
    except BaseException as e:  # any failure of the test is the answer's
        tb = traceback.format_exception(type(e), e, e.__traceback__)
        kind = "error" if isinstance(e, SyntaxError | NameError | ImportError) else "failed"
        return {"outcome": kind, "message": "".join(tb[-3:])[-800:]}


def _judge_loop(job: dict, judge_uid: int, sock: socket.socket, res_w: int) -> None:
    """The group's judge (forked, then turned into the judge's uid); never returns.

    For each answer the runner sends the two pipe ends of that answer's server over `sock`;
    the judge runs `check` against the proxy and writes one JSON outcome line to `res_w`.
    """
    code = 0
    try:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        keep = {0, 1, 2, res_w, sock.fileno()}
        for fd in range(3, 1024):
            if fd not in keep:
                with contextlib.suppress(OSError):
                    os.close(fd)
        drop_to(judge_uid)
        import rpc

        while True:
            msg, fds, _flags, _addr = socket.recv_fds(sock, 64, 2)
            if not msg or len(fds) != 2:
                break
            ch = rpc.Channel(*fds)
            try:
                candidate = ch.value("import", name=MODULE, attr=job["entry_point"])
            except BaseException as e:
                result = {"outcome": "error", "message": f"{type(e).__name__}: {e}"[-800:]}
            else:
                result = _check(job, candidate)
            for f in (ch.r, ch.w):
                with contextlib.suppress(OSError):
                    f.close()
            os.write(res_w, json.dumps(result).encode() + b"\n")
    except BaseException:
        code = 1
    os._exit(code)


def _start_server(uid: int, out_w: int) -> tuple:
    """Start an answer server as `uid`; it waits for its program on stdin (run_one sends it),
    so it can start while the previous answer is checked. (proc, the judge's rpc fds)."""
    j2a_r, j2a_w = os.pipe()
    a2j_r, a2j_w = os.pipe()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": "/tmp",
           "TMPDIR": "/tmp", "RLVR_RPC_FDS": f"{j2a_r},{a2j_w}"}  # fmt: skip
    confine = Filter()

    def child() -> None:
        die_first()  # while still root (see sweep.die_first)
        drop_to(uid)
        confine.install()

    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", os.path.join(HERE, "answer_server.py"), "-", MODULE],
        env=env, stdin=subprocess.PIPE, stdout=out_w, stderr=out_w, pass_fds=(j2a_r, a2j_w),
        start_new_session=True, cwd="/tmp", preexec_fn=child,
    )  # fmt: skip
    os.close(j2a_r)
    os.close(a2j_w)
    return proc, (a2j_r, j2a_w)


class Server:
    """One answer's server, started ahead of its turn, and its output pipe."""

    def __init__(self, uid: int) -> None:
        self.uid = uid
        self.out_r, out_w = os.pipe()
        self.proc, self.rpc_fds = _start_server(uid, out_w)
        os.close(out_w)

    def discard(self) -> None:
        """Kill it before its turn and close its pipes."""
        kill_all(uid=self.uid)
        self.proc.wait()
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        for fd in (self.out_r, *self.rpc_fds):
            with contextlib.suppress(OSError):
                os.close(fd)

    def send_program(self, program: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(program.encode())
            self.proc.stdin.close()
        except OSError:  # it exited at once: the judge sees a closed pipe
            pass


class Judge:
    """The group's one judge process and the pipe its outcomes come back on."""

    def __init__(self, job: dict, uid: int) -> None:
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        res_r, res_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - child
            self.sock.close()
            os.close(res_r)
            _judge_loop(job, uid, theirs, res_w)
        theirs.close()
        os.close(res_w)
        self.res_r = res_r
        os.set_blocking(res_r, False)
        self.buf = bytearray()

    def send(self, index: int, fds: tuple[int, int]) -> None:
        socket.send_fds(self.sock, [str(index).encode()], list(fds))

    def alive(self) -> bool:
        try:
            return os.waitpid(self.pid, os.WNOHANG)[0] == 0
        except ChildProcessError:
            return False

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        with contextlib.suppress(OSError):
            os.close(self.res_r)


def _collect(judge: Judge, out_r: int, out_cap: int, deadline: float) -> tuple[dict | None, bytes]:
    """Wait for the judge's next outcome line (or the deadline), draining the answer's output."""
    sel = selectors.DefaultSelector()
    os.set_blocking(out_r, False)
    sel.register(out_r, selectors.EVENT_READ, "out")
    sel.register(judge.res_r, selectors.EVENT_READ, "res")
    out = bytearray()
    result = None
    while result is None:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        events = sel.select(min(left, 1.0))
        for key, _ in events:
            if key.data == "out":
                _read_into(out_r, out, out_cap, sel)
                continue
            try:
                chunk = os.read(judge.res_r, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:  # the judge died
                sel.unregister(judge.res_r)
                result = {"outcome": "failed", "message": "the judge ended without an outcome"}
                break
            judge.buf += chunk
            if b"\n" in judge.buf:
                line, _, rest = bytes(judge.buf).partition(b"\n")
                judge.buf = bytearray(rest)
                try:
                    result = json.loads(line)
                except ValueError:
                    result = {"outcome": "failed", "message": "the judge wrote a malformed line"}
    with contextlib.suppress(KeyError, ValueError):
        sel.unregister(out_r)
    sel.close()
    return result, bytes(out)


def _read_into(fd: int, buf: bytearray, cap: int, sel: selectors.BaseSelector) -> None:
    for _ in range(64):
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        if not chunk:
            sel.unregister(fd)
            return
        room = cap - len(buf)
        if room > 0:
            buf += chunk[:room]


def run_one(job: dict, index: int, judge: Judge, server: Server) -> tuple[dict, bool]:
    """One answer: its program, the judge's check; (result, whether the judge is still fit)."""
    start = time.monotonic()
    server.send_program(job["answers"][index])
    judge.send(index, server.rpc_fds)
    for fd in server.rpc_fds:
        os.close(fd)
    deadline = start + float(job["timeout_s"])
    result, out = _collect(judge, server.out_r, int(job["output_limit"]), deadline)
    timed_out = result is None
    kill_all(uid=server.uid)  # the answer's processes; the judge and the next server stay
    server.proc.wait()
    os.close(server.out_r)
    if timed_out:
        result = {"outcome": "failed", "message": f"timeout after {job['timeout_s']} s"}
    assert result is not None
    result.update(output=out.decode("utf-8", "replace"), timed_out=timed_out,
                  duration_s=round(time.monotonic() - start, 4))  # fmt: skip
    return result, not timed_out


def run_group(job: dict) -> dict:
    """Every answer of the group, one after another, each under its own uid.

    After each answer everything but the judge and the next answer's (idle) server is killed
    and every uid's leftovers are wiped; what is still there then (`residue`) is that answer's
    doing, and so is an OOM kill or the pids limit during its turn (the next answer then gets a
    fresh server: the killer may have taken the one started early). The group stops after an
    answer that left state (its container is retired): the host runs the rest elsewhere."""
    if not str(job["job"]).isalnum():
        return {"error": f"job id {job['job']!r} must be alphanumeric", "clean": False}
    oom0, pids0 = limit_counters()
    judge_uid, *uids = fresh_uids(1 + len(job["answers"]))
    judge = Judge(job, judge_uid)
    results = []
    server = Server(uids[0]) if uids else None
    try:
        for i in range(len(uids)):
            assert server is not None
            current, server = server, (Server(uids[i + 1]) if i + 1 < len(uids) else None)
            before = limit_counters()
            result, fit = run_one(job, i, judge, current)
            keep = {judge.pid} | ({server.proc.pid} if server else set())
            left = wipe_and_check(skip=keep)
            after = limit_counters()
            result.update(oom=after[0] > before[0], pids_max=after[1] > before[1],
                          left_behind=left)  # fmt: skip
            results.append(result)
            if left:
                break
            if result["oom"] and server is not None:  # the killer may have taken the next server
                server.discard()
                server = Server(fresh_uids(1)[0])
            if not fit or not judge.alive():  # stuck on this answer's data, or killed
                judge.close()
                judge = Judge(job, judge_uid)
    finally:
        judge.close()
    left = wipe_and_check()
    oom1, pids1 = limit_counters()
    done = len(results) == len(uids) and not any(r["left_behind"] for r in results)
    return {"results": results, "clean": done and not left, "oom": oom1 > oom0,
            "pids_max": pids1 > pids0}  # fmt: skip


def run_local(job: dict) -> dict:
    """Stand-alone, unsandboxed (benchmark floor): each answer and `check` in one forked child."""
    results = []
    for program in job["answers"]:
        start = time.monotonic()
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            ns: dict = {"__name__": "solution"}
            try:
                exec(compile(program, "solution.py", "exec"), ns)
                result = _check(job, ns[job["entry_point"]])
            except BaseException as e:
                result = {"outcome": "error", "message": str(e)[:800]}
            os.write(w, json.dumps(result).encode())
            os._exit(0)
        os.close(w)
        with os.fdopen(r, "rb") as fh:
            text = fh.read().decode("utf-8", "replace")
        os.waitpid(pid, 0)
        result = json.loads(text) if text else {"outcome": "failed", "message": "no outcome"}
        result.update(duration_s=round(time.monotonic() - start, 4), timed_out=False, output="")
        results.append(result)
    return {"results": results, "clean": True, "oom": False, "pids_max": False}


def main() -> int:
    """`--local`: unsandboxed floor for the benchmark (never run untrusted code this way);
    `--job-json JOB`: a one-shot container (root with SETUID/SETGID/KILL), job as argument."""
    if "--job-json" in sys.argv:
        job = json.loads(sys.argv[sys.argv.index("--job-json") + 1])
    else:
        job = json.loads(sys.stdin.buffer.read())
    result = run_local(job) if "--local" in sys.argv else run_group(job)
    sys.stdout.write(RESULT_MARK + json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
