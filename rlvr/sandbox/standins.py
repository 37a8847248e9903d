"""Local stand-ins for public images that cannot be pulled here.

Harbor tasks name public bases (`FROM ubuntu:24.04`, `FROM python:3.13-slim-bookworm`,
Terminal-Bench's `ghcr.io/laude-institute/t-bench/...`). The classic builder uses an image that
is on the machine under that exact name and never pulls it, so tagging a local image with the
public name lets such a task build offline. A stand-in is not the public image: it is rlvr's
Debian bookworm base; a name that looks like a Python image gets the Python stand-in (the base
with pip, venv and `python`/`pip` on PATH, pip installing system-wide as in the python images).
"""

from __future__ import annotations

import contextlib
import io
import re

from rlvr.errors import SandboxError
from rlvr.sandbox.client import get_client
from rlvr.sandbox.images import BASE_IMAGE, image_exists

PYTHON_STANDIN = "rlvr-standin-python:bookworm"
PYTHON_NAME = re.compile(r"(^|/)python[^/]*:|/python-3", re.I)
PYTHON_DOCKERFILE = f"""FROM {BASE_IMAGE}
RUN apt-get update && apt-get install -y --no-install-recommends python3-pip python3-venv \\
        python-is-python3 && rm -rf /var/lib/apt/lists/* \\
    && rm -f /usr/lib/python3*/EXTERNALLY-MANAGED && ln -sf /usr/bin/pip3 /usr/local/bin/pip
LABEL rlvr.standin=python
"""


def full_name(name: str) -> str:
    return name if ":" in name.rsplit("/", 1)[-1] else name + ":latest"


def default_source(name: str) -> str:
    """rlvr's base, or the Python stand-in for a name like python:3.13-slim."""
    return PYTHON_STANDIN if PYTHON_NAME.search(full_name(name)) else BASE_IMAGE


def _python_standin() -> None:
    if image_exists(PYTHON_STANDIN):
        return
    if not image_exists(BASE_IMAGE):
        raise SandboxError(f"{BASE_IMAGE} is not built", "run `rlvr sandbox bootstrap` first")
    tail: list[str] = []
    for chunk in get_client().api.build(fileobj=io.BytesIO(PYTHON_DOCKERFILE.encode()),
                                        tag=PYTHON_STANDIN, rm=True, decode=True):  # fmt: skip
        if "error" in chunk:
            why = f"{chunk['error'].strip()}: " + " | ".join(tail[-5:])
            raise SandboxError(
                f"building {PYTHON_STANDIN} failed: {why}",
                "check that Debian's archive is reachable from docker build",
            )
        tail.append(str(chunk.get("stream", "")).strip())


def is_standin(name: str) -> bool:
    """Is `name` one of rlvr's stand-ins (the same image as its base or Python stand-in)?"""
    client = get_client()
    try:
        wanted = client.images.get(name).id
    except Exception:
        return False
    for source in (BASE_IMAGE, PYTHON_STANDIN):
        with contextlib.suppress(Exception):
            if client.images.get(source).id == wanted:
                return True
    return False


def standin(name: str, source: str | None = None) -> str:
    """Tag a local image (by default `default_source(name)`) as `name`; returns the full name."""
    get_client()  # first: it imports the SDK under a lock
    from docker.errors import ImageNotFound

    name = full_name(name)
    source = source or default_source(name)
    if source == PYTHON_STANDIN:
        _python_standin()
    try:
        image = get_client().images.get(source)
    except ImageNotFound:
        raise SandboxError(f"{source!r} is not on this machine, so no stand-in can be made",
                           "run `rlvr sandbox bootstrap` first, or pass --from an image you "
                           "have") from None  # fmt: skip
    repo, _, tag = name.rpartition(":")
    image.tag(repo, tag)
    return name
