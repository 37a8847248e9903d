"""The Docker client, the clear error when no daemon answers, and clean-up of our containers.

Importing this module never talks to Docker: the client is made on first use, so that math and
tool-call environments work on machines without a daemon. Every container rlvr starts carries
`rlvr.pool=<pid>` and `rlvr.host=<hostname>` labels; `reap_stale()` removes those whose process
is gone, and `shutdown_all()` (atexit, SIGTERM, SIGHUP) removes this process's own.

A daemon that stops answering in the middle of a run is waited for (`wait_for_daemon`, bounded
back-off over a window that starts when the outage is first seen, shared by every thread), so
that grading resumes when it comes back instead of masking every job in flight.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from rlvr.errors import SandboxError, SandboxSetupError

POOL_LABEL = "rlvr.pool"
HOST_LABEL = "rlvr.host"
_lock = threading.Lock()
_client: Any = None
_shutdown_hooks: list[Callable[[], None]] = []
_return_hooks: list[Callable[[], Any]] = []
_handlers_installed = False
log = logging.getLogger("rlvr.sandbox")
DAEMON_WAIT_S = float(os.environ.get("RLVR_DAEMON_WAIT_S", "120"))
"""How long grading waits for a Docker daemon that stopped answering before it masks jobs."""


def daemon_url() -> str:
    return os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")


def no_daemon_error(detail: str = "") -> SandboxSetupError:
    extra = f" ({detail})" if detail else ""
    return SandboxSetupError(
        f"no Docker daemon answers at {daemon_url()}{extra}",
        "start it with `dockerd` (e.g. `setsid dockerd >/tmp/dockerd.log 2>&1 &`) or run .ci/setup",
    )


def get_client() -> Any:
    """The shared Docker SDK client; SandboxError when the daemon does not answer."""
    global _client
    with _lock:
        if _client is not None:
            return _client
        try:
            import docker
            from docker.errors import DockerException
        except ImportError as e:  # pragma: no cover - docker is a hard dependency
            raise SandboxSetupError(
                f"the docker SDK is not installed ({e})", "pip install docker"
            ) from e
        try:
            client = docker.from_env(timeout=120, max_pool_size=64)
            client.ping()
        except (DockerException, OSError) as e:
            raise no_daemon_error(str(e).splitlines()[0][:160]) from None
        _client = client
        return client


def docker_available() -> tuple[bool, str]:
    """(True, version) when a daemon answers, else (False, the message with its fix)."""
    try:
        version = get_client().version().get("Version", "?")
    except SandboxError as e:
        return False, str(e)
    return True, f"Docker Engine {version} at {daemon_url()}"


def pool_labels() -> dict[str, str]:
    return {POOL_LABEL: str(os.getpid()), HOST_LABEL: socket.gethostname()}


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def reap_stale() -> int:
    """Remove containers left by rlvr processes on this host that no longer exist."""
    client = get_client()
    host = socket.gethostname()
    removed = 0
    for c in client.containers.list(all=True, filters={"label": POOL_LABEL}, ignore_removed=True):
        labels = c.labels or {}
        try:
            pid = int(labels.get(POOL_LABEL, "0"))
        except ValueError:
            continue
        if labels.get(HOST_LABEL) == host and pid != os.getpid() and not _pid_alive(pid):
            with contextlib.suppress(Exception):
                c.remove(force=True)
                removed += 1
    return removed


def on_shutdown(hook: Callable[[], None]) -> None:
    """Run `hook` at interpreter exit and on SIGTERM/SIGHUP.

    Signal handlers can only be installed from the main thread: `install_signal_handlers`
    runs when rlvr's code grader is imported or made (normally the main thread), so a pool that
    a worker thread creates later is still covered.
    """
    with _lock:
        _shutdown_hooks.append(hook)
    install_signal_handlers()


_atexit_registered = False


def install_signal_handlers() -> bool:
    """atexit + SIGTERM/SIGHUP -> shutdown_all; True when the signal handlers are in place."""
    global _handlers_installed, _atexit_registered
    with _lock:
        if not _atexit_registered:
            atexit.register(shutdown_all)
            _atexit_registered = True
        if _handlers_installed:
            return True
        if threading.current_thread() is not threading.main_thread():
            return False
        _handlers_installed = True
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) in (signal.SIG_DFL, None):
            signal.signal(sig, _on_signal)
    return True


def _on_signal(signum: int, _frame: Any) -> None:
    shutdown_all()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def shutdown_all() -> None:
    """Run every registered shutdown hook once (pools remove their containers)."""
    with _lock:
        hooks = list(_shutdown_hooks)
        _shutdown_hooks.clear()
    for hook in hooks:
        with contextlib.suppress(Exception):
            hook()


class _Outage:
    """When the daemon was first seen not answering (None while it answers), for every thread."""

    lock = threading.Lock()
    since: float | None = None
    said = 0.0


def daemon_answers() -> bool:
    """Does the daemon answer a ping now? (False also when no client could ever be made.)"""
    try:
        return bool(get_client().ping())
    except Exception:
        return False


def daemon_status() -> str | None:
    """A line for progress displays while the daemon is being waited for, else None."""
    since = _Outage.since
    if since is None:
        return None
    return (f"waiting for the Docker daemon: not answering for {time.monotonic() - since:.0f} s "
            f"(gives up after {DAEMON_WAIT_S:.0f} s)")  # fmt: skip


def on_daemon_return(hook: Callable[[], Any]) -> None:
    """Call `hook` once each time the daemon answers again after an outage (pools reap there)."""
    if hook not in _return_hooks:
        _return_hooks.append(hook)


def wait_for_daemon(window_s: float | None = None) -> bool:
    """Wait, with bounded back-off, until the daemon answers; True when it does (at once or
    within the window counted from the outage's start), False once the window has passed."""
    window = DAEMON_WAIT_S if window_s is None else window_s
    delay = 0.25
    while True:
        if daemon_answers():
            with _Outage.lock:
                came_back = _Outage.since is not None
                if came_back:
                    log.warning("the Docker daemon answers again after %.0f s",
                                time.monotonic() - _Outage.since)  # fmt: skip
                _Outage.since = None
            if came_back:  # one thread, the first to see it: containers the outage stopped go
                for hook in list(_return_hooks):
                    with contextlib.suppress(Exception):
                        hook()
            return True
        now = time.monotonic()
        with _Outage.lock:
            if _Outage.since is None:
                _Outage.since = _Outage.said = now
                log.warning("the Docker daemon at %s does not answer; waiting up to %.0f s",
                            daemon_url(), window)  # fmt: skip
            elif now - _Outage.said >= 10:
                _Outage.said = now
                log.warning("%s", daemon_status())
            left = _Outage.since + window - now
            if left <= 0:  # given up: the next wait (a later outage) starts a window of its own
                _Outage.since = None
        if left <= 0:
            return False
        time.sleep(min(delay, left))
        delay = min(delay * 2, 5.0)
