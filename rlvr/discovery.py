"""Where environments are: three sources, one name each.

Sources, all equal: Python factories registered with `@register_env`, the `rlvr.envs`
entry-point group of installed packages (a factory or a manifest folder), and manifest folders
(`envs/<name>/env.toml`) under the built-in directory, `RLVR_ENV_PATH` and `--env-path`.
One name from two sources is an error that names both; nothing is silently shadowed.

Finding is apart from building (`rlvr.registry`) because lower layers need to find folders
without building environments: a stack's translator (`rlvr.functions`), the image builder and
its hints (`rlvr.sandbox`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from rlvr.bundled import bundled
from rlvr.errors import ManifestError
from rlvr.manifest import MANIFEST_NAME, read_manifest

EnvFactory = Callable[..., Any]  # (**overrides) -> rlvr.env.Environment
ENTRY_POINT_GROUP = "rlvr.envs"

_decorated: dict[str, tuple[EnvFactory, str]] = {}
_extra_paths: list[Path] = []


@dataclass(frozen=True)
class EnvSource:
    """Where an environment was found, for listings and duplicate errors."""

    name: str
    kind: str  # "python", "entry-point" or "manifest"
    where: str
    factory: EnvFactory | None = None
    folder: Path | None = None


def builtin_dirs() -> list[Path]:
    """The built-in manifest directory: the installed copy, or the source tree's `envs/`."""
    found = bundled("envs")
    return [found] if found is not None else []


def add_env_path(path: str | Path) -> None:
    """Search `path` (a folder of environment folders, or one environment folder) too."""
    p = Path(path).resolve()
    if p not in _extra_paths:
        _extra_paths.append(p)


def register_env(name: str) -> Callable[[EnvFactory], EnvFactory]:
    """Register a factory `(**overrides) -> Environment` under `name`."""

    def deco(factory: EnvFactory) -> EnvFactory:
        where = f"{factory.__module__}.{factory.__qualname__}"
        if name in _decorated and _decorated[name][1] != where:
            raise ManifestError(
                f"environment {name!r} is registered twice: by {_decorated[name][1]} and {where}",
                "rename one of them",
            )
        _decorated[name] = (factory, where)
        return factory

    return deco


def _search_dirs() -> list[Path]:
    env_var = [Path(p) for p in os.environ.get("RLVR_ENV_PATH", "").split(os.pathsep) if p]
    return [*builtin_dirs(), *env_var, *_extra_paths]


def _manifest_folders(root: Path) -> Iterable[Path]:
    if (root / MANIFEST_NAME).is_file():
        yield root
        return
    if root.is_dir():
        for child in sorted(root.iterdir()):
            if (child / MANIFEST_NAME).is_file():
                yield child


def _manifest_name(folder: Path) -> str:
    return read_manifest(folder).name


def discover() -> dict[str, EnvSource]:
    """Every environment name with its source; raises on a name found twice."""
    found: dict[str, EnvSource] = {}

    def add(src: EnvSource) -> None:
        if src.name in found and found[src.name].where != src.where:
            other = found[src.name]
            raise ManifestError(
                f"two environments are named {src.name!r}: {other.kind} {other.where} "
                f"and {src.kind} {src.where}",
                "rename one of them, or remove one folder from RLVR_ENV_PATH / --env-path",
            )
        found[src.name] = src

    for name, (factory, where) in _decorated.items():
        add(EnvSource(name, "python", where, factory=factory))
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        add(EnvSource(ep.name, "entry-point", f"{ep.value} (package entry point)"))
    for root in _search_dirs():
        for folder in _manifest_folders(root):
            add(EnvSource(_manifest_name(folder), "manifest", str(folder), folder=folder))
    return found


def sandbox_envs() -> dict[str, Path]:
    """Every discovered environment with a manifest and a [sandbox] table: name -> folder.

    Manifest folders on the search path, and `rlvr.envs` entry points whose value is the path
    (str or Path) of an env folder. Factory entry points are left out and never called: they
    build an Environment, not a folder an image can be built from.
    """
    found = {}
    for name, src in sorted(discover().items()):
        folder = src.folder
        if folder is None and src.kind == "entry-point":
            folder = _entry_point_folder(name)
        if folder is not None and read_manifest(folder).sandbox is not None:
            found[name] = folder
    return found


def _entry_point_folder(name: str) -> Path | None:
    """The env folder the `rlvr.envs` entry point `name` names, or None for anything else."""
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name != name:
            continue
        try:
            obj = ep.load()
        except Exception as e:
            raise ManifestError(
                f"entry point {name!r} = {ep.value} (group {ENTRY_POINT_GROUP}) cannot be "
                f"loaded: {e}",
                "fix or uninstall the package that declares it",
            ) from None
        if isinstance(obj, str | Path) and (Path(obj) / MANIFEST_NAME).is_file():
            return Path(obj).resolve()
    return None
