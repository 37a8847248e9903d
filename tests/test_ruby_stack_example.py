"""examples/stacks/ruby-stack: a stack added from the docs alone (`rlvr stack new`, then the
translator, driver, renderer and patterns) keeps working: its renderer expresses every synth
task, and `rlvr stack check` passes every row against a real sandbox."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rlvr.discovery
from rlvr.cli import app
from rlvr.registry import load_env

FOLDER = Path(__file__).resolve().parents[1] / "examples" / "stacks" / "ruby-stack"


@pytest.fixture(autouse=True)
def only_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The example's folder is searched in these tests only (--env-path lasts a process)."""
    monkeypatch.setattr(rlvr.discovery, "_extra_paths", list(rlvr.discovery._extra_paths))


def test_the_renderer_expresses_every_synth_task_and_every_hand_written_one() -> None:
    rlvr.discovery.add_env_path(FOLDER)
    synth = load_env("synth-ruby").tasks()
    hand = load_env("ruby").tasks()
    assert len(synth) == 2095 and all(t.reference for t in synth)
    assert len(hand) == 17 and all(t.reference for t in hand)
    assert "def " in synth[0].reference and synth[0].reference.rstrip().endswith("end")


def test_stack_check_passes_every_row() -> None:
    checked = CliRunner().invoke(app, ["stack", "check", "ruby", "--env-path", str(FOLDER),
                                       "--tasks", "2", "--skip-missing"])  # fmt: skip
    record = json.loads(checked.stdout.strip().splitlines()[-1])
    assert checked.exit_code == 0, record
    assert [r["check"] for r in record["rows"]] == [
        "translator", "image", "references ruby", "references synth-ruby",
        "references humaneval-ruby", "spec-gap audit", "hack audit", "repair replay",
    ]  # fmt: skip
