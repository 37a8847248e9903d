"""A task folder in Harbor's layout (Terminal-Bench 2 and the sets adapters publish) as a Task.

    <task>/task.toml               [metadata], [agent], [verifier], [environment], [solution]
    <task>/instruction.md          the prompt
    <task>/environment/Dockerfile  the task's own image (or [environment].docker_image)
    <task>/solution/solve.sh       the oracle: the whole solution/ folder goes to /solution
    <task>/tests/test.sh           the verifier: tests/ goes to /tests after the agent

Such a task runs in Harbor mode (rlvr.sandbox.harbor_box): its own image, one container for
the episode, the agent as the image's USER, then `test.sh` as `[verifier].user` and the reward
file. Loading reads files only (no Docker): a task rlvr cannot run is refused here, alone, with
its reason and fix (`Refusal`), and the rest of the folder loads.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from rlvr.manifest import format_validation_error
from rlvr.sandbox.compose import COMPOSE_FILES, read_compose
from rlvr.types import Task

DAY_S = 86400.0  # the longest phase a task may ask for (a socket timeout past it overflows)
SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([GMK])B?\s*$", re.I)


class Refusal(Exception):
    """A task that cannot run here: why, and what would fix it."""

    def __init__(self, task: str, reason: str, fix: str) -> None:
        self.task, self.reason, self.fix = task, reason, fix
        super().__init__(f"{task}: {reason}; {fix}")


def _mb(value: Any) -> Any:
    """Harbor's legacy sizes ('2G', '512M') in MB; numbers pass through."""
    if isinstance(value, str):
        m = SIZE.match(value)
        if m is None:
            raise ValueError(f"size {value!r} is not like '2G' or '512M'")
        scale = {"G": 1024.0, "M": 1.0, "K": 1 / 1024}[m.group(2).upper()]
        return int(float(m.group(1)) * scale)
    return value


class _Phase(BaseModel):
    model_config = ConfigDict(extra="ignore")

    timeout_sec: float | None = Field(default=None, gt=0, le=DAY_S)
    user: str | int | None = None
    env: dict[str, str] = Field(default_factory=dict)
    network_mode: str | None = None


class _Environment(BaseModel):
    model_config = ConfigDict(extra="ignore")

    build_timeout_sec: float = Field(default=600.0, gt=0, le=DAY_S)
    docker_image: str | None = None
    cpus: float | None = Field(default=None, gt=0)
    memory_mb: int | None = Field(default=None, gt=0)
    storage_mb: int | None = Field(default=None, gt=0)
    gpus: int | None = Field(default=None, ge=0)
    network_mode: str | None = None
    allow_internet: bool | None = None
    workdir: str | None = None
    env: dict[str, str] = Field(default_factory=dict)
    os: str = "linux"

    @field_validator("memory_mb", "storage_mb", mode="before")
    @classmethod
    def _sizes(cls, v: Any) -> Any:
        return _mb(v)


class HarborConfig(BaseModel):
    """The parts of Harbor's task.toml that rlvr reads; other tables and keys are ignored."""

    model_config = ConfigDict(extra="ignore")

    metadata: dict[str, Any] = Field(default_factory=dict)
    agent: _Phase = Field(default_factory=_Phase)
    verifier: _Phase = Field(default_factory=_Phase)
    solution: _Phase = Field(default_factory=_Phase)
    environment: _Environment = Field(default_factory=_Environment)

    def needs_network(self) -> list[str]:
        """The phases whose declared network rlvr cannot give offline (empty: none needs it).

        Harbor's default is public network; a task needs it only where it says so: the legacy
        `allow_internet = true`, or an explicit `network_mode` other than no-network.
        """
        env = self.environment
        base = env.allow_internet is True or env.network_mode not in (None, "no-network")
        phases = []
        for name, phase in (("agent", self.agent), ("verifier", self.verifier)):
            mode = phase.network_mode
            if (mode not in (None, "no-network")) if mode is not None else base:
                phases.append(name)
        return phases


