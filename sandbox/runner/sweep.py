"""Process and file clean-up for the runner, which runs as root with CAP_KILL, CAP_SETUID and
CAP_SETGID only (no CAP_DAC_OVERRIDE, no CAP_FOWNER, no CAP_CHOWN).

Every job runs its judge and each answer under uids of their own, picked fresh per job
(`fresh_uids`). Root is never an answer's uid, so "every process that is not root" is exactly
what a job may leave behind: `freeze` stops all of them in one `kill(-1, SIGSTOP)` the moment
the test command ends, `kill_all` kills them until none is left. Files are removed by a forked
helper that takes the owner's uid (`as_uid`), because root here may not enter another uid's
0700 directories; the removal walks with directory fds and an explicit stack, so a tree of any
depth (or longer than PATH_MAX) goes without recursion. Standard library only.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import select
import signal
import stat
import time
from collections.abc import Callable

SCRATCH_ROOT = "/tmp"
SHARED_DIRS = ("/dev/shm", "/dev/mqueue")
UID_BASE = 100_000
UID_SPAN = 1 << 30
IPC_RMID = 0
WIPE_BUDGET = 500_000
WIPE_SECONDS = 4.0  # past this the container is replaced rather than wiped


def fresh_uids(n: int) -> list[int]:
    """`n` consecutive unused uids (the judge's first, then one per answer)."""
    base = UID_BASE + secrets.randbelow(UID_SPAN)
    return [base + i for i in range(n)]


def drop_to(uid: int) -> None:
    """In a forked child: become `uid`:`uid` with no groups and no capabilities, for good."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    os.umask(0o077)


def as_uid(uid: int, fn: Callable[[], object], timeout: float = 30.0) -> str | None:
    """Run `fn` in a forked child as `uid`; None when it returned, else the error text."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 0
        try:
            os.close(r)
            drop_to(uid)
            err = fn()
            if err:
                os.write(w, str(err).encode()[:2000])
                code = 1
        except BaseException as e:  # reported to the parent as text
            with contextlib.suppress(Exception):
                os.write(w, f"{type(e).__name__}: {e}".encode()[:2000])
            code = 1
        os._exit(code)
    os.close(w)
    status = _wait(pid, timeout)
    with os.fdopen(r, "rb") as fh:
        text = fh.read(4000).decode("utf-8", "replace")
    if status == 0:
        return None
    return text or f"helper as uid {uid} failed (status {status})"


def _wait(pid: int, timeout: float) -> int:
    """waitpid with a deadline: sleeps on a pidfd (no polling); kills the child at the deadline."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    end = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            if pidfd is not None:
                os.close(pidfd)
            return status
        left = end - time.monotonic()
        if left <= 0:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            if pidfd is not None:
                os.close(pidfd)
            return -1
        if pidfd is not None:
            select.select([pidfd], [], [], left)
        else:
            time.sleep(0.001)


def owns_anything(uid: int) -> bool:
    """Whether `uid` owns a file in the scratch dirs or a SysV IPC object."""
    return uid in _owners()


def _status(pid: str) -> tuple[int, str, int] | None:
    try:
        with open(f"/proc/{pid}/status") as fh:
            text = fh.read()
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    try:
        uid = int(fields.get("Uid", "-1").split()[0])
        threads = int(fields.get("Threads", "1").strip() or 1)
    except ValueError:
        return None
    return uid, fields.get("State", "").strip()[:1], threads


def non_root(skip: set[int] | None = None) -> dict[int, int]:
    """Live processes that are not root: pid -> uid. A zombie with live threads counts."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit() or (skip and int(name) in skip):
            continue
        st = _status(name)
        if st is None:
            continue
        uid, state, threads = st
        if uid != 0 and (state not in ("Z", "X") or threads > 1):
            found[int(name)] = uid
    return found


def reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _root_pids() -> list[int]:
    me = os.getpid()
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) not in (1, me):
            st = _status(name)
            if st is not None and st[0] == 0:
                out.append(int(name))
    return out


def freeze(skip: set[int] | None = None) -> list[int]:
    """Stop every process in the container in one kill(-1), resume root's own ones.

    Returns the pids (not root, not in `skip`) that were alive and not merely exiting: they
    outlived the command they belonged to.
    """
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGSTOP)
    for pid in _root_pids():  # our `timeout` parent, pid 1's `sleep`
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGCONT)
    end = time.monotonic() + 0.2
    while True:  # let processes that were already dying go
        reap()
        left = non_root(skip)
        if all(_state(p) in ("T", "t") for p in left) or time.monotonic() >= end:
            return sorted(left)
        time.sleep(0.002)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "X"


