"""The folders rlvr ships beside its code: `envs/`, `datasets/`, `graders/`, `sandbox/`.

In a source checkout they sit at the repository root, next to `rlvr/`; a wheel copies each to
`rlvr/_builtin/<name>` (pyproject.toml, `[tool.hatch.build.targets.wheel.force-include]`). They
are data, not import packages (see the layout table in README.md), so code finds them here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

PACKAGE = Path(__file__).resolve().parent
Folder = Literal["envs", "datasets", "graders", "sandbox"]


def bundled(name: Folder, inside: str = "") -> Path | None:
    """The installed copy of the top-level folder `name`, else the source tree's; None when
    neither exists (or, with `inside`, neither holds that relative path)."""
    for cand in (PACKAGE / "_builtin" / name, PACKAGE.parent / name):
        if (cand / inside).exists() if inside else cand.is_dir():
            return cand
    return None


def source_folder(name: Folder) -> Path:
    """Where the source tree keeps `name` (for messages and defaults when nothing is found)."""
    return PACKAGE.parent / name
