"""How many episodes may hold a container at once on this host.

A batch of episodes opens every session at once: 8 tasks x G = 8 at 1 GiB each asks 64 GiB of
a 24 GiB host, and the kernel's OOM killer then picks among containers. Episodes are admitted
in waves sized by the host's available memory and each container's memory limit (only for
environments whose sessions lease a container: `[sandbox] runner = "episode"`);
`RLVR_MAX_EPISODES` sets the wave by hand.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rlvr.env import Environment

HOST_SHARE = 0.8
"""Of the memory the host reports available, the share episodes' containers may take."""


def available_mb() -> int | None:
    """MemAvailable from /proc/meminfo in MiB (None where there is no such file)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        return None
    return None


def admitted(env: Environment, wanted: int, free_mb: int | None = None) -> int:
    """The wave size for `wanted` episodes of `env` (at least 1)."""
    forced = os.environ.get("RLVR_MAX_EPISODES")
    if forced:
        return max(1, min(wanted, int(forced)))
    sandbox = env.sandbox or {}
    if env.episode is None or sandbox.get("runner") != "episode":  # no container per episode
        return max(1, wanted)
    per = int(sandbox.get("memory_mb", 1024))
    if free_mb is None:
        free_mb = env.episode.free_mb() if env.episode.free_mb is not None else available_mb()
    free = free_mb
    if free is None or per <= 0:
        return max(1, wanted)
    return max(1, min(wanted, int(free * HOST_SHARE) // per))


class _Queue:
    """Episodes waiting for a wave, over every runner of this process (a progress display
    reads it live)."""

    lock = threading.Lock()
    waiting = 0


def queued() -> int:
    """Episodes of this process waiting for admission now."""
    return _Queue.waiting


def note_waiting(delta: int) -> None:
    with _Queue.lock:
        _Queue.waiting = max(0, _Queue.waiting + delta)
