"""Trusted in-container side of a terminal episode: one container, one agent, then the judge.

    python3 -I /opt/rlvr/episode.py open|bash|read|write|judge   (payload: JSON on stdin)

The host leases a fresh container for each episode and removes it after (nothing crosses
episodes). The host picks the agent's uid A (random, never root) and mounts /app, the agent's
workspace, as a tmpfs that A owns; `open` lays the task's files out there as A. Every tool
call is one exec: `bash` runs a command as A in /app under the answer's seccomp filter and OOM
preference, with a deadline and an output cap; when it ends every process of A is killed, so
nothing runs between calls. `read`/`write` act as A, with A's permissions.

`judge` runs once, after the last turn: every non-root process is killed first; a helper as A
copies the workspace into a snapshot (regular files as data, symlinks as their target text,
never followed); the tests are written only now, into a 0700 directory of a fresh uid J that
the agent never had, with the snapshot beside them; J runs the tests with the image's own
python3 (`judge_main.py`). A test that must execute the agent's program asks this runner over a
pipe, and it runs as another fresh uid E (confined like A) that cannot read J's files or signal
J. The report comes from J on a pipe only J holds. Standard library only.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import selectors
import shutil
import signal
import stat
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from confine import Filter
from judge_git import distrust, walk
from sweep import (
    _owners,
    as_uid,
    die_first,
    drop_to,
    exit_status,
    freeze,
    fresh_uids,
    kill_all,
    limit_counters,
    reap,
    tracked,
    wipe_own,
)

RESULT_MARK = "@@RLVR-RESULT@@"
STATE = "/opt/rlvr/episode.json"
WORKSPACE = "/app"
SNAPSHOT_BYTES = 6 << 20
JUDGE_HOME = "/judge"
READ_CAP = 24 << 20  # what a helper may hand the runner (a snapshot is bounded well below)
# What the agent's programs get when the judge runs them: a home of their own (made fresh, in a
# /tmp the agent's files were wiped from), no user site-packages, and git without replace refs
# or a global config, so nothing the agent left outside /app changes what its programs do.
# Git settings of the workspace's repositories that would make the judge's git lie (grafts and
# replace refs rewrite history; an fsmonitor hook or untracked cache answers `status` for it;
# hooks run the agent's code; exclude files hide untracked files). Command-line config
# (GIT_CONFIG_COUNT) outranks the repository's own; before the snapshot each repository loses
# the rest (judge_git.distrust: config keys, grafts, hooks, excludes, the index's flags and stat
# data).
GIT_OVERRIDES = {"core.fsmonitor": "false", "core.hooksPath": "/dev/null",
                 "core.untrackedCache": "false", "core.excludesFile": "/dev/null",
                 "core.attributesFile": "/dev/null", "status.showUntrackedFiles": "all",
                 "core.sparseCheckout": "false", "diff.external": "",
                 "safe.bareRepository": "explicit"}  # fmt: skip
EXECUTOR_ENV = {"PYTHONNOUSERSITE": "1", "GIT_NO_REPLACE_OBJECTS": "1",
                "GIT_GRAFT_FILE": "/nonexistent/no-grafts", "GIT_CONFIG_GLOBAL": "/dev/null",
                "PYTHONDONTWRITEBYTECODE": "1", "GIT_CONFIG_COUNT": str(len(GIT_OVERRIDES)),
                **{f"GIT_CONFIG_{kind}_{i}": pair[j] for i, pair in enumerate(GIT_OVERRIDES.items())
                   for j, kind in enumerate(("KEY", "VALUE"))}}  # fmt: skip
JUDGE_GIT_ENV = {**EXECUTOR_ENV, "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/nonexistent"}
SNAPSHOT_ENTRIES = 5000
FILE_CAP = 1 << 20


def emit(result: dict) -> None:
    sys.stdout.write(RESULT_MARK + json.dumps(result) + "\n")
    sys.stdout.flush()


def load_state() -> dict:
    with open(STATE, encoding="utf-8") as fh:
        return json.load(fh)


def agent_env(uid: int) -> dict[str, str]:
    home = f"/tmp/home-{uid}"
    return {"HOME": home, "TMPDIR": home, "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8", "USER": "agent", "TERM": "dumb"}  # fmt: skip


def as_agent(uid: int, fn, timeout: float = 30.0) -> tuple[bytes, str | None]:  # type: ignore[no-untyped-def]
    """Run `fn()` (returns bytes) in a child as `uid`; (its bytes, error text or None)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 0
        try:
            os.close(r)
            drop_to(uid)
            os.umask(0o022)
            data = fn()
            with os.fdopen(w, "wb") as out:
                out.write(b"\x00" + data)
        except BaseException as e:  # reported to the parent as text
            with contextlib.suppress(Exception), os.fdopen(w, "wb") as out:
                out.write(b"\x01" + f"{type(e).__name__}: {e}".encode()[:2000])
            code = 1
        os._exit(code)
    os.close(w)
    chunks, end = [], time.monotonic() + timeout
    os.set_blocking(r, False)
    sel = selectors.DefaultSelector()
    sel.register(r, selectors.EVENT_READ)
    size = 0
    while time.monotonic() < end:
        if not sel.select(max(0.0, end - time.monotonic())):
            continue
        try:
            chunk = os.read(r, 1 << 16)
        except BlockingIOError:
            continue
        if not chunk:
            break
        size += len(chunk)
        if size <= READ_CAP:
            chunks.append(chunk)
    sel.close()
    os.close(r)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    data = b"".join(chunks)
    if size > READ_CAP:
        return b"", f"the helper as uid {uid} gave more than {READ_CAP} bytes"
    if not data:
        return b"", f"the helper as uid {uid} gave nothing"
    if data[:1] == b"\x01":
        return b"", data[1:].decode("utf-8", "replace")
    return data[1:], None


