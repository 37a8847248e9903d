"""Clean-up of the sandbox user's leftovers, shared by the runner's `run` and `check` modes.

Every function here acts as uid 10001 only (a no-op for root), inside the container's own pid
namespace, so it can never reach a host process: stop and kill every other process of the uid
(`kill_sweep`, `freeze`), wipe /tmp, /dev/shm, /dev/mqueue and SysV IPC objects, and read the
cgroup counters that tell a memory or pids limit was hit. Standard library only.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import time

SANDBOX_UID = 10001
SCRATCH_ROOT = "/tmp"


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


def _others(keep: set[int]) -> dict[int, str]:
    """Live processes of our uid, except `keep`: pid -> name.

    A zombie whose other threads still run (its main thread exited) counts as live.
    """
    found = {}
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
        state = fields.get("State", "").strip()[:1]
        threads = int(fields.get("Threads", "1").strip() or 1)
        if uid == SANDBOX_UID and (state not in ("Z", "X") or threads > 1):
            found[int(name)] = fields.get("Name", "?").strip()
    return found


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
        pids = list(_others(keep))
        if not pids:
            return True
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, sig)
        reap()
        time.sleep(0.002)
    return not _others(keep)


def freeze(exclude: int) -> list[str]:
    """Stop every other process of the sandbox uid in one kill(-1), the moment the command ended.

    Returns the names of those still alive (not merely exiting): they outlived the test command
    and could have rewritten its report after it ended, so the report is not trusted. Our parent
    (`timeout`, same uid) is stopped too and resumed at once.
    """
    if os.getuid() != SANDBOX_UID:
        return []
    with contextlib.suppress(OSError):
        os.kill(-1, signal.SIGSTOP)
    parent = os.getppid()
    if parent > 1:
        with contextlib.suppress(OSError):
            os.kill(parent, signal.SIGCONT)
    keep = {os.getpid(), parent, 1, exclude}
    end = time.monotonic() + 0.2
    while True:  # let processes that were already dying (SIGKILL pending, exiting) go
        left = _others(keep)
        stopped = all(_state(pid) in ("T", "t") for pid in left)
        if stopped or time.monotonic() >= end:
            return sorted(left.values())
        reap()
        time.sleep(0.002)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "X"


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
