"""`rlvr sandbox doctor`: is the sandbox usable here, and if not, what exactly to do.

Checks, in order: the daemon answers; the base image exists; every code environment's image is
built and matches its build context; and a probe job in a real pool container confirms the
limits (no network, read-only root, uid 10001, no host secrets, pids and memory caps).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from rlvr.discovery import sandbox_envs
from rlvr.errors import RlvrError
from rlvr.manifest import read_manifest
from rlvr.sandbox.client import docker_available
from rlvr.sandbox.docker import SANDBOX_USER, Container
from rlvr.sandbox.hints import build_command
from rlvr.sandbox.images import BASE_IMAGE, image_exists, image_source, stack_status
from rlvr.sandbox.results import RawResult
from rlvr.sandbox.spec import SandboxSpec

_PROBE = r"""
import json, os, socket
r = {"uid": os.getuid(), "gid": os.getgid()}
def fails(fn):
    try:
        fn()
    except Exception:
        return True
    return False
def connect(addr):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM); s.settimeout(1); s.connect(addr)
r["no_network"] = fails(lambda: connect(("1.1.1.1", 53))) and fails(
    lambda: socket.getaddrinfo("deb.debian.org", 80))
r["read_only_root"] = fails(lambda: open("/usr/rlvr-probe", "w"))
r["no_docker_socket"] = not os.path.exists("/var/run/docker.sock")
r["no_pid1_environ"] = fails(lambda: open("/proc/1/environ").read())
def read(p):
    try:
        return open(p).read().strip()
    except OSError:
        return "?"
r["pids_max"] = read("/sys/fs/cgroup/pids/pids.max")
r["memory_bytes"] = read("/sys/fs/cgroup/memory/memory.limit_in_bytes")
print("@@RLVR-RESULT@@" + json.dumps(r))
"""


@dataclass
class Check:
    """One line of the doctor's report."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


def _images() -> list[Check]:

    out = [
        Check(
            f"image {BASE_IMAGE}",
            image_exists(BASE_IMAGE),
            "present" if image_exists(BASE_IMAGE) else "missing",
            "rlvr sandbox bootstrap",
        )
    ]

    for name, folder in sandbox_envs().items():
        try:
            spec = image_source(read_manifest(folder).sandbox or {}, folder)
            st = stack_status(folder, spec)
        except RlvrError as e:
            out.append(Check(f"env {name}", False, e.message, e.fix or ""))
            continue
        ok = st.reason in ("up to date", "base image")
        fix = build_command(name, folder)
        out.append(Check(f"env {name} ({spec.image})", ok, st.reason, fix))
    return out


def _probe() -> Check:

    spec = SandboxSpec(image=BASE_IMAGE, runner="python-check", memory_mb=256, pids_limit=64)
    try:
        c = Container(spec)
    except Exception as e:
        return Check("limits probe", False, f"could not start a sandbox container: {e}",
                     "rlvr sandbox bootstrap, then rerun doctor")  # fmt: skip
    try:
        out = c.exec(["python3", "-I", "-c", _PROBE], SANDBOX_USER, {}, 30, RawResult)
    finally:
        c.remove()
    r = out.result or {}
    wanted = {
        "uid": r.get("uid") == 10001,
        "no_network": r.get("no_network") is True,
        "read_only_root": r.get("read_only_root") is True,
        "no_docker_socket": r.get("no_docker_socket") is True,
        "no_pid1_environ": r.get("no_pid1_environ") is True,
        "pids_max": r.get("pids_max") == "64",
        "memory": r.get("memory_bytes") == str(256 << 20),
    }
    bad = [k for k, ok in wanted.items() if not ok]
    detail = "no network, read-only root, uid 10001, pids and memory caps: ok"
    if bad:
        detail = f"failed: {bad}; probe saw {json.dumps(r)}"
    fix = "the Docker daemon ignores a limit: check cgroup support (`docker info` warnings)"
    return Check("limits probe", not bad, detail, fix)


def run_doctor() -> list[Check]:
    """All checks; stops after the daemon check when no daemon answers."""

    ok, msg = docker_available()
    checks = [Check("docker daemon", ok, msg, "" if ok else "start dockerd or run .ci/setup")]
    if not ok:
        return checks
    checks.extend(_images())
    if checks[1].ok:
        checks.append(_probe())
    return checks


def print_report(checks: Sequence[Check], console: Console) -> None:
    """The checks as a table, then each failed check's fix on a line of its own, never wrapped
    or cut by the console's width (a fix is a command to copy: a table cell of an 80-column
    console would fold it or end it with an ellipsis)."""
    table = Table("check", "status", "detail")
    table.columns[2].overflow = "fold"
    for c in checks:
        table.add_row(c.name, "[green]ok[/]" if c.ok else "[red]FAIL[/]", c.detail)
    console.print(table)
    for c in checks:
        if not c.ok and c.fix:
            console.print(f"fix ({c.name}): {c.fix}", markup=False, highlight=False,
                          soft_wrap=True)  # fmt: skip