def run_confined(argv: list[str], uid: int, cwd: str, env: dict[str, str], stdin: bytes,
                 timeout: float, cap: int) -> dict:  # fmt: skip
    """Run argv as `uid` (confined, OOM-first) to its end or deadline; then kill every process
    of `uid`. Output (stdout and stderr merged) is kept up to `cap` bytes."""
    oom0, pids0 = limit_counters()
    filt = Filter()
    r, w = os.pipe()

    def child() -> None:
        die_first()
        drop_to(uid)
        os.umask(0o022)
        os.chdir(cwd)
        filt.install()

    start = time.monotonic()
    try:
        proc = tracked(subprocess.Popen(argv, preexec_fn=child, env=env, stdin=subprocess.PIPE,
                                        stdout=w, stderr=w, start_new_session=True))  # fmt: skip
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        # a NUL byte or an unencodable character in the command, or a cwd the agent made
        # unusable (chmod 000 /app): the command fails, as it would in a shell
        os.close(r)
        os.close(w)
        kill_all(uid=uid)
        return {"exit_code": 126, "output": f"cannot start: {str(e)[:300]}", "timed_out": False,
                "output_bytes": 0, "oom": False, "pids_max": False, "duration_s": 0.0}  # fmt: skip
    os.close(w)
    threading.Thread(target=_feed, args=(proc, stdin), daemon=True).start()
    out, total, timed_out = _collect(proc, r, start + timeout, cap)
    flooded = total > cap * FLOOD_CAPS
    if not (timed_out or flooded):  # the pipe closed: give the command until its deadline
        try:
            proc.wait(timeout=max(0.0, start + timeout - time.monotonic()))
        except subprocess.TimeoutExpired:
            timed_out = True
    kill_all(uid=uid)
    code = exit_status(proc)
    os.close(r)
    reap()
    oom1, pids1 = limit_counters()
    return {"exit_code": code, "output": out.decode("utf-8", "replace"), "output_bytes": total,
            "timed_out": timed_out, "oom": oom1 > oom0, "pids_max": pids1 > pids0,
            "flooded": flooded, "duration_s": round(time.monotonic() - start, 3)}  # fmt: skip


def _feed(proc: subprocess.Popen, data: bytes) -> None:
    """Write stdin from a thread: a program that never reads it cannot block the runner."""
    with contextlib.suppress(OSError, ValueError):
        assert proc.stdin is not None
        proc.stdin.write(data)
    with contextlib.suppress(OSError, ValueError):
        proc.stdin.close()  # type: ignore[union-attr]


