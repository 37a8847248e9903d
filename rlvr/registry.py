"""Build environments by name, from the sources `rlvr.discovery` finds.

Sources, all equal: Python factories registered with `@register_env`, the `rlvr.envs`
entry-point group of installed packages (a factory or a manifest folder), and manifest folders
(`envs/<name>/env.toml`). Finding them lives in `rlvr.discovery`; this module builds them.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rlvr.discovery import ENTRY_POINT_GROUP, EnvSource, discover
from rlvr.env import Environment, grader_from_options
from rlvr.episodes.session import EpisodeSpec
from rlvr.errors import EnvNotFoundError, ManifestError, RlvrError, format_validation_error
from rlvr.manifest import MANIFEST_NAME, Manifest, read_manifest
from rlvr.types import Task


def _load_entry_point(src: EnvSource, overrides: dict[str, Any]) -> Environment:
    (ep,) = [e for e in entry_points(group=ENTRY_POINT_GROUP) if e.name == src.name]
    obj = ep.load()
    if isinstance(obj, str | Path):
        return env_from_manifest(Path(obj), **overrides)
    if callable(obj):
        return obj(**overrides)
    raise ManifestError(
        f"entry point {src.name!r} = {ep.value} is a {type(obj).__name__}",
        "point it at a factory function returning an Environment, or at a manifest folder",
    )


def load_env(name: str, **overrides: Any) -> Environment:
    """Build the environment called `name`; overrides replace manifest or factory defaults."""
    sources = discover()
    if name not in sources:
        raise EnvNotFoundError(
            f"no environment named {name!r}",
            f"known environments: {', '.join(sorted(sources)) or 'none'}; add a folder with "
            "--env-path or RLVR_ENV_PATH, or register one with @rlvr.register_env",
        )
    src = sources[name]
    if src.kind == "python":
        assert src.factory is not None
        return src.factory(**overrides)
    if src.kind == "entry-point":
        return _load_entry_point(src, overrides)
    assert src.folder is not None
    return env_from_manifest(src.folder, **overrides)


def read_tasks_jsonl(path: Path) -> list[Task]:
    """Tasks from a JSONL file, with the line number in every error."""
    if not path.is_file():
        raise ManifestError(f"{path}: task file not found", "check tasks.path in the manifest")
    tasks = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                tasks.append(Task.model_validate(json.loads(line)))
            except json.JSONDecodeError as e:
                raise ManifestError(f"{path}:{lineno}: not valid JSON ({e.msg})") from None
            except ValidationError as e:
                raise ManifestError(format_validation_error(f"{path}:{lineno}", e)) from None
    return tasks


def _import_object(spec: str, where: str) -> Any:
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
        return getattr(module, attr)
    except (ImportError, AttributeError) as e:
        raise ManifestError(
            f"{where}: cannot import {spec!r} ({e})",
            "install the package that provides it, or fix the 'module:function' spelling",
        ) from None


def _task_loader(manifest: Manifest, folder: Path, limit: int | None) -> Callable[[], list[Task]]:
    spec = manifest.tasks

    def load() -> list[Task]:
        if spec.path is not None:
            tasks = read_tasks_jsonl((folder / spec.path).resolve())
        else:
            assert spec.loader is not None
            fn = _import_object(spec.loader, str(folder / MANIFEST_NAME))
            tasks = list(fn(**spec.args))
        return tasks[:limit] if limit is not None else tasks

    return load


ENV_OVERRIDES = (
    "n_tasks",
    "grader_options",
    "prompt_template",
    "system_prompt",
    "stop_at_closed_fence",
)


def env_from_manifest(folder: Path | str, **overrides: Any) -> Environment:
    """Build an Environment from a manifest folder.

    Overrides: `n_tasks` (keep the first N), `grader_options` (merged into the manifest's),
    `prompt_template`, `system_prompt`, `stop_at_closed_fence`.
    """
    folder = Path(folder).resolve()
    unknown = set(overrides) - set(ENV_OVERRIDES)
    if unknown:
        raise ManifestError(
            f"unknown override(s) {sorted(unknown)} for environment at {folder}",
            f"use {', '.join(ENV_OVERRIDES)}",
        )
    manifest = read_manifest(folder)
    if manifest.requires is not None and manifest.requires.missing():
        raise RlvrError(
            f"environment {manifest.name!r} needs {manifest.requires.missing()}, which is not "
            "installed",
            manifest.requires.install_hint(),
        )
    options = {**manifest.grader.options, **overrides.get("grader_options", {})}
    if manifest.sandbox is not None:
        options.setdefault("sandbox", manifest.sandbox)
        options.setdefault("env_dir", str(folder))
    where = f"{folder / MANIFEST_NAME}: grader.options"
    grader, audit = grader_from_options(manifest.grader.kind, options, where)
    env = Environment(
        name=manifest.name,
        grader=grader,
        load_tasks=_task_loader(manifest, folder, overrides.get("n_tasks")),
        prompt_template=overrides.get("prompt_template", manifest.prompt.template),
        system_prompt=overrides.get("system_prompt", manifest.prompt.system),
        stop_at_closed_fence=overrides.get(
            "stop_at_closed_fence", manifest.prompt.stop_at_closed_fence
        ),
        description=manifest.description,
        source=str(folder / MANIFEST_NAME),
        sandbox=manifest.sandbox,
        split=manifest.split,
        audit=audit,
        episode=_episode_spec(manifest, folder),
    )
    env.describe = _describer(manifest, folder)
    return env


SESSIONS = {
    "repair": "rlvr.episodes.repair:open_repair",
    "terminal": "rlvr.episodes.terminal:open_terminal",
    "retry": "rlvr.episodes.retry:open_retry",
}


def _episode_spec(manifest: Manifest, folder: Path) -> EpisodeSpec | None:
    """The manifest's `[episode]` table as an EpisodeSpec (None: a single-turn environment)."""
    table = manifest.episode
    if table is None:
        return None
    where = str(folder / MANIFEST_NAME)
    opener = _import_object(SESSIONS.get(table.session, table.session), where)
    try:
        return EpisodeSpec(
            max_turns=table.max_turns,
            tools=table.tools,
            open_session=opener,
            submit_tool=table.submit_tool,
            observation_chars=table.observation_chars,
            on_no_call=table.on_no_call,
            retry_reward=table.retry_reward,
            descriptions=table.tool_descriptions,
        )
    except ValueError as e:
        raise ManifestError(f"{where}: [episode]: {e}", "fix the [episode] table") from None


def _describer(manifest: Manifest, folder: Path) -> Callable[[], dict[str, Any]] | None:
    """The loader module's describer for this loader (coverage notes): `describe_<loader>` when
    the module has one, else `describe` when it takes the loader's arguments."""
    spec = manifest.tasks
    if spec.loader is None:
        return None
    loader = _import_object(spec.loader, str(folder / MANIFEST_NAME))
    module = importlib.import_module(loader.__module__)
    fn = getattr(module, f"describe_{loader.__name__}", None) or getattr(module, "describe", None)
    if not callable(fn):
        return None
    try:
        inspect.signature(fn).bind(**spec.args)
    except TypeError:
        return None
    return lambda: fn(**spec.args)


def validate_env_folder(folder: Path | str) -> Environment:
    """Check a manifest, build its grader and load its tasks; raise on the first problem."""
    env = env_from_manifest(folder)
    env.tasks()
    return env
