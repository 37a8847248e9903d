"""A Harbor task's own image: built from its environment/ folder, cached by content hash.

Harbor builds `environment/Dockerfile` per task (or pulls `[environment].docker_image`). rlvr
builds the same Dockerfile with the classic builder, which never pulls an image that is
already on the machine: offline, every base a Dockerfile names (`FROM ubuntu:24.04`) must be
here under that name. `rlvr sandbox standin NAME` makes one from rlvr's base (the documented
route for images that cannot be pulled). A built image is tagged `rlvr-task-<name>:<hash>`,
where the hash covers the build context and the ids of its base images, so an edited task or
a changed base builds again and anything else is reused.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rlvr.errors import SandboxError
from rlvr.sandbox.client import get_client
from rlvr.sandbox.compose import COMPOSE_FILES, Service, read_compose
from rlvr.sandbox.images import HASH_LABEL, image_exists
from rlvr.sandbox.standins import full_name, is_standin
from rlvr.types import Task

FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?\s*$", re.I)
ARG = re.compile(r"^\s*ARG\s+(\w+)(?:=(\S*))?\s*$", re.I)
TAG_CHARS = re.compile(r"[^a-z0-9_.-]+")
LOG_TAIL = 40
_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()
Log = Callable[[str], None]


class TaskImageError(SandboxError):
    """A task's image cannot be had here (a missing base, a failed or timed-out build): a
    failure of the task, not of an answer; the grader masks it with this reason."""


def standin_hint(name: str) -> str:
    return (f"no registry is reachable, so {name!r} must be on this machine: run `rlvr sandbox "
            f"standin {name}` (a local stand-in of rlvr's base), or `docker tag "
            f"<an image you have> {name}`")  # fmt: skip


def base_images(dockerfile: Path) -> list[str]:
    """The outside images a Dockerfile builds FROM (not its own stages), ARG defaults applied."""
    args: dict[str, str] = {}
    stages: set[str] = set()
    bases: list[str] = []
    for line in _lines(dockerfile.read_text("utf-8")):
        if (a := ARG.match(line)) and not stages and not bases:
            args[a.group(1)] = a.group(2) or ""
        if (m := FROM.match(line)) is None:
            continue
        name = re.sub(r"\$\{?(\w+)\}?", lambda v: args.get(v.group(1), v.group(0)), m.group(1))
        if name.lower() not in stages and name != "scratch":
            bases.append(name)
        if m.group(2):
            stages.add(m.group(2).lower())
    return bases


def _lines(text: str) -> list[str]:
    """Logical lines (backslash continuations joined), comments dropped."""
    out, cur = [], ""
    for raw in text.splitlines():
        if raw.lstrip().startswith("#") and not cur:
            continue
        if raw.rstrip().endswith("\\"):
            cur += raw.rstrip()[:-1] + " "
            continue
        out.append(cur + raw)
        cur = ""
    return [ln for ln in (*out, cur) if ln.strip()]


def _image_id(name: str) -> str:
    client = get_client()  # first: it imports the SDK under a lock
    from docker.errors import ImageNotFound

    try:
        return str(client.images.get(name).id)
    except ImageNotFound:
        raise TaskImageError(f"base image {name!r} is not on this machine",
                             standin_hint(name)) from None  # fmt: skip


def context_hash(context: Path, bases: list[str]) -> str:
    h = hashlib.sha256()
    for path in sorted(context.rglob("*")):
        rel = path.relative_to(context).as_posix().encode() + b"\0"
        if path.is_symlink():  # the build copies a link as a link: hash where it points
            h.update(rel + b"-> " + str(path.readlink()).encode() + b"\0")
        elif path.is_file():
            h.update(rel + path.read_bytes() + b"\0")
    for base in bases:
        h.update(f"{base}={_image_id(base)}\n".encode())
    return h.hexdigest()


def task_image(task: Task, log: Log | None = None) -> str:
    """The image a Harbor task runs in: its docker_image, or its Dockerfile built (cached)."""
    named = task.meta.get("docker_image")
    context = Path(task.meta["task_dir"]) / "environment"
    # Harbor runs the prebuilt docker_image; where it cannot be pulled (or only a stand-in has
    # its name), the task's own Dockerfile, which it is built from, is built instead
    if not (context / "Dockerfile").is_file():  # the loader made sure there is a docker_image
        return local_image(str(named), task.id)
    if named and image_exists(named) and not is_standin(named):
        return str(named)
    return built_image(context, "Dockerfile", task, task.id, log)


def task_service_image(task: Task, service: Service, log: Log | None = None) -> str:
    """A compose service's image: `image:` that is here, or its `build:` built and cached."""
    if service.build is None:
        return local_image(str(service.image), task.id)
    env_dir = Path(task.meta["task_dir"]) / "environment"
    context = (env_dir / service.build[0]).resolve()
    if not context.is_relative_to(env_dir.resolve()):
        raise TaskImageError(f"task {task.id}: service {service.name}'s build context leaves "
                             "environment/", "keep build contexts inside environment/")  # fmt: skip
    return built_image(context, service.build[1], task, f"{task.id}-{service.name}", log)


