"""A small pool of persistent worker processes whose jobs have a deadline enforced from outside.

Why processes: sympy and big-integer arithmetic spend their time in C loops that no in-process
timer can interrupt, and `signal.alarm` only works in the main thread. Here the caller waits on a
pipe with a deadline; a worker that misses it is killed (SIGKILL) and replaced, so the bound
holds whichever thread calls.

Workers are fresh interpreters started with `subprocess` (not `multiprocessing`, whose spawn and
forkserver modes re-import the caller's main script), so a caller's script needs no
`if __name__ == "__main__"` guard. They inherit the caller's `sys.path`.

A job is `fn(common, item)` for each item of a batch. One worker runs one batch at a time and
streams one result back per item, each item under its own deadline: a bomb in item 5 times out
item 5 only, and the items after it continue on a fresh worker. `fn` must be importable by name
(a module-level function), because it is pickled by reference; a `Named("module:function")`
names one the caller never imports itself (the math grader's sympy side runs only in workers).

    >>> pool = WorkerPool(size=1)
    >>> pool.run(divmod, 7, 2, timeout_s=30.0).value
    (3, 1)
    >>> pool.close()
"""

from __future__ import annotations

import atexit
import functools
import importlib
import json
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal

JobStatus = Literal["ok", "error", "timeout", "crashed"]


@dataclass(frozen=True, slots=True)
class JobResult:
    """The outcome of one item: its value, or why there is none."""

    status: JobStatus
    value: Any = None
    error: str = ""
    duration_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass(frozen=True, slots=True)
class Named:
    """A job function given by name ("package.module:function"), imported only where it runs.

    Pickling a function pickles its module's name, so the caller must have imported the module;
    this lets a caller keep a heavy module (sympy for math) out of its own process entirely.
    """

    target: str

    def __call__(self, common: Any, item: Any) -> Any:
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(module), name)(common, item)


class PoolError(RuntimeError):
    """The pool cannot run jobs: it is closed, or a worker failed to start."""


def _limit_memory(memory_mb: int | None) -> None:
    if not memory_mb:
        return
    try:
        import resource

        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass  # not every platform lets a process cap its address space


def _run_items(out: Connection, fn: Callable[[Any, Any], Any], common: Any, items: list) -> None:
    for item in items:
        start = time.perf_counter()
        try:
            msg: tuple = ("ok", fn(common, item), "")
        except BaseException as exc:  # the job's failure is data for the caller
            msg = ("error", None, f"{type(exc).__name__}: {exc}"[:2000])
        elapsed = time.perf_counter() - start
        try:
            out.send((*msg, elapsed))
        except Exception as exc:
            out.send(("error", None, f"result could not be sent back: {exc}"[:2000], elapsed))


def _worker_entry() -> None:
    """Worker loop: import the preloads, say ready, then run batches until the pipe closes."""
    cfg = json.loads(sys.argv[1])
    inbox = Connection(cfg["read_fd"], writable=False)
    out = Connection(cfg["write_fd"], readable=False)
    _limit_memory(cfg["memory_mb"])
    for name in cfg["preload"]:
        importlib.import_module(name)
    out.send(("ready", os.getpid()))
    while True:
        try:
            msg = inbox.recv()
        except (EOFError, OSError):
            return
        except Exception as exc:  # the job could not be unpickled here
            out.send(("badjob", None, f"{type(exc).__name__}: {exc}"[:2000], 0.0))
            continue
        fn, common, items = msg
        _run_items(out, fn, common, items)


_BOOT = "from rlvr.graders.bounded import _worker_entry; _worker_entry()"


@dataclass(slots=True)
class _Worker:
    proc: subprocess.Popen
    inbox: Connection  # results come in here
    outbox: Connection  # jobs go out here

    def kill(self) -> None:
        try:
            self.proc.kill()
            self.proc.wait(timeout=5.0)
        except (OSError, subprocess.TimeoutExpired):
            pass
        finally:
            self.inbox.close()
            self.outbox.close()


def _spawn(preload: tuple[str, ...], memory_mb: int | None) -> _Worker:
    job_r, job_w = os.pipe()
    res_r, res_w = os.pipe()
    cfg = {"read_fd": job_r, "write_fd": res_w, "preload": list(preload), "memory_mb": memory_mb}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p or os.getcwd() for p in sys.path)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", _BOOT, json.dumps(cfg)],
            pass_fds=(job_r, res_w),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            env=env,
        )
    except BaseException:
        for fd in (job_r, job_w, res_r, res_w):
            os.close(fd)
        raise
    os.close(job_r)
    os.close(res_w)
    return _Worker(proc, Connection(res_r, writable=False), Connection(job_w, readable=False))


