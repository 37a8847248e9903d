"""A warm pool of locked-down containers per image (container.py), and how a job runs in one.

A job is one `docker exec` of the runner as root in a pooled container. A container that saw any
anomaly (a limit, a leftover, no result, a watchdog) is replaced. A daemon that stops answering
is waited for (client.wait_for_daemon) and the jobs in flight run again once it is back.
The container, exec and result plumbing lives in container.py; its names are re-exported here.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from rlvr.errors import SandboxError
from rlvr.sandbox import client as sandbox_client
from rlvr.sandbox.client import (
    POOL_LABEL,
    daemon_answers,
    get_client,
    install_signal_handlers,
    on_daemon_return,
    on_shutdown,
    reap_stale,
    wait_for_daemon,
)
from rlvr.sandbox.container import (
    CAPABILITIES,
    IPC_SYSCTLS,
    OOM_KILLS,
    RUNNER_FILES,
    RUNNER_USER,
    SANDBOX_USER,
    STDERR_CAP,
    TMP_INODES,
    WATCHDOG_MARGIN_S,
    Container,
    ExecOutcome,
    InfraFailure,
    runner_sources,
    sandbox_dir,
)
from rlvr.sandbox.results import BatchResult, CheckResult, RunResult
from rlvr.sandbox.spec import SandboxSpec

__all__ = [
    "CAPABILITIES", "IPC_SYSCTLS", "OOM_KILLS", "RUNNER_FILES", "RUNNER_USER", "SANDBOX_USER",
    "STDERR_CAP", "TMP_INODES", "WATCHDOG_MARGIN_S", "Container", "ContainerPool", "ExecOutcome",
    "InfraFailure", "close_all_pools", "get_pool", "new_job_id", "remove_own_containers",
    "runner_sources", "sandbox_dir",
]  # fmt: skip

DAEMON_RERUNS = 4  # a job re-run after this many daemon outages is not re-run again
BATCH_JOB_OVERHEAD_S = 5.0  # per job of a batch: uids, layout, sweep and wipe (runner.py)
SUSPECT = ("timed_out", "oom", "pids_max", "output_overflow", "lingering", "left_behind")
KINDS: dict[str, type] = {"run": RunResult, "check": CheckResult, "batch": BatchResult}


install_signal_handlers()  # on import (normally the main thread): pools made later, on any thread,
# are still removed on SIGTERM/SIGHUP


def _suspect(r: dict[str, Any]) -> bool:
    return r.get("error") is not None or not r.get("clean") or any(r.get(k) for k in SUSPECT)


def _healthy(out: ExecOutcome, jobs: int = 1) -> bool:
    """May this container take another job? Only after a job that ended normally and clean
    (for a batch: every one of its `jobs`, all of which ran)."""
    r = out.result
    if out.watchdog or r is None or _suspect(r):
        return False
    items = r.get("results", [])
    if "mode" in (items[0] if items else {}):  # a batch of command jobs
        return len(items) == jobs and not any(_suspect(x) for x in items)
    return not any(x.get("timed_out") for x in items)


def _budget_and_cap(payload: dict[str, Any]) -> tuple[float, int]:
    """Seconds the runner may take and bytes the host reads, for a job, group or batch."""
    jobs = payload.get("jobs")
    if jobs is not None:
        parts = [_budget_and_cap(j) for j in jobs]
        return sum(b + BATCH_JOB_OVERHEAD_S for b, _ in parts), sum(c for _, c in parts)
    budget = float(payload["timeout_s"]) * max(1, len(payload.get("answers", [0])))
    # JSON escapes a byte into at most 6 characters
    cap = 7 * (int(payload.get("output_limit", 1 << 16)) * 4
               + int(payload.get("report_limit", 0))) + (1 << 20)  # fmt: skip
    return budget, cap


@dataclass
class ContainerPool:
    """Up to `size` warm containers of one image and limits; thread-safe."""

    spec: SandboxSpec
    size: int
    execs: int = 0
    programs: int = 0
    """Statistics: runner execs started and the programs they ran (a batch exec runs several)."""
    _idle: list[Container] = field(default_factory=list)
    _total: int = 0
    _closed: bool = False

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._slots = threading.Semaphore(self.size)

    def _acquire(self) -> Container:
        self._slots.acquire()
        with self._lock:
            if self._closed:
                self._slots.release()
                raise SandboxError("the sandbox pool is shut down", "create a new pool")
            if self._idle:
                return self._idle.pop()
            self._total += 1
        try:
            return Container(self.spec)
        except BaseException:
            with self._lock:
                self._total -= 1
            self._slots.release()
            raise

    def _release(self, c: Container, healthy: bool) -> None:
        with self._lock:
            if healthy and not self._closed:
                c.jobs += 1
                self._idle.append(c)
                c = None  # type: ignore[assignment]
            else:
                self._total -= 1
        if c is not None:
            threading.Thread(target=c.discard, daemon=True).start()
        self._slots.release()

    def run(
        self, payload: dict[str, Any], mode: str, files: dict[str, str] | None = None
    ) -> ExecOutcome:
        """One job on one container: a single exec of the runner (as root, see module doc).

        `mode` "batch": `payload["jobs"]` are command jobs run one after another in that exec.

        `files` (optional) are added to the payload's own `files`: the runner writes them into
        the workspaces of the uids that may see them.

        When the daemon stops answering, the job waits for it (`wait_for_daemon`) and runs
        again once it is back, on a live container (also when its container was one the
        daemon's restart stopped); only a daemon that stays away past the window raises
        InfraFailure, saying so.
        """
        if files:
            payload = {**payload, "files": {**payload.get("files", {}), **files}}
        outage = False
        for _ in range(DAEMON_RERUNS):
            try:
                out = self._run_once(payload, mode)
                if outage:  # containers the restart stopped may have gone idle since: drop them
                    self.reap_exited()
                return out
            except InfraFailure as e:
                if daemon_answers():
                    if self.reap_exited():  # others stopped too: the daemon restarted
                        continue
                    raise  # a container failed, not the daemon: the caller retries or masks
                if not wait_for_daemon():
                    waited = sandbox_client.DAEMON_WAIT_S
                    why = f"the Docker daemon did not answer for {waited:.0f} s (masked): {e}"
                    raise InfraFailure(why) from None
                outage = True
                self.reap_exited()
        return self._run_once(payload, mode)

    def _run_once(self, payload: dict[str, Any], mode: str) -> ExecOutcome:
        c = self._acquire()
        with self._lock:
            self.execs += 1
            self.programs += len(payload.get("jobs") or payload.get("answers") or [payload])
        healthy = False
        try:
            budget, cap = _budget_and_cap(payload)
            argv = ["timeout", "-s", "KILL", f"{budget + 10:.1f}", "python3", "-I",
                    "/opt/rlvr/runner.py", mode]  # fmt: skip
            out = c.exec(argv, RUNNER_USER, payload, budget + WATCHDOG_MARGIN_S, KINDS[mode], cap)
            if out.result is None and not out.watchdog:
                if c.oom_killed():  # the job filled the memory: its answer's failure
                    out.oom = True
                    return out
                # no answer can reach the runner (other uid), so this is the sandbox's failure
                state = "stopped" if not c.running() else "gave no valid result"
                said = f": {out.stderr[:300]}" if out.stderr.strip() else " (no output)"
                raise InfraFailure(f"the container {state} during the job{said}")
            if (out.result or {}).get("stale"):  # left by nobody we can name: retry elsewhere
                raise InfraFailure(str(out.result["error"])[:500])
            healthy = _healthy(out, len(payload.get("jobs", [0])))
            return out
        finally:
            self._release(c, healthy)

    def reap_exited(self) -> int:
        """Drop idle containers that are no longer running (a daemon restart stops them) and
        remove every exited container of this process; how many idle ones were dropped."""
        with self._lock:
            idle, self._idle = self._idle, []
        live = []
        for c in idle:
            if c.running(settle_s=0.0):
                live.append(c)
                continue
            with self._lock:
                self._total -= 1
            c.remove()
        with self._lock:
            self._idle.extend(live)
        label = f"{POOL_LABEL}={os.getpid()}"
        for attempt in range(5):  # the first requests after an outage may meet a dead connection
            try:
                exited = get_client().containers.list(
                    all=True, filters={"label": label, "status": "exited"}, ignore_removed=True
                )
            except Exception:
                time.sleep(0.2 * (attempt + 1))
                continue
            for gone in exited:
                with contextlib.suppress(Exception):
                    gone.remove(force=True)
            break
        return len(idle) - len(live)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        threads = [threading.Thread(target=c.remove, daemon=True) for c in idle]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)


_pools: dict[tuple, ContainerPool] = {}
_pools_lock = threading.Lock()


def get_pool(spec: SandboxSpec, size: int | None = None) -> ContainerPool:
    """The shared pool for this image, limits and size (created on first use)."""
    key = (*spec.limits_key, size)
    with _pools_lock:
        pool = _pools.get(key)
        if pool is None:
            get_client()
            if not _pools:
                reap_stale()
                on_shutdown(close_all_pools)
                on_daemon_return(reap_all_pools)
            pool = ContainerPool(spec, size or os.cpu_count() or 1)
            _pools[key] = pool
        return pool


def reap_all_pools() -> None:
    """After a daemon outage: drop the idle containers its restart stopped, in every pool."""
    with _pools_lock:
        pools = list(_pools.values())
    for pool in pools:
        pool.reap_exited()


def close_all_pools() -> None:
    """Remove every container of every pool of this process."""
    with _pools_lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.close()
    remove_own_containers()


def remove_own_containers() -> int:
    """Remove every container labelled with this process's pid (also ones still in use)."""
    removed = 0
    with contextlib.suppress(Exception):
        client = get_client()
        label = f"{POOL_LABEL}={os.getpid()}"
        for _ in range(40):  # a removal already in progress elsewhere shows up for a moment
            left = client.containers.list(all=True, filters={"label": label}, ignore_removed=True)
            if not left:
                break
            for c in left:
                with contextlib.suppress(Exception):
                    c.remove(force=True)
                    removed += 1
            time.sleep(0.25)
    return removed


def new_job_id() -> str:
    return uuid.uuid4().hex[:16]