def local_image(name: str, task_id: str) -> str:
    if not image_exists(name):
        raise TaskImageError(f"task {task_id}: image {name!r} is not on this machine",
                             standin_hint(name))  # fmt: skip
    return name


def built_image(context: Path, dockerfile: str, task: Task, label: str,
                log: Log | None = None) -> str:  # fmt: skip
    """`context` built with `dockerfile` (relative to it), tagged by content hash, once."""
    try:
        bases = base_images(context / dockerfile)
        hashed = hashlib.sha256(f"{context_hash(context, bases)}:{dockerfile}".encode())
    except (OSError, UnicodeDecodeError) as e:
        raise TaskImageError(
            f"task {task.id}: its build context cannot be read ({e})",
            "make environment/ hold plain files and a UTF-8 Dockerfile",
        ) from None
    digest = hashed.hexdigest()
    tag = f"rlvr-task-{TAG_CHARS.sub('-', label.lower()).strip('-.')[:100]}:{digest[:16]}"
    with _locks_guard:
        lock = _locks.setdefault(tag, threading.Lock())
    with lock:
        if not image_exists(tag):
            build(context, tag, digest, float(task.meta.get("build_timeout_s", 600)), label,
                  log or (lambda _line: None), dockerfile)  # fmt: skip
    return tag


def build(context: Path, tag: str, digest: str, timeout: float, name: str, log: Log,
          dockerfile: str = "Dockerfile") -> None:  # fmt: skip
    """docker build of `context` as `tag`, stopped at `timeout`; the log's tail on failure."""
    api = get_client().api
    tail: list[str] = []
    failure: list[str] = []
    done = threading.Event()
    stream: Any = None

    def run() -> None:
        nonlocal stream
        try:
            labels = {HASH_LABEL: digest, "rlvr.task": name}
            stream = api.build(path=str(context), dockerfile=dockerfile, tag=tag, rm=True,
                               forcerm=True, pull=False, labels=labels, decode=True)  # fmt: skip
            for chunk in stream:
                if "error" in chunk:
                    failure.append(str(chunk["error"]).strip())
                    break
                for line in str(chunk.get("stream", "")).splitlines():
                    if line.strip():
                        tail.append(line.rstrip())
                        del tail[:-LOG_TAIL]
                        log(line.rstrip())
        except Exception as e:  # the daemon refused the context, or the stream was cut
            failure.append(str(e))
        finally:
            done.set()

    start = time.monotonic()
    threading.Thread(target=run, daemon=True, name=f"build-{name}").start()
    if not done.wait(timeout):
        failure.append(f"the build passed build_timeout_sec ({timeout:g} s)")
    if failure:
        last = "\n".join(tail[-25:])
        offline = any(w in (failure[0] + last).lower() for w in (
            "temporary failure resolving", "could not resolve", "failed to establish",
            "network is unreachable", "no matching distribution", "name resolution"))  # fmt: skip
        why = " (it needs network, which this machine's builds do not have)" if offline else ""
        raise TaskImageError(
            f"task {name}: docker build of environment/ failed{why}: {failure[0][:1000]}\n"
            f"last lines of the build log:\n{last}",
            f"fix {context / 'Dockerfile'}"
            + (
                "; or build it where the network is reachable and load the image here"
                if offline
                else ""
            ),
        )
    log(f"built {tag} in {time.monotonic() - start:.0f} s")


def missing_bases(folder: Path) -> list[str]:
    """The public images the Harbor tasks under `folder` name that are not on this machine."""
    names: set[str] = set()
    for task in sorted(p for p in folder.iterdir() if p.is_dir()):
        env_dir = task / "environment"
        dockerfile = env_dir / "Dockerfile"
        if dockerfile.is_file():  # built here; its docker_image is then not needed
            names.update(base_images(dockerfile))
        elif (task / "task.toml").is_file():
            text = (task / "task.toml").read_text("utf-8")
            m = re.search(r'^\s*docker_image\s*=\s*"([^"]+)"', text, re.M)
            names.update([m.group(1)] if m else [])
        for name in COMPOSE_FILES:  # the other services' images and bases
            if (env_dir / name).is_file():
                with contextlib.suppress(ValueError, OSError):
                    for svc in read_compose(env_dir / name)[1]:
                        if svc.build is not None:
                            built = env_dir / svc.build[0] / svc.build[1]
                            names.update(base_images(built) if built.is_file() else [])
                        elif svc.image:
                            names.add(svc.image)
                break
    return sorted(n for n in names if "$" not in n and not image_exists(full_name(n)))
