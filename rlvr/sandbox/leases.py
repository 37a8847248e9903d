"""Containers leased for one episode: none outlives the rlvr process that opened it.

An episode's container (strong or Harbor mode) carries the pool's labels (the owning pid and
host). Before a process opens its first one, containers that a dead rlvr process on this host
left are removed; the process's own are closed at exit and on SIGTERM/SIGHUP. A daemon that
was away while rlvr exited leaves them to the next start's sweep.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Protocol

from rlvr.sandbox.client import on_shutdown, reap_stale


class Lease(Protocol):
    def close(self) -> None: ...


_open: set[Lease] = set()
_lock = threading.Lock()
_started = threading.Event()


def _close_all() -> None:
    with _lock:
        leases = list(_open)
    for lease in leases:
        with contextlib.suppress(Exception):
            lease.close()


def opening() -> None:
    """Call before starting an episode's container: the first call sweeps and hooks exit."""
    if not _started.is_set():
        _started.set()
        with contextlib.suppress(Exception):
            reap_stale()
        on_shutdown(_close_all)


def hold(lease: Lease) -> None:
    with _lock:
        _open.add(lease)


def release(lease: Lease) -> None:
    with _lock:
        _open.discard(lease)