def kill_all(skip: set[int] | None = None, uid: int | None = None) -> bool:
    """SIGKILL every process that is not root (or, given `uid`, every process of that uid)
    until none is left; True when none is."""
    for _ in range(400):
        pids = [p for p, u in non_root(skip).items() if uid is None or u == uid]
        if not pids:
            return True
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, sig)
        reap()
        time.sleep(0.002)
    return not [p for p, u in non_root(skip).items() if uid is None or u == uid]


def remove_tree_at(parent: int, name: str, budget: list[int]) -> None:
    """Remove `name` in directory fd `parent`, depth-first with an explicit stack (no recursion).

    Directories are made searchable first (we own them); entries we cannot remove are skipped
    once, so the walk always ends; `budget` ([entries, monotonic deadline]) bounds the work.
    """
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        st = os.lstat(name, dir_fd=parent)
    except OSError:
        return
    if not stat.S_ISDIR(st.st_mode):
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=parent)
        return
    with contextlib.suppress(OSError):
        os.chmod(name, 0o700, dir_fd=parent)
    try:
        fd = os.open(name, flags, dir_fd=parent)
    except OSError:
        return
    stack, stuck = [name], set()
    while stack and budget[0] > 0 and time.monotonic() < budget[1]:
        sub = None
        with contextlib.suppress(OSError), os.scandir(fd) as entries:
            for e in entries:
                budget[0] -= 1
                if e.is_dir(follow_symlinks=False):
                    if e.inode() not in stuck:
                        sub = e.name
                        break
                    continue
                with contextlib.suppress(OSError):
                    os.unlink(e.name, dir_fd=fd)
        if sub is not None:
            with contextlib.suppress(OSError):
                os.chmod(sub, 0o700, dir_fd=fd)
            try:
                nfd = os.open(sub, flags, dir_fd=fd)
            except OSError:
                with contextlib.suppress(OSError):
                    stuck.add(os.lstat(sub, dir_fd=fd).st_ino)
                budget[0] -= 1
                continue
            os.close(fd)
            fd = nfd
            stack.append(sub)
            continue
        up = os.open("..", flags, dir_fd=fd)
        here = os.fstat(fd).st_ino
        os.close(fd)
        fd = up
        done = stack.pop()
        try:
            os.rmdir(done, dir_fd=fd if stack else parent)
        except OSError:
            stuck.add(here)
    os.close(fd)


def wipe_own() -> None:
    """As one uid: remove what it owns in /tmp, /dev/shm, /dev/mqueue and its SysV IPC."""
    me = os.getuid()
    budget = [WIPE_BUDGET, time.monotonic() + WIPE_SECONDS]
    for root in (SCRATCH_ROOT, *SHARED_DIRS):
        try:
            rfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            for name in os.listdir(rfd):
                with contextlib.suppress(OSError):
                    if os.lstat(name, dir_fd=rfd).st_uid == me:
                        remove_tree_at(rfd, name, budget)
        finally:
            os.close(rfd)
    wipe_ipc(me)


def _owners() -> set[int]:
    """Uids (not root) that own anything in the scratch dirs or SysV IPC."""
    uids = set()
    for root in (SCRATCH_ROOT, *SHARED_DIRS):
        with contextlib.suppress(OSError):
            for name in os.listdir(root):
                with contextlib.suppress(OSError):
                    uids.add(os.lstat(os.path.join(root, name)).st_uid)
    for kind in ("shm", "msg", "sem"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/sysvipc/{kind}") as fh:
                header, *rows = [line.split() for line in fh if line.strip()]
            col = header.index("uid")
            uids.update(int(row[col]) for row in rows)
    uids.discard(0)
    return uids


def wipe_ipc(uid: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    calls = {"shm": libc.shmctl, "msg": libc.msgctl, "sem": libc.semctl}
    for kind, ctl in calls.items():
        try:
            with open(f"/proc/sysvipc/{kind}") as fh:
                header, *rows = [line.split() for line in fh if line.strip()]
        except (OSError, ValueError):
            continue
        id_col = header.index({"shm": "shmid", "msg": "msqid", "sem": "semid"}[kind])
        for row in rows:
            if int(row[header.index("uid")]) != uid:
                continue
            args = (int(row[id_col]), 0, IPC_RMID) if kind == "sem" else (
                int(row[id_col]), IPC_RMID, None)  # fmt: skip
            ctl(*args)


def wipe_all(extra: list[int] | tuple[int, ...] = ()) -> bool:
    """Kill every non-root process, then wipe as each uid that owns something (`extra`: uids
    the caller knows of, wiped only when they own something too); True when all is empty."""
    kill_all()
    for _ in range(3):
        owners = _owners()
        if not owners:
            break
        for uid in sorted(owners):
            as_uid(uid, wipe_own, timeout=10.0)
    return not _owners() and all(_empty(d) for d in (SCRATCH_ROOT, *SHARED_DIRS))


def _empty(path: str) -> bool:
    try:
        return not os.listdir(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False


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
