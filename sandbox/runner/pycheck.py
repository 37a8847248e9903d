"""The python-check harness: run a group of Python answers against one `check(candidate)` test.

Used for HumanEval. The runner process is a warm interpreter (rlvr_strict already imported);
each answer runs in a forked child in its own session with its output captured, under its own
deadline. The child reports a pass only after `check` returned, by writing a per-answer token
the parent checks; an answer that exits early (sys.exit, os._exit, exec) never wrote it, so it
fails. The test code runs in its own namespace, built from the task's trusted prompt, so an
answer cannot redefine the helpers the test calls nor the `_rlvr` comparison module.

Also runnable on its own (`python3 pycheck.py < job.json`) for the unsandboxed benchmark floor.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rlvr_strict

RESULT_MARK = "@@RLVR-RESULT@@"


def _child(job: dict, index: int, program: str, out_w: int, res_w: int, token: str) -> None:
    """Runs in the forked child; never returns."""
    try:
        os.setsid()
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out_w, 1)
        os.dup2(out_w, 2)
        os.closerange(3, res_w)
        os.closerange(res_w + 1, 1 << 16)
        scratch = os.path.join("/tmp", f"rlvr-check-{os.getpid()}")
        os.makedirs(scratch, exist_ok=True)
        os.chdir(scratch)
        sys.stdout = os.fdopen(1, "w", buffering=1)
        sys.stderr = os.fdopen(2, "w", buffering=1)
        answer_ns: dict = {"__name__": "solution"}
        exec(compile(program, "solution.py", "exec"), answer_ns)
        test_ns: dict = {"__name__": "rlvr_check", "_rlvr": rlvr_strict}
        exec(compile(job["prompt"], "prompt.py", "exec"), test_ns)
        candidate = answer_ns.get(job["entry_point"])
        if candidate is None:
            raise NameError(f"the answer defines no {job['entry_point']!r}")
        test_ns[job["entry_point"]] = candidate  # as in HumanEval's harness (HumanEval/33)
        exec(compile(job["test"], "test.py", "exec"), test_ns)
        test_ns["check"](candidate)
        result = {"outcome": "passed", "message": ""}
    except BaseException as e:
        tb = traceback.format_exception(type(e), e, e.__traceback__)
        kind = "error" if isinstance(e, SyntaxError | NameError | ImportError) else "failed"
        result = {"outcome": kind, "message": "".join(tb[-3:])[-800:]}
    try:
        os.write(res_w, (token + json.dumps(result)).encode())
    finally:
        os._exit(0)


def _collect(pid: int, out_r: int, res_r: int, deadline: float, out_cap: int):
    """Read the child's pipes until it exits (or the deadline); daemons it left don't count."""
    sel = selectors.DefaultSelector()
    bufs = {out_r: bytearray(), res_r: bytearray()}
    caps = {out_r: out_cap, res_r: 1 << 16}
    for fd in bufs:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    timed_out = exited = False
    while not exited:
        exited = os.waitpid(pid, os.WNOHANG)[0] != 0
        left = deadline - time.monotonic()
        if left <= 0 and not exited:
            timed_out = True
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        for key, _ in sel.select(0 if exited else min(left, 0.02)):
            _read_into(key.fd, bufs[key.fd], caps[key.fd], sel)
    sel.close()
    os.close(out_r)
    os.close(res_r)
    return bytes(bufs[out_r]), bytes(bufs[res_r]), timed_out


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


def run_one(job: dict, index: int, program: str, sweep) -> dict:
    """Fork one child for one answer; read its output and its token-signed result."""
    token = f"{job['nonce']}:{index}:"
    out_r, out_w = os.pipe()
    res_r, res_w = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(out_r)
        os.close(res_r)
        _child(job, index, program, out_w, res_w, token)
    os.close(out_w)
    os.close(res_w)
    deadline = start + float(job["timeout_s"])
    out, res, timed_out = _collect(pid, out_r, res_r, deadline, int(job["output_limit"]))
    if timed_out:
        sweep()
    duration = time.monotonic() - start
    text = res.decode("utf-8", "replace")
    if timed_out:
        result = {"outcome": "failed", "message": f"timeout after {job['timeout_s']} s"}
    elif text.startswith(token):
        result = json.loads(text[len(token) :])
    else:
        result = {"outcome": "failed", "message": "the answer exited before the tests finished"}
    result.update(
        output=out.decode("utf-8", "replace"), timed_out=timed_out, duration_s=round(duration, 4)
    )
    return result


def run_group(job: dict, sweep, wipe, counters) -> dict:
    """Every answer of the group, one after another, with a kill sweep after each."""
    oom0, pids0 = counters()
    results = []
    clean = True
    for i, program in enumerate(job["answers"]):
        results.append(run_one(job, i, program, sweep))
        clean = sweep() and wipe()
    oom1, pids1 = counters()
    return {"results": results, "clean": clean, "oom": oom1 > oom0, "pids_max": pids1 > pids0}


def main() -> int:
    """Stand-alone use (benchmark floor, one-shot containers): no sweep, no wipe.

    The job comes on stdin, or as the argument of `--job-json`. Never run untrusted code this
    way outside a container.
    """
    if len(sys.argv) > 2 and sys.argv[1] == "--job-json":
        job = json.loads(sys.argv[2])
    else:
        job = json.loads(sys.stdin.buffer.read())
    result = run_group(job, lambda: True, lambda: True, lambda: (0, 0))
    sys.stdout.write(RESULT_MARK + json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
