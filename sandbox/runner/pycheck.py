"""The python-check harness: a group of Python answers against one `check(candidate)` test.

Used for HumanEval. Per answer, two processes under two uids that share nothing:

- the answer server (answer_server.py) runs as a uid of its own, fresh for this answer; it
  holds only the program (prompt + completion) and answers calls over a pipe;
- the judge, forked from this runner and turned into the group's judge uid, builds the test's
  namespace from the task's trusted prompt, runs `check(candidate)` with `candidate` a proxy
  (rpc.py) and writes the outcome to a pipe only the runner reads.

So an answer cannot see the test code, the expected values or another answer, cannot patch
what the judge calls, cannot exit or print its way to a pass, and cannot signal or read its
siblings (different uids). Everything of an answer's uid is killed and wiped before the next.

Also runnable on its own (`python3 pycheck.py --local < job.json`, no uids, no proxy) for the
unsandboxed benchmark floor.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rlvr_strict
from sweep import (
    SCRATCH_ROOT,
    as_uid,
    drop_to,
    fresh_uids,
    kill_all,
    limit_counters,
    wipe_all,
)

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


def _judge(job: dict, judge_uid: int, rpc_fds: tuple[int, int], out_w: int, res_w: int) -> None:
    """The forked judge; never returns."""
    code = 0
    try:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        keep = {0, 1, 2, res_w, *rpc_fds}
        for fd in range(3, 1024):
            if fd not in keep:
                with contextlib.suppress(OSError):
                    os.close(fd)
        drop_to(judge_uid)
        import rpc

        ch = rpc.Channel(*rpc_fds)
        try:
            module = rpc.import_answer(ch, MODULE)
            candidate = getattr(module, job["entry_point"])
        except BaseException as e:
            result = {"outcome": "error", "message": f"{type(e).__name__}: {e}"[-800:]}
        else:
            result = _check(job, candidate)
        os.write(res_w, json.dumps(result).encode())
    except BaseException:
        code = 1
    os._exit(code)


def _collect(pid: int, fds: dict[int, int], deadline: float) -> tuple[dict[int, bytes], bool]:
    """Read the pipes until the judge exits (or the deadline); the bytes per fd, timed out."""
    sel = selectors.DefaultSelector()
    bufs = {fd: bytearray() for fd in fds}
    for fd in fds:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    timed_out = exited = False
    while not exited:
        exited = os.waitpid(pid, os.WNOHANG)[0] != 0
        left = deadline - time.monotonic()
        if left <= 0 and not exited:
            timed_out = True
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        for key, _ in sel.select(0 if exited else min(left, 0.02)):
            _read_into(key.fd, bufs[key.fd], fds[key.fd], sel)
    sel.close()
    for fd in fds:
        os.close(fd)
    return {fd: bytes(b) for fd, b in bufs.items()}, timed_out


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


def _start_server(program: str, uid: int, home: str, out_w: int) -> tuple:
    """Write the program as the answer's uid and start its server; (proc, judge's rpc fds)."""

    def write() -> None:
        os.mkdir(home, 0o700)
        with open(os.path.join(home, MODULE + ".py"), "w", encoding="utf-8") as fh:
            fh.write(program)

    err = as_uid(uid, write)
    if err:
        raise RuntimeError(f"cannot write the answer: {err}")
    j2a_r, j2a_w = os.pipe()
    a2j_r, a2j_w = os.pipe()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": home,
           "TMPDIR": home, "RLVR_RPC_FDS": f"{j2a_r},{a2j_w}"}  # fmt: skip

    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", os.path.join(HERE, "answer_server.py"), home],
        env=env, stdin=subprocess.DEVNULL, stdout=out_w, stderr=out_w, pass_fds=(j2a_r, a2j_w),
        start_new_session=True, user=uid, group=uid, extra_groups=[], umask=0o077,
    )  # fmt: skip
    os.close(j2a_r)
    os.close(a2j_w)
    return proc, (a2j_r, j2a_w)


def run_one(job: dict, index: int, judge_uid: int, uid: int) -> dict:
    """One answer: its server, a forked judge, the outcome; then everything of `uid` is gone."""
    start = time.monotonic()
    out_r, out_w = os.pipe()
    res_r, res_w = os.pipe()
    home = os.path.join(SCRATCH_ROOT, f"rlvr-u-{job['job']}-{index}")
    server, rpc_fds = _start_server(job["answers"][index], uid, home, out_w)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        os.close(out_r)
        os.close(res_r)
        _judge(job, judge_uid, rpc_fds, out_w, res_w)
    for fd in (out_w, res_w, *rpc_fds):
        os.close(fd)
    deadline = start + float(job["timeout_s"])
    got, timed_out = _collect(pid, {out_r: int(job["output_limit"]), res_r: 1 << 16}, deadline)
    kill_all()
    server.wait()
    text = got[res_r].decode("utf-8", "replace")
    result = {"outcome": "failed", "message": "the judge ended without an outcome"}
    if timed_out:
        result = {"outcome": "failed", "message": f"timeout after {job['timeout_s']} s"}
    elif text:
        with contextlib.suppress(ValueError):
            result = json.loads(text)
    result.update(output=got[out_r].decode("utf-8", "replace"), timed_out=timed_out,
                  duration_s=round(time.monotonic() - start, 4))  # fmt: skip
    return result


def run_group(job: dict) -> dict:
    """Every answer of the group, one after another, each under its own uid."""
    if not str(job["job"]).isalnum():
        return {"error": f"job id {job['job']!r} must be alphanumeric", "clean": False}
    clean = wipe_all()
    oom0, pids0 = limit_counters()
    judge_uid, *uids = fresh_uids(1 + len(job["answers"]))
    results = []
    for i, uid in enumerate(uids):
        results.append(run_one(job, i, judge_uid, uid))
        clean = wipe_all((uid,)) and clean
    oom1, pids1 = limit_counters()
    return {"results": results, "clean": clean, "oom": oom1 > oom0, "pids_max": pids1 > pids0}


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
