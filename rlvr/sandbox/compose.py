"""A Harbor task's `environment/docker-compose.yaml`: its extra services beside the main container.

Harbor merges the task's compose file over its own (the `main` service, built from the task's
Dockerfile). rlvr reads the same file with the Docker SDK, no compose binary: every service but
`main` becomes a container of its own image (`image:` that is on this machine, or `build:`
built and cached like the task's image), with its `environment`, `command`, `entrypoint`,
`working_dir` and `user`; `main`'s `environment` is merged into the task's. All of them join a
network of their own, `internal` (no route out), where each service answers to its name. The
services are removed with the episode. Keys that would reach the host (`volumes` of host paths,
`privileged`, `network_mode`, `devices`, `cap_add`, `pid`, `ipc`) refuse the task; `ports`,
`depends_on` (used for the start order), `healthcheck`, `restart`, `container_name` and
`expose` are read as far as they matter on a private network.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.sandbox.client import get_client, pool_labels
from rlvr.sandbox.container import InfraFailure

COMPOSE_FILES = ("docker-compose.yaml", "docker-compose.yml", "compose.yaml", "compose.yml")
REFUSED_KEYS = ("volumes", "privileged", "network_mode", "devices", "cap_add", "pid", "ipc",
                "security_opt", "userns_mode", "extra_hosts")  # fmt: skip
KNOWN_KEYS = ("image", "build", "environment", "command", "entrypoint", "working_dir", "user",
              "depends_on", "ports", "expose", "healthcheck", "restart", "container_name",
              "init", "tty", "stdin_open")  # fmt: skip


@dataclass
class Service:
    name: str
    image: str | None = None
    build: tuple[str, str] | None = None
    """(context relative to environment/, Dockerfile) when the service is built."""
    environment: dict[str, str] = field(default_factory=dict)
    command: list[str] | str | None = None
    entrypoint: list[str] | str | None = None
    working_dir: str | None = None
    user: str | None = None
    depends_on: list[str] = field(default_factory=list)


def _env(value: Any) -> dict[str, str]:
    if isinstance(value, dict):
        return {str(k): "" if v is None else str(v) for k, v in value.items()}
    if isinstance(value, list):
        return dict(str(x).split("=", 1) if "=" in str(x) else (str(x), "") for x in value)
    return {}


def read_compose(path: Path) -> tuple[dict[str, str], list[Service]]:
    """(environment merged into main, the other services in start order); ValueError names
    what cannot run here."""
    import yaml

    try:
        data = yaml.safe_load(path.read_text("utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as e:
        raise ValueError(f"{path.name} does not parse: {e}") from None
    services = data.get("services") if isinstance(data, dict) else None
    if not isinstance(services, dict):
        raise ValueError(f"{path.name} has no `services` mapping")
    main_env: dict[str, str] = {}
    out: list[Service] = []
    for name, spec in services.items():
        spec = spec or {}
        if not isinstance(spec, dict):
            raise ValueError(f"{path.name}: service {name!r} is not a mapping")
        bad = [k for k in spec if k in REFUSED_KEYS]
        if bad:
            raise ValueError(f"{path.name}: service {name!r} uses {', '.join(bad)}, which would "
                             "reach the host (not supported)")  # fmt: skip
        unknown = [k for k in spec if k not in KNOWN_KEYS]
        if unknown:
            raise ValueError(f"{path.name}: service {name!r}: {', '.join(unknown)} not supported")
        if name == "main":
            main_env = _env(spec.get("environment"))
            continue
        build = spec.get("build")
        if isinstance(build, str):
            build = {"context": build}
        if build is None and not spec.get("image"):
            raise ValueError(f"{path.name}: service {name!r} has neither image nor build")
        deps = spec.get("depends_on") or []
        if not isinstance(deps, list | dict):
            raise ValueError(f"{path.name}: service {name!r}: depends_on is neither a list nor "
                             "a mapping")  # fmt: skip
        out.append(Service(
            name=str(name), image=spec.get("image"),
            build=(str(build.get("context", ".")), str(build.get("dockerfile", "Dockerfile")))
            if isinstance(build, dict) else None,
            environment=_env(spec.get("environment")), command=spec.get("command"),
            entrypoint=spec.get("entrypoint"), working_dir=spec.get("working_dir"),
            user=None if spec.get("user") is None else str(spec.get("user")),
            depends_on=[str(d) for d in (deps if isinstance(deps, list) else list(deps))],
        ))  # fmt: skip
    return main_env, _ordered(out)


def _ordered(services: list[Service]) -> list[Service]:
    """Dependencies first (a cycle keeps the file's order)."""
    by_name = {s.name: s for s in services}
    done: list[Service] = []

    def visit(s: Service, seen: set[str]) -> None:
        if s in done or s.name in seen:
            return
        for d in s.depends_on:
            if d in by_name:
                visit(by_name[d], seen | {s.name})
        done.append(s)

    for s in services:
        visit(s, set())
    return done


class ServiceNetwork:
    """The episode's private network and its service containers."""

    def __init__(self, services: list[tuple[Service, str]], memory_mb: int, pids: int) -> None:
        """`services`: each with the image to run (already resolved or built)."""
        client = get_client()
        self.name = f"rlvr-episode-{secrets.token_hex(6)}"
        self.containers: list[Any] = []
        try:
            self.network = client.networks.create(self.name, driver="bridge", internal=True,
                                                  labels=pool_labels())  # fmt: skip
            for svc, image in services:
                c = client.containers.create(
                    image, svc.command, entrypoint=svc.entrypoint, environment=svc.environment,
                    working_dir=svc.working_dir, user=svc.user, hostname=svc.name,
                    network=self.name, mem_limit=f"{memory_mb}m", memswap_limit=f"{memory_mb}m",
                    pids_limit=pids, labels={**pool_labels(), "rlvr.service": svc.name},
                )  # fmt: skip
                self.containers.append(c)
                # the service answers to its name on this network only
                self.network.disconnect(c)
                self.network.connect(c, aliases=[svc.name])
                c.start()
        except BaseException as e:
            self.close()
            if isinstance(e, Exception):
                raise InfraFailure(f"could not start the task's services: {e}") from None
            raise

    def close(self) -> None:
        for c in self.containers:
            with contextlib.suppress(Exception):
                c.remove(force=True)
        with contextlib.suppress(Exception):
            self.network.remove()