def read_config(folder: Path) -> HarborConfig:
    toml = folder / "task.toml"
    if not toml.is_file():  # Harbor's defaults throughout
        return HarborConfig()
    try:
        data = tomllib.loads(toml.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise Refusal(folder.name, f"task.toml does not parse: {e}", "fix its TOML") from None
    data = {k: v for k, v in data.items() if isinstance(v, dict) or k == "version"}
    data.pop("version", None)
    for table in ("agent", "verifier", "solution"):  # a table may be absent or hold non-dicts
        if not isinstance(data.get(table, {}), dict):
            data.pop(table)
    try:
        return HarborConfig.model_validate(data)
    except ValidationError as e:
        reason = format_validation_error(f"{folder.name}/task.toml", e)
        raise Refusal(folder.name, reason, "fix task.toml") from None


def links_out(folder: Path) -> list[str]:
    """Links in the task folder that resolve outside it (they would carry host files into the
    prompt, the image or the container's /tests)."""
    root = folder.resolve()
    out = []
    for path in sorted(folder.rglob("*")):
        if path.is_symlink() and not path.resolve().is_relative_to(root):
            out.append(path.relative_to(folder).as_posix())
    return out


def load_harbor_task(folder: Path, allow_network: bool = False) -> Task:
    """One Harbor task folder as a Task, or a Refusal naming why it cannot run here."""
    name = folder.name
    if outside := links_out(folder):
        raise Refusal(name, f"{', '.join(outside[:3])} links outside the task folder",
                      "replace the links with the files themselves")  # fmt: skip
    cfg = read_config(folder)
    env = cfg.environment
    test_sh = folder / "tests" / "test.sh"
    if not (folder / "instruction.md").is_file():
        raise Refusal(name, "instruction.md is missing", "add the task's instruction.md")
    if not test_sh.is_file():
        raise Refusal(name, "tests/test.sh is missing (Harbor's verifier)",
                      "add tests/test.sh, or tests/test.py for rlvr's own judge")  # fmt: skip
    compose = next((f for f in COMPOSE_FILES if (folder / "environment" / f).is_file()), None)
    if compose is not None:
        try:
            read_compose(folder / "environment" / compose)
        except ValueError as e:
            fix = "run it with Harbor, or keep to what rlvr/sandbox/compose.py reads"
            raise Refusal(name, f"environment/{e}", fix) from None
    if env.os != "linux":
        raise Refusal(name, f"[environment].os = {env.os!r}: only linux containers run here",
                      "use a linux task")  # fmt: skip
    if env.gpus:
        raise Refusal(name, f"[environment].gpus = {env.gpus}: GPU tasks are not supported",
                      "run it where containers get GPUs (not rlvr's sandbox)")  # fmt: skip
    dockerfile = folder / "environment" / "Dockerfile"
    if env.docker_image is None and not dockerfile.is_file():
        raise Refusal(name, "neither environment/Dockerfile nor [environment].docker_image",
                      "add the task's Dockerfile or name its image")  # fmt: skip
    declared = cfg.needs_network()  # every Terminal-Bench 2 task says allow_internet = true,
    # mostly for its verifier's downloads, which the offline toolbox answers: such a task runs
    # offline unless the environment allows network, and a failure says what it declared
    network = declared if allow_network else []
    solution = folder / "solution" / "solve.sh"
    meta = cfg.metadata
    try:
        prompt = (folder / "instruction.md").read_text("utf-8").strip()
        reference = solution.read_text("utf-8") if solution.is_file() else None
    except UnicodeDecodeError as e:
        raise Refusal(name, f"a text file is not UTF-8 ({e})", "save it as UTF-8") from None
    return Task(
        id=name,
        prompt=prompt,
        reference=reference,
        meta={
            "task_dir": str(folder),
            "judge": "harbor",
            "category": str(meta.get("category", "")),
            "difficulty": str(meta.get("difficulty", "")),
            "agent_timeout_s": float(cfg.agent.timeout_sec or 600.0),
            "verifier_timeout_s": float(cfg.verifier.timeout_sec or 600.0),
            "build_timeout_s": env.build_timeout_sec,
            "docker_image": env.docker_image,
            "cpus": env.cpus,
            "memory_mb": env.memory_mb,
            "storage_mb": env.storage_mb,
            "workdir": env.workdir,
            "env": env.env,
            "agent_user": None if cfg.agent.user is None else str(cfg.agent.user),
            "verifier_user": str(cfg.verifier.user if cfg.verifier.user is not None else "root"),
            "verifier_env": cfg.verifier.env,
            "solution_env": cfg.solution.env,
            "network": network,
            "network_declared": declared,
            "compose": compose,
            **({"split": meta["split"]} if meta.get("split") in ("train", "test") else {}),
        },
    )
