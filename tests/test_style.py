"""The code style the project promises: ruff-clean and ruff-formatted (config in pyproject)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PATHS = ["rlvr", "tests", "bench", "examples", "datasets", "graders"]


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "ruff", *args, *PATHS]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)


def test_ruff_check_is_clean():
    result = ruff("check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean():
    result = ruff("format", "--check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_shipped_file_is_git_ignored():
    """A shipped file matched by .gitignore exists here but never reaches a clean checkout."""
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    shipped = ["datasets", "envs", "sandbox", "examples", "graders"]
    listed = subprocess.run(
        ["git", "ls-files", "--others", "--ignored", "--exclude-standard", "--", *shipped],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    caches = ("__pycache__/", ".pyc", ".ruff_cache/", ".pytest_cache/")
    ignored = [p for p in listed if not any(c in p for c in caches)]
    assert not ignored, f"these files are git-ignored, so a clean checkout lacks them: {ignored}"