FLOOD_CAPS = 64
"""A command whose output passes this many caps is stopped there (a writer left blocked on
the unread pipe would only sit out its time limit)."""


def _collect(proc: subprocess.Popen, r: int, deadline: float, cap: int) -> tuple[bytes, int, bool]:
    """Read the merged output until the command and its pipe end or the deadline passes;
    (kept bytes, bytes seen, timed out)."""
    os.set_blocking(r, False)
    sel = selectors.DefaultSelector()
    sel.register(r, selectors.EVENT_READ)
    out, total, timed_out = bytearray(), 0, False
    while sel.get_map():
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = proc.poll() is None
            break
        if proc.poll() is not None and not sel.select(0):
            break
        for _ in sel.select(min(left, 0.05)):
            try:
                chunk = os.read(r, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                sel.unregister(r)
                break
            total += len(chunk)
            if len(out) < cap:
                out += chunk[: cap - len(out)]
        if total > cap * FLOOD_CAPS:  # a flood: stopped at once rather than read to the end
            break
    sel.close()
    return bytes(out), total, timed_out


def op_open(job: dict) -> dict:
    if os.path.exists(STATE):
        return {"error": "this container already holds an episode"}
    agent = int(job["agent_uid"])  # the host chose it and made /app its tmpfs
    if agent < 100_000 or os.stat(WORKSPACE).st_uid != agent:
        return {"error": f"{WORKSPACE} is not a workspace of uid {agent}"}
    with open(STATE, "w", encoding="utf-8") as fh:
        json.dump({"agent": agent}, fh)
    files = job.get("files", {})
    executable = set(job.get("executable", []))

    def lay_out() -> bytes:
        os.makedirs(f"/tmp/home-{agent}", mode=0o755)
        for rel, text in files.items():
            path = os.path.normpath(os.path.join(WORKSPACE, rel))
            if not path.startswith(WORKSPACE + "/"):
                raise ValueError(f"file {rel!r} leaves the workspace")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            data = base64.b64decode(text["b64"]) if isinstance(text, dict) else text.encode()
            with open(path, "wb") as fh:
                fh.write(data)
            os.chmod(path, 0o755 if rel in executable else 0o644)
        return b""

    _, err = as_agent(agent, lay_out)
    if err:
        return {"error": f"cannot lay out the workspace: {err}"}
    result = {"agent_uid": agent}
    if job.get("setup"):
        setup = run_confined(["/bin/bash", "-c", job["setup"]], agent, WORKSPACE,
                             agent_env(agent), b"", float(job.get("timeout_s", 60)),
                             64 << 10)  # fmt: skip
        result["setup"] = setup
    return result


def op_bash(job: dict) -> dict:
    agent = load_state()["agent"]
    res = run_confined(["/bin/bash", "-c", job["command"]], agent, WORKSPACE,
                       agent_env(agent), b"", float(job["timeout_s"]),
                       int(job.get("output_limit", 16 << 10)))  # fmt: skip
    # one kill(-1, SIGSTOP) stops every process of the agent's at once (no fork chain outruns
    # it), then they are killed; any that will not die is the agent's doing
    freeze()
    res["lingering"] = not kill_all(uid=agent)
    return res


def _path(rel: str) -> str:
    return os.path.normpath(os.path.join(WORKSPACE, rel))


def op_read(job: dict) -> dict:
    agent = load_state()["agent"]
    cap = int(job.get("limit", 64 << 10))

    def read() -> bytes:
        # O_NONBLOCK: a FIFO opens at once rather than waiting for a writer until the deadline
        fd = os.open(_path(job["path"]), os.O_RDONLY | os.O_NONBLOCK)
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            os.close(fd)
            kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
            raise OSError(f"{job['path']} is {kind}: read_file reads files; use bash")
        with open(fd, "rb") as fh:
            return fh.read(cap + 1)

    data, err = as_agent(agent, read)
    if err:
        return {"ok": False, "problem": err}
    return {"ok": True, "content": data[:cap].decode("utf-8", "replace"), "cut": len(data) > cap}


def op_write(job: dict) -> dict:
    agent = load_state()["agent"]

    def write() -> bytes:
        path = _path(job["path"])
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(job["content"])
        return b""

    _, err = as_agent(agent, write)
    return {"ok": True} if err is None else {"ok": False, "problem": err}


SNAPSHOT_DEPTH = 64
NAME_BUDGET = 2 << 20


def snapshot() -> bytes:
    """As the agent: the workspace as data. Regular files with content, directories, symlinks
    as their target text; nothing is followed, FIFOs and devices are listed only. Bounded in
    entries, depth, bytes of content and bytes of names (`truncated` says a bound was hit), so
    the judge always gets a snapshot it can read, whatever the agent built."""
    entries: list[dict] = []
    content, names, truncated = SNAPSHOT_BYTES, NAME_BUDGET, False
    stack = [("", 0)]
    while stack:
        rel_dir, depth = stack.pop()
        try:
            with os.scandir(os.path.join(WORKSPACE, rel_dir)) as it:
                children = sorted((e.name for e in it), reverse=True)
        except OSError:
            continue
        for name in children:
            rel = os.path.join(rel_dir, name) if rel_dir else name
            names -= len(rel.encode("utf-8", "surrogateescape")) * 6 + 64
            if len(entries) >= SNAPSHOT_ENTRIES or names < 0:
                truncated = True
                break
            entry, data = _snap_entry(rel, content)
            if entry is None:
                continue
            content -= len(data)
            if data:
                entry["b64"] = base64.b64encode(data).decode()
            entries.append(entry)
            if entry["type"] == "dir":
                if depth + 1 < SNAPSHOT_DEPTH:
                    stack.append((rel, depth + 1))
                else:
                    truncated = True
    return json.dumps({"entries": entries, "truncated": truncated}).encode()


def _snap_entry(rel: str, budget: int) -> tuple[dict | None, bytes]:
    path = os.path.join(WORKSPACE, rel)
    try:
        st = os.lstat(path)
    except OSError:
        return None, b""
    shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    entry: dict = {"path": shown, "mode": stat.S_IMODE(st.st_mode)}
    if shown != rel:
        entry["undecodable_name"] = True
    if stat.S_ISLNK(st.st_mode):
        target = os.readlink(path)[:4096]
        entry.update(type="link", target=target.encode("utf-8", "surrogateescape").decode(
            "utf-8", "replace"))  # fmt: skip
        return entry, b""
    if stat.S_ISDIR(st.st_mode):
        entry["type"] = "dir"
        return entry, b""
    if not stat.S_ISREG(st.st_mode):
        entry["type"] = "other"
        return entry, b""
    entry.update(type="file", size=st.st_size)
    if st.st_size > min(FILE_CAP, budget):
        entry["not_read"] = True
        return entry, b""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as fh:
            return entry, fh.read(FILE_CAP)
    except OSError:
        entry["unreadable"] = True
        return entry, b""


def clear_judge_home(home: str) -> None:
    """(As the judge.) What an earlier judge run left, when the judge runs again after a
    daemon outage: the tests, the workspace copy and its listing."""
    for old in ("/tests", "/ws", "/ws.json"):
        if os.path.isdir(home + old) and not os.path.islink(home + old):
            shutil.rmtree(home + old)
        elif os.path.lexists(home + old):
            os.unlink(home + old)


def op_judge(job: dict) -> dict:
    """Kill the agent's processes and wipe its scratch space, snapshot the workspace, then run
    the tests as the judge's uid J in /judge, a tmpfs of J's that the agent never could write."""
    state = load_state()
    agent = state["agent"]
    judge = int(job["judge_uid"])
    if judge < 100_000 or os.stat(JUDGE_HOME).st_uid != judge:
        return {"error": f"{JUDGE_HOME} is not a folder of uid {judge}"}
    freeze()
    if not kill_all():  # every process that is not root: the agent has none left after this
        return {"error": "agent processes would not die before the judge", "clean": False,
                "agent_fault": True}  # fmt: skip
    as_uid(agent, wipe_own, timeout=30.0)  # /tmp, /dev/shm: nothing of the agent's but /app
    if agent in _owners():  # a pile the wipe could not finish: what it hides could be judged
        return {"error": "the agent's files in /tmp, /dev/shm or its IPC objects would not all "
                "wipe before the judge", "agent_fault": True}  # fmt: skip
    _, err = as_agent(agent, lambda: distrust(JUDGE_GIT_ENV), timeout=60.0)
    if err:  # the agent's repositories would not give up what makes git lie
        return {"error": err, "agent_fault": True}
    data, err = as_agent(agent, snapshot, timeout=60.0)
    if err:
        return {"error": f"snapshot failed: {err}", "agent_fault": True}
    (executor,) = fresh_uids(1)
    home = JUDGE_HOME

    def lay_out_tests() -> bytes:
        clear_judge_home(home)
        os.makedirs(home + "/tests", mode=0o700)
        os.makedirs(home + "/ws", mode=0o700)
        for rel, text in job["tests"].items():
            path = os.path.normpath(os.path.join(home, "tests", rel))
            if not path.startswith(home + "/tests/"):
                raise ValueError(f"test file {rel!r} leaves the tests folder")
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        snap = json.loads(data)
        for e in snap["entries"]:  # the snapshot as plain files: no link is followed
            _lay_out_entry(home, e)
        with open(home + "/ws.json", "w", encoding="utf-8") as fh:
            json.dump({"entries": snap["entries"], "truncated": bool(snap["truncated"])}, fh)
        os.chmod(home, 0o700)
        return b""

    _, err = as_agent(judge, lay_out_tests, timeout=60.0)
    if err:
        return {"error": f"cannot lay out the tests: {err}"}
    _, err = as_agent(executor, lambda: os.makedirs(agent_env(executor)["HOME"]) or b"")
    if err:  # the agent's /tmp would not wipe: the workspace it left cannot be judged
        return {"error": f"no room for the judged programs: {err}", "agent_fault": True}
    return run_judge(job, judge, executor, home, agent)


def _lay_out_entry(home: str, e: dict) -> None:
    """One snapshot entry as a plain file or folder of the judge's copy (an entry that cannot
    be written, such as a path past the file system's limits, is marked and left out)."""
    data = base64.b64decode(e.pop("b64")) if "b64" in e else None
    path = os.path.normpath(os.path.join(home, "ws", e["path"]))
    if not path.startswith(home + "/ws/"):
        e["unreadable"] = True
        return
    try:
        if e["type"] == "dir":
            os.makedirs(path, exist_ok=True)
        elif e["type"] == "file" and data is not None:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as fh:
                fh.write(data)
    except (OSError, ValueError):
        e["unreadable"] = True


def run_judge(job: dict, judge: int, executor: int, home: str, agent: int) -> dict:
    """J runs judge_main.py; its requests to run the agent's programs are served as E."""
    req_r, req_w = os.pipe()  # J -> runner
    res_r, res_w = os.pipe()  # runner -> J
    rep_r, rep_w = os.pipe()  # J's report
    env = {"HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
           "RLVR_FDS": f"{req_w},{res_r},{rep_w}", "RLVR_JUDGE_HOME": home}  # fmt: skip

    def child() -> None:
        drop_to(judge)
        os.chdir(home)

    before, changed = agent_view(agent), None
    argv = ["/usr/bin/python3", "-I", "/opt/rlvr/judge_main.py", home + "/tests/" + job["test"]]
    start = time.monotonic()
    proc = tracked(subprocess.Popen(
        argv, preexec_fn=child, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, pass_fds=(req_w, res_r, rep_w), start_new_session=True,
    ))  # fmt: skip
    for fd in (req_w, res_r, rep_w):
        os.close(fd)
    deadline = start + float(job["timeout_s"])
    sel = selectors.DefaultSelector()
    assert proc.stdout is not None
    streams = {req_r: bytearray(), rep_r: bytearray(), proc.stdout.fileno(): bytearray()}
    for fd in streams:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    runs = 0
    timed_out = False
    while sel.get_map():
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        for key, _ in sel.select(min(left, 0.1)):
            try:
                chunk = os.read(key.fd, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                sel.unregister(key.fd)
                continue
            buf = streams[key.fd]
            if len(buf) < (1 << 20):
                buf += chunk
            while key.fd == req_r and b"\n" in buf:
                line, _, rest = bytes(buf).partition(b"\n")
                buf[:] = rest
                runs += 1
                reply = serve(line, executor, min(deadline - time.monotonic(), 120.0))
                # a program of the agent's, run for the judge, that wrote /app
                changed = changed or first_change(before, agent_view(agent))
                with contextlib.suppress(OSError):
                    os.write(res_w, json.dumps(reply).encode() + b"\n")
    kill_all()
    code = exit_status(proc)
    sel.close()
    for fd in (req_r, rep_r, res_w):
        with contextlib.suppress(OSError):
            os.close(fd)
    return {"exit_code": code, "report": streams[rep_r].decode("utf-8", "replace"),
            "output": streams[proc.stdout.fileno()].decode("utf-8", "replace")[-8000:],
            "timed_out": timed_out, "agent_runs": runs, "workspace_changed": changed,
            "duration_s": round(time.monotonic() - start, 3)}  # fmt: skip


def workspace_state() -> dict[str, tuple[int, ...]]:
    """Every entry of /app with what a write would change (its change time above all, which
    no program can set back), walked as root without following a link, bounded."""
    state: dict[str, tuple[int, ...]] = {}
    for here, dirs, files in walk(WORKSPACE):
        for name in [*dirs, *files]:
            path = os.path.join(here, name)
            with contextlib.suppress(OSError):
                st = os.lstat(path)
                state[path] = (st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            if len(state) > WATCHED_ENTRIES:  # a part left unwatched could change unseen
                raise RuntimeError(f"more than {WATCHED_ENTRIES} entries")
    return state


State = dict[str, tuple[int, ...]]
WATCHED_ENTRIES = SNAPSHOT_ENTRIES * 4
UNWATCHED = "(the workspace, which the judge cannot watch: too many entries or bytes of names)"


def agent_view(agent: int) -> State | None:
    """`workspace_state` as the agent's uid, which can list every folder of its own workspace
    (the runner's root has no DAC override: a 0711 folder hid its files from it); None when
    the walk fails or outgrows what a helper may hand back, which reads as a change."""
    data, err = as_agent(agent, lambda: json.dumps(workspace_state()).encode(), timeout=30.0)
    if err:
        return None
    return {k: tuple(v) for k, v in json.loads(data).items()}


def first_change(before: State | None, after: State | None) -> str | None:
    """The first path whose entry differs between two workspace states, or None. A view that
    could not be taken is a change: two failed views alike must not read as "unchanged"."""
    if before is None or after is None:
        return UNWATCHED
    for path in sorted(before.keys() | after.keys()):
        if before.get(path) != after.get(path):
            return path[len(WORKSPACE) + 1 :] or "/app"
    return None


def serve(line: bytes, executor: int, budget: float) -> dict:
    """One request of the judge: run an argv of the agent's as E in /app."""
    try:
        req = json.loads(line)
        argv = [str(a) for a in req["argv"]]
        stdin = str(req.get("stdin", "")).encode()
        timeout = max(0.1, min(float(req.get("timeout_s", 10)), budget))
    except (ValueError, KeyError, TypeError) as e:
        return {"exit_code": -1, "output": f"bad request: {e}", "timed_out": False}
    env = {**agent_env(executor), **EXECUTOR_ENV}
    res = run_confined(argv, executor, WORKSPACE, env, stdin, timeout, 1 << 20)
    return {k: res[k] for k in ("exit_code", "output", "timed_out", "oom")}


OPS = {"open": op_open, "bash": op_bash, "read": op_read, "write": op_write, "judge": op_judge}


def main() -> int:
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
    # a program that exits without reading its stdin must not take the runner with it: writes
    # to it raise BrokenPipeError instead (children get SIGPIPE back: Popen restores signals)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    op = sys.argv[1] if len(sys.argv) > 1 else ""
    try:
        job = json.loads(sys.stdin.buffer.read())
        if op not in OPS:
            emit({"error": f"unknown op {op!r}; use {', '.join(OPS)}"})
            return 2
        emit(OPS[op](job))
    except Exception as e:  # a runner bug must surface as such, never as the agent's fault
        import traceback

        tail = "".join(traceback.format_exception(e)[-3:])
        emit({"error": f"episode runner crashed: {tail[-600:]}"})
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
