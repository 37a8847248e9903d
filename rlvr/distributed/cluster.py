"""Joining or starting a Ray cluster, and the custom resources that place grader actors.

A node offers one custom resource per Docker image it holds, named `image:<tag>` (for example
`image:rlvr-python:bookworm`), so an actor that grades a code stack is only scheduled where the
stack's image is built. A local cluster started by rlvr declares these itself; a node of a real
cluster declares them when it joins:

    ray start --address HEAD:6379 --resources "$(python -m rlvr.distributed.cluster)"

Running this module prints that JSON for the current machine.
"""

from __future__ import annotations

import json
import os
import sys
from types import ModuleType
from typing import Any

from rlvr.errors import RlvrError, SandboxError
from rlvr.sandbox.client import get_client

IMAGE_PREFIX = "image:"
IMAGE_UNITS = 1000
"""Units of each image resource a node offers; an actor takes one, so a node hosts up to this
many actors per image (the limit that matters is the sandbox pool inside each actor)."""
LOCAL_OBJECT_STORE_MB = 128


def require_ray() -> ModuleType:
    """The `ray` module, or a clear error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RlvrError(
            "--ray needs the Ray package, which is not installed",
            "pip install 'rlvr[ray]' (or pip install ray) on every node of the cluster",
        ) from None
    return ray


def image_resource(image: str) -> str:
    """The custom resource a node offers when it holds `image`."""
    return IMAGE_PREFIX + image


def local_images() -> list[str]:
    """Tags of the images the local Docker daemon holds; empty when no daemon answers."""
    try:
        images = get_client().images.list()
    except SandboxError:
        return []
    except Exception:  # a daemon going away between ping and list is the same as none
        return []
    return sorted({tag for img in images for tag in (img.tags or []) if "<none>" not in tag})


def node_resources() -> dict[str, float]:
    """The custom resources this machine should offer: one per local image."""
    return {image_resource(tag): float(IMAGE_UNITS) for tag in local_images()}


def connect(address: str | None = None, num_cpus: int | None = None) -> bool:
    """Join the cluster at `address` (or $RAY_ADDRESS), or start a local one; True if started.

    A local cluster gets this machine's image resources, no dashboard and a small object store
    (grading moves kilobytes). Does nothing when Ray is already initialised in this process.
    """
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    ray = require_ray()
    if ray.is_initialized():
        return False
    target = address or os.environ.get("RAY_ADDRESS")
    quiet: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if target and target != "local":
        try:
            ray.init(address=target, **quiet)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise RlvrError(
                f"could not join the Ray cluster at {target!r} ({str(e).splitlines()[0][:200]})",
                "start the head with `ray start --head --resources "
                '"$(python -m rlvr.distributed.cluster)"`, pass its HOST:6379 (or `auto` on '
                "the head), or give no address to start a local cluster",
            ) from None
        return True
    ray.init(
        address="local",
        num_cpus=num_cpus or os.cpu_count() or 1,
        resources=node_resources(),
        object_store_memory=LOCAL_OBJECT_STORE_MB * 2**20,
        **quiet,
    )
    return True


def alive_nodes(resource: str | None = None) -> list[dict[str, Any]]:
    """Alive nodes of the cluster (only those offering `resource` when one is given)."""
    ray = require_ray()
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    if resource is None:
        return nodes
    return [n for n in nodes if n.get("Resources", {}).get(resource, 0) > 0]


def nodes_for(resource: str | None, what: str) -> list[str]:
    """Ids of the alive nodes that offer `resource` (every alive node for None); a clear
    error when there is none."""
    nodes = [str(n["NodeID"]) for n in alive_nodes(resource)]
    if not nodes:
        raise RlvrError(
            f"no node of the Ray cluster offers the resource {resource!r} needed by {what}",
            "build the image on the worker nodes (`rlvr sandbox build`) and (re)start them with "
            '`ray start --address HEAD:6379 --resources "$(python -m rlvr.distributed.cluster)"`',
        )
    return nodes


if __name__ == "__main__":
    sys.stdout.write(json.dumps(node_resources()) + "\n")
