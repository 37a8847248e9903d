"""Process and file clean-up for the runner, which runs as root with CAP_KILL, CAP_SETUID and
CAP_SETGID only (no CAP_DAC_OVERRIDE, no CAP_FOWNER, no CAP_CHOWN).

Every job runs its judge and each answer under uids of their own, picked fresh per job
(`fresh_uids`). Root is never an answer's uid, so "every process that is not root" is exactly
what a job may leave behind: `freeze` stops all of them in one `kill(-1, SIGSTOP)` the moment
the test command ends, `kill_all` kills them until none is left. Files are removed by a forked
helper that takes the owner's uid (`as_uid`), because root here may not enter another uid's
0700 directories; the removal walks with directory fds and an explicit stack, so a tree of any
depth (or longer than PATH_MAX) goes without recursion.

SysV IPC objects are removed whoever owns them: an owner may hand an object to another uid,
root included (`IPC_SET`), but never change its creator, and `IPC_RMID` is allowed to the owner
or the creator (root here has no CAP_SYS_ADMIN: measured, it gets EPERM on an object another
uid owns and created). So root removes what root owns or created, and a helper as each object's
creator removes the rest. After the wipe, `residue` lists what is still there (files, IPC
objects, unix sockets, processes, shared memory still charged to the container): a job that
leaves any of it is blamed and its container retired. Standard library only.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import secrets
import select
import signal
import stat
import subprocess
import time
from collections.abc import Callable

SCRATCH_ROOT = "/tmp"
SHARED_DIRS = ("/dev/shm", "/dev/mqueue")
UID_BASE = 100_000
UID_SPAN = 1 << 30
IPC_RMID = 0
IPC_KINDS = {"shm": "shmid", "msg": "msqid", "sem": "semid"}
# Shared memory (tmpfs files, SysV segments) still charged to the container after a wipe. Idle,
# with the runner installed, the container holds 0.16 MiB (measured); past this floor the wipe
# missed something and the container is retired.
SHMEM_FLOOR = 4 << 20
WIPE_BUDGET = 500_000
WIPE_SECONDS = 4.0  # past this the container is replaced rather than wiped
WIPE_TOTAL_S = 6.0  # all wipes and checks after one job: what is left then is that job's
SCAN_ENTRIES = 10_000  # entries of a scratch dir read to find their owners (per pass)


def fresh_uids(n: int) -> list[int]:
    """`n` consecutive unused uids (the judge's first, then one per answer)."""
    base = UID_BASE + secrets.randbelow(UID_SPAN)
    return [base + i for i in range(n)]


ANSWER_OOM_ADJ = 1000


def die_first() -> None:
    """Make this process (an answer's, before its uid change) the OOM killer's first choice.

    Raising needs no capability; lowering it again below the runner's value would need
    CAP_SYS_RESOURCE, which no process here has, but a dumpable answer may lower it back to the
    runner's own value (0). The host then still blames the job that saw the OOM event."""
    with contextlib.suppress(OSError), open("/proc/self/oom_score_adj", "w") as fh:
        fh.write(str(ANSWER_OOM_ADJ))


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


REAPED: dict[int, int] = {}  # pid -> exit code of the children reap() collected


def reap() -> None:
    """Collect every child that has exited, keeping its exit code for `exit_status`."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        # the first record stands: a later process given the same pid cannot overwrite it
        REAPED.setdefault(pid, os.waitstatus_to_exitcode(status))


def tracked(proc: subprocess.Popen) -> subprocess.Popen:
    """A just-started Popen whose pid may reuse one `reap` recorded: that record is stale."""
    REAPED.pop(proc.pid, None)
    return proc


def exit_status(proc: subprocess.Popen) -> int:
    """`proc`'s exit code after a sweep, killing it if it still runs. When `reap` (a wait on
    any child) collected it first, Popen would read ECHILD as exit code 0: a program killed at
    its time limit read as a success. Call it before any poll() or wait() after the sweep."""
    if proc.returncode is not None:  # Popen collected it itself, before the sweep
        REAPED.pop(proc.pid, None)
        return proc.returncode
    if proc.pid in REAPED:  # the sweep did: the first record since the start is its own
        # set on the Popen too, so that nothing polls the freed pid later (Popen.__del__,
        # subprocess._active), which another child may have been given by then
        proc.returncode = REAPED.pop(proc.pid)
        return proc.returncode
    with contextlib.suppress(OSError):
        proc.kill()
    return proc.wait()


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


def wipe_own(seconds: float = WIPE_SECONDS) -> None:
    """As one uid: remove what it owns in /tmp, /dev/shm, /dev/mqueue and its SysV IPC, for at
    most `seconds` (a million entries is not wiped: what is left retires the container)."""
    me = os.getuid()
    budget = [WIPE_BUDGET, time.monotonic() + seconds]
    for root in (SCRATCH_ROOT, *SHARED_DIRS):
        try:
            rfd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            with os.scandir(rfd) as entries:
                for entry in entries:
                    if budget[0] <= 0 or time.monotonic() >= budget[1]:
                        break
                    budget[0] -= 1
                    with contextlib.suppress(OSError):
                        if entry.stat(follow_symlinks=False).st_uid == me:
                            remove_tree_at(rfd, entry.name, budget)
        finally:
            os.close(rfd)
    wipe_ipc(me)


def _ipc_rows() -> list[tuple[str, int, int, int]]:
    """Every SysV IPC object in the container: (kind, id, owner uid, creator uid)."""
    out = []
    for kind, id_name in IPC_KINDS.items():
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/sysvipc/{kind}") as fh:
                header, *rows = [line.split() for line in fh if line.strip()]
            at = [header.index(c) for c in (id_name, "uid", "cuid")]
            out.extend((kind, *(int(row[i]) for i in at)) for row in rows)  # type: ignore[misc]
    return out


def _owners() -> set[int]:
    """Uids (not root) that own a file in the scratch dirs, or own or created an IPC object."""
    uids = set()
    for root in (SCRATCH_ROOT, *SHARED_DIRS):
        with contextlib.suppress(OSError), os.scandir(root) as entries:
            for n, entry in enumerate(entries):
                if n >= SCAN_ENTRIES:
                    break
                with contextlib.suppress(OSError):
                    uids.add(entry.stat(follow_symlinks=False).st_uid)
    for _kind, _id, uid, cuid in _ipc_rows():
        uids.update((uid, cuid))
    uids.discard(0)
    return uids


def wipe_ipc(uid: int) -> None:
    """Remove the SysV IPC objects `uid` (the caller's uid) owns or created."""
    libc = ctypes.CDLL(None, use_errno=True)
    calls = {"shm": libc.shmctl, "msg": libc.msgctl, "sem": libc.semctl}
    for kind, ident, owner, creator in _ipc_rows():
        if uid not in (owner, creator):
            continue
        ctl = calls[kind]
        ctl(ident, 0, IPC_RMID) if kind == "sem" else ctl(ident, IPC_RMID, None)


def wipe_all(extra: list[int] | tuple[int, ...] = (), skip: set[int] | None = None) -> bool:
    """Kill every non-root process (but `skip`), then remove what any uid left: root's own IPC
    objects here, each other owner's files and IPC objects as that uid (`extra`: uids the caller
    knows of, wiped only when they own something too); True when all is empty."""
    return _wipe_until(time.monotonic() + WIPE_TOTAL_S, skip)


def _wipe_until(deadline: float, skip: set[int] | None = None) -> bool:
    """`wipe_all`'s work, stopped at `deadline` (the wipe helpers' own budgets included)."""
    kill_all(skip)
    wipe_ipc(0)  # objects handed to root, or created by it
    for _ in range(3):
        owners = _owners()
        if not owners:
            break
        for uid in sorted(owners):
            left = deadline - time.monotonic()
            if left <= 0.05:
                return False
            seconds = min(WIPE_SECONDS, left)
            as_uid(uid, functools.partial(wipe_own, seconds), timeout=left + 1.0)
    return not _owners() and all(_empty(d) for d in (SCRATCH_ROOT, *SHARED_DIRS))


def wipe_and_check(
    extra: list[int] | tuple[int, ...] = (), skip: set[int] | None = None
) -> list[str]:
    """`wipe_all`, then what is still there (`residue`); a second wipe first when something is
    (a killed process still exiting on a loaded machine), so that only what stays is blamed."""
    deadline = time.monotonic() + WIPE_TOTAL_S
    _wipe_until(deadline, skip)
    left = residue(skip)
    if left and time.monotonic() < deadline:
        time.sleep(0.05)
        _wipe_until(deadline, skip)
        left = residue(skip)
    return left


def residue(skip: set[int] | None = None) -> list[str]:
    """What is still in the container after a wipe, in words ([] when nothing is).

    Processes of any uid but root (and but `skip`), entries in the writable dirs, SysV IPC
    objects of any owner, unix sockets with a name (bound to a path or abstract), and shared
    memory still charged to the container's memory cgroup above `SHMEM_FLOOR`."""
    left = []
    procs = non_root(skip)
    if procs:
        left.append(f"{len(procs)} processes of uids {sorted(set(procs.values()))[:5]}")
    for d in (SCRATCH_ROOT, *SHARED_DIRS):
        with contextlib.suppress(OSError), os.scandir(d) as entries:
            names = [e.name for _, e in zip(range(4), entries, strict=False)]
            if names:
                more = "+" if len(names) > 3 else ""
                left.append(f"{min(len(names), 3)}{more} entries in {d} ({', '.join(names[:3])})")
    for kind, ident, uid, cuid in _ipc_rows()[:5]:
        left.append(f"SysV {kind} {ident} (owner uid {uid}, creator uid {cuid})")
    sockets = named_unix_sockets()
    if sockets:
        left.append(f"{len(sockets)} named unix sockets ({', '.join(sockets[:3])})")
    shmem = memory_stat().get("shmem", 0)
    if shmem > SHMEM_FLOOR:
        left.append(f"{shmem / (1 << 20):.1f} MiB of shared memory still charged to the container")
    return left


def named_unix_sockets() -> list[str]:
    """Paths (`@name` when abstract) of the unix sockets in the container's network namespace."""
    try:
        with open("/proc/net/unix") as fh:
            rows = [line.split() for line in fh.read().splitlines()[1:]]
    except OSError:
        return []
    return [row[7] for row in rows if len(row) > 7]


def _empty(path: str) -> bool:
    try:
        with os.scandir(path) as entries:
            return next(entries, None) is None
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


CGROUP_V2 = "/sys/fs/cgroup/memory.stat"
CGROUP_V1 = "/sys/fs/cgroup/memory/memory.stat"


def memory_stat() -> dict[str, int]:
    """The container's memory cgroup counters in bytes, under common names (cgroup v1 or v2):
    `shmem` (tmpfs files and SysV segments), `anon` and `file`."""
    v2 = os.path.exists(CGROUP_V2)
    names = {"shmem": "shmem", "anon": "anon", "file": "file"} if v2 else {
        "shmem": "total_shmem", "anon": "total_rss", "file": "total_cache"}  # fmt: skip
    path = CGROUP_V2 if v2 else CGROUP_V1
    return {k: cgroup_counter(path, v) for k, v in names.items()}


def limit_counters() -> tuple[int, int]:
    """(OOM kills, times the pids limit was hit) so far in this container (cgroup v1 or v2)."""
    if os.path.exists("/sys/fs/cgroup/memory.events"):
        oom = cgroup_counter("/sys/fs/cgroup/memory.events", "oom_kill")
        return oom, cgroup_counter("/sys/fs/cgroup/pids.events", "max")
    oom = cgroup_counter("/sys/fs/cgroup/memory/memory.oom_control", "oom_kill")
    pids = cgroup_counter("/sys/fs/cgroup/pids/pids.events", "max")
    return oom, pids
