"""The terminal judge's workspace walk and removal (sandbox/runner/judge_git.py) on folders
nested past Python 3.11's recursion limit, which os.walk and shutil.rmtree recurse into."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sandbox" / "runner"))
import judge_git  # the runner's own module, as the container imports it

DEPTH = 1500


@pytest.fixture()
def tmp_path(tmp_path: Path) -> Iterator[Path]:
    """tmp_path, emptied by `rm -rf` after the test: pytest's own clean-up of old temporary
    folders uses shutil.rmtree, which a tree this deep would fail in a later session."""
    yield tmp_path
    subprocess.run(["rm", "-rf", str(tmp_path)], check=False)


def _deep(root: Path) -> Path:
    here = root.joinpath(*["d"] * DEPTH)
    subprocess.run(["mkdir", "-p", str(here)], check=True)  # pathlib's mkdir recurses too
    (here / "leaf.txt").write_text("x")
    return here


def test_walk_goes_past_the_recursion_limit_and_follows_no_link(tmp_path: Path) -> None:
    _deep(tmp_path / "ws")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret").write_text("s")
    os.symlink(outside, tmp_path / "ws" / "link")
    seen = list(judge_git.walk(str(tmp_path / "ws")))
    assert len(seen) == DEPTH + 1
    assert seen[0][1:] == (["d"], ["link"])  # a link to a folder is listed, never entered
    assert seen[-1][2] == ["leaf.txt"]
    assert not any("secret" in files for _, _, files in seen)


def test_walk_prunes_like_os_walk_and_reports_a_folder_it_cannot_read(tmp_path: Path) -> None:
    (tmp_path / "a" / ".git" / "objects").mkdir(parents=True)
    (tmp_path / "b").mkdir()
    visited = []
    for here, dirs, _ in judge_git.walk(str(tmp_path)):
        visited.append(os.path.relpath(here, tmp_path))
        if ".git" in dirs:
            dirs.remove(".git")
    assert visited == [".", "a", "b"]
    with pytest.raises(RuntimeError, match="cannot look into"):
        list(judge_git.walk(str(tmp_path / "missing"), onerror=judge_git._refuse))


def test_remove_takes_a_folder_nested_past_the_recursion_limit(tmp_path: Path) -> None:
    hooks = tmp_path / ".git" / "hooks"
    _deep(hooks)
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, hooks / "d" / "link")
    judge_git._remove(str(hooks))
    assert not hooks.exists() and outside.is_dir()