class WorkerPool:
    """Up to `size` persistent worker processes; each runs one batch at a time.

    `preload` names modules a worker imports before it reports ready, so import time never
    counts against a job's deadline. `memory_mb` caps each worker's address space.
    """

    def __init__(
        self,
        size: int = 2,
        preload: Sequence[str] = (),
        memory_mb: int | None = 2048,
        start_timeout_s: float = 120.0,
    ) -> None:
        if size < 1:
            raise ValueError(f"WorkerPool: size must be at least 1, got {size}")
        self.size = size
        self.preload = tuple(preload)
        self.memory_mb = memory_mb
        self.start_timeout_s = start_timeout_s
        self._cond = threading.Condition()
        self._idle: list[_Worker] = []
        self._live = 0
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def run(self, fn: Callable[..., Any], *args: Any, timeout_s: float) -> JobResult:
        """Run `fn(*args)` in a worker, killing it if it takes longer than `timeout_s`."""
        return self.run_batch(_call, fn, [args], timeout_s=timeout_s)[0]

    def run_batch(
        self, fn: Callable[[Any, Any], Any], common: Any, items: Sequence[Any], *, timeout_s: float
    ) -> list[JobResult]:
        """`fn(common, item)` for every item, in order, each item under `timeout_s` seconds.

        Raises PoolError only when no worker can be started; job failures are results.
        """
        results: list[JobResult] = []
        pending = list(items)
        while pending:
            worker = self._acquire()
            done, healthy = self._drive(worker, fn, common, pending, timeout_s)
            self._release(worker, healthy)
            results.extend(done)
            pending = pending[len(done) :]
        return results

    def _drive(
        self, worker: _Worker, fn: Callable, common: Any, items: list, timeout_s: float
    ) -> tuple[list[JobResult], bool]:
        """Send a batch to one worker and collect results until it ends, stalls or dies."""
        try:
            payload = pickle.dumps((fn, common, items), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            error = JobResult("error", error=f"job could not be sent to a worker: {exc}")
            return [error] * len(items), True
        try:
            worker.outbox.send_bytes(payload)
        except OSError as exc:
            return [JobResult("crashed", error=f"worker pipe closed: {exc}")], False
        done: list[JobResult] = []
        for _ in items:
            start = time.perf_counter()
            if not worker.inbox.poll(timeout_s):
                waited = time.perf_counter() - start
                msg = f"no result within {timeout_s:g} s; the worker was killed and replaced"
                done.append(JobResult("timeout", error=msg, duration_s=waited))
                return done, False
            try:
                status, value, error, elapsed = worker.inbox.recv()
            except (EOFError, OSError):
                code = worker.proc.wait(timeout=5.0)
                msg = f"the worker process died (exit code {code}) while running this job"
                done.append(JobResult("crashed", error=msg))
                return done, False
            if status == "badjob":
                bad = JobResult("error", error=f"the worker could not load the job: {error}")
                return [bad] * len(items), False  # e.g. out of memory: a fresh worker next
            done.append(JobResult(status, value, error, elapsed))
        return done, True

    def _acquire(self) -> _Worker:
        with self._cond:
            while True:
                if self._closed:
                    raise PoolError("WorkerPool is closed; create a new pool to run more jobs")
                if self._idle:
                    return self._idle.pop()
                if self._live < self.size:
                    self._live += 1
                    break
                self._cond.wait()
        try:
            return self._start_worker()
        except BaseException:
            with self._cond:
                self._live -= 1
                self._cond.notify()
            raise

    def _release(self, worker: _Worker, healthy: bool) -> None:
        with self._cond:
            keep = healthy and not self._closed
            if keep:
                self._idle.append(worker)
            else:
                self._live -= 1
            self._cond.notify()
        if not keep:
            worker.kill()

    def _start_worker(self) -> _Worker:
        try:
            worker = _spawn(self.preload, self.memory_mb)
        except OSError as exc:
            raise PoolError(f"a grading worker could not be started: {exc}") from exc
        try:
            ready = worker.inbox.poll(self.start_timeout_s) and worker.inbox.recv()
        except (EOFError, OSError):
            ready = None
        if not ready or ready[0] != "ready":
            code = worker.proc.poll()
            worker.kill()
            raise PoolError(
                f"a grading worker did not start within {self.start_timeout_s:g} s "
                f"(exit code {code}, preload {list(self.preload)}); check that "
                f"`{sys.executable} -c 'import <module>'` works for each preload module"
            )
        return worker

    def close(self) -> None:
        """Stop every idle worker now; busy ones stop when their batch returns."""
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._live -= len(idle)
            self._cond.notify_all()
        for worker in idle:
            worker.kill()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _call(fn: Callable[..., Any], args: tuple) -> Any:
    return fn(*args)


_SHARED: dict[tuple, WorkerPool] = {}
_SHARED_LOCK = threading.Lock()


@functools.cache
def default_pool_size() -> int:
    """Workers per pool when not told: the CPU count, at least 2 and at most 8."""
    return max(2, min(8, os.cpu_count() or 2))


def shared_pool(
    preload: Sequence[str], size: int | None = None, memory_mb: int | None = 2048
) -> WorkerPool:
    """The process-wide pool for these settings, created on first use and closed at exit.

    Keyed by process id too: a forked child must not share its parent's worker pipes.
    """
    key = (tuple(preload), size or default_pool_size(), memory_mb, os.getpid())
    with _SHARED_LOCK:
        pool = _SHARED.get(key)
        if pool is None or pool.closed:
            pool = WorkerPool(size=key[1], preload=key[0], memory_mb=memory_mb)
            _SHARED[key] = pool
        return pool


@atexit.register
def _close_shared() -> None:
    with _SHARED_LOCK:
        pools = list(_SHARED.values())
        _SHARED.clear()
    for pool in pools:
        pool.close()
