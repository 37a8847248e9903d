"""The code style the project promises: ruff-clean and ruff-formatted (config in pyproject)."""

import subprocess
import sys
from pathlib import Path

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
