"""Every bundled environment through `rlvr envs show` and `rlvr envs validate` (no sandbox):
a describer that does not take its loader's arguments crashed `envs show repair-python`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.discovery import discover

BUNDLED = sorted(n for n, src in discover().items() if src.kind == "manifest")


@pytest.mark.parametrize("name", BUNDLED)
def test_envs_show_and_validate(name: str) -> None:
    shown = CliRunner().invoke(app, ["envs", "show", name, "--json"])
    assert shown.exit_code == 0, shown.output
    info = json.loads(shown.stdout.strip().splitlines()[-1])
    assert info["n_tasks"] > 0
    if info["grader"] == "function":  # the stack's image, even with no [sandbox] of its own
        assert str(info["sandbox_image"]).startswith("rlvr-"), info["sandbox_image"]
    checked = CliRunner().invoke(app, ["envs", "validate", name])
    assert checked.exit_code == 0 and checked.output.startswith("ok:"), checked.output


def test_repair_envs_describe_each_source() -> None:
    shown = CliRunner().invoke(app, ["envs", "show", "repair-python", "--json"])
    coverage = json.loads(shown.stdout.strip().splitlines()[-1])["coverage"]
    assert any("humaneval" in path for path in coverage), coverage.keys()
