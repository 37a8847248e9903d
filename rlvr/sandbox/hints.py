"""The exact command that builds an environment's image, for fix texts.

"image is not built" is only useful with the command that builds it: the environment's name,
and `--env-path FOLDER` when the environment lives outside rlvr's built-in `envs/` (a folder
on RLVR_ENV_PATH or given with --env-path), since a fresh shell would not find it otherwise.
"""

from __future__ import annotations

from pathlib import Path

from rlvr.discovery import builtin_dirs, sandbox_envs
from rlvr.manifest import read_manifest


def build_command(name: str, folder: Path | None) -> str:
    """`rlvr sandbox build NAME`, plus `--env-path FOLDER` for an env outside envs/."""
    if folder is None or any(folder.resolve().parent == d.resolve() for d in builtin_dirs()):
        return f"rlvr sandbox build {name}"
    return f"rlvr sandbox build {name} --env-path {folder.resolve()}"


def build_hint(image: str) -> str:
    """The build command of every environment whose sandbox runs `image`."""
    try:
        commands = [
            build_command(name, folder)
            for name, folder in sandbox_envs().items()
            if (read_manifest(folder).sandbox or {}).get("image") == image
        ]
    except Exception:  # a hint must never hide the error it belongs to
        commands = []
    if not commands:
        return "run `rlvr sandbox bootstrap` then `rlvr sandbox build NAME` for the environment "\
            "that uses it (`rlvr sandbox doctor` lists them)"  # fmt: skip
    return "run " + " or ".join(f"`{c}`" for c in commands) + " (after `rlvr sandbox bootstrap`)"
