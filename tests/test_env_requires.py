"""Environments behind an extra: a missing package is named with its extra, never a traceback."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr.errors import RlvrError
from rlvr.registry import env_from_manifest

RLVR = [sys.executable, "-m", "rlvr.cli"]
MANIFEST = """
name = "needs-extra"
[requires]
modules = ["rlvr_no_such_module_for_tests"]
extra = "bfcl"
[tasks]
loader = "rlvr_no_such_module_for_tests:load"
[grader]
kind = "toolcall"
"""


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "needs-extra"
    folder.mkdir()
    (folder / "env.toml").write_text(MANIFEST)
    return folder


def test_loading_names_the_extra(tmp_path: Path) -> None:
    with pytest.raises(RlvrError) as e:
        env_from_manifest(_folder(tmp_path))
    assert e.value.message == (
        "environment 'needs-extra' needs ['rlvr_no_such_module_for_tests'], which is not installed"
    )
    assert e.value.fix == "pip install 'rlvr[bfcl]'"


def test_envs_list_and_show(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    done = subprocess.run([*RLVR, "envs", "list", "--json", "--env-path", str(folder)],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = {r["name"]: r for r in map(json.loads, done.stdout.splitlines())}
    assert rows["needs-extra"]["needs"] == "pip install 'rlvr[bfcl]'"
    assert rows["math"]["needs"] is None
    assert rows["bfcl-simple"]["needs"] is None  # bfcl-eval is in the dev extra
    done = subprocess.run([*RLVR, "envs", "show", "needs-extra", "--env-path", str(folder)],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "fix: pip install 'rlvr[bfcl]'" in done.stderr


def test_bundled_bfcl_and_humaneval_name_their_extras() -> None:
    import tomllib

    root = Path(__file__).resolve().parent.parent
    for name, extra in [("bfcl-simple", "bfcl"), ("bfcl-irrelevance", "bfcl"),
                        ("humaneval", "humaneval")]:  # fmt: skip
        data = tomllib.loads((root / "envs" / name / "env.toml").read_text())
        assert data["requires"]["extra"] == extra
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    extras = extras["optional-dependencies"]
    assert "bfcl-eval" not in " ".join(extras["trl"] + extras["train"])
    assert any(d.startswith("bfcl-eval") for d in extras["bfcl"])
    assert "bfcl" in extras["dev"][0] and "humaneval" in extras["dev"][0]
