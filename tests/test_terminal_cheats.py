"""`rlvr audit graders` on terminal tasks: generic cheating agents against the real judge.

Every cheat (rlvr/audit/specgap/cheats.py) must be scored 0, never passed and never masked.
The suite runs them on the git tasks (where history, index and config can lie) and a spread of
the others by id hash; `rlvr audit graders --env terminal` runs them on every task.
"""

from __future__ import annotations

import pytest

from rlvr.audit.specgap.audit import GapOptions, audit_env, candidates
from rlvr.audit.specgap.cheats import terminal_cheats
from rlvr.references import choose_tasks
from rlvr.registry import load_env

GIT_TASKS = ["git-revert-bad-commit", "git-merge-conflict", "git-squash-wip"]
SPREAD = 3


@pytest.fixture(scope="module")
def terminal():
    return load_env("terminal")


def test_every_terminal_task_gets_the_cheats_and_no_mutants(terminal) -> None:
    task = terminal.task("git-revert-bad-commit")
    names = [c.name for c in candidates(terminal, task, GapOptions())]
    assert names[0] == "reference"
    assert {"nothing", "delete_workspace", "empty_files", "pad_workspace", "shadow_modules",
            "files_without_history", "background_reference"} == set(names[1:])  # fmt: skip
    shadow = next(c for c in terminal_cheats(task) if c.name == "shadow_modules").completion
    assert "/app/pytest.py" in shadow and "/app/sitecustomize.py" in shadow


def test_a_harbor_task_gets_no_cheat_built_on_the_reference() -> None:
    env = load_env("harbor-examples")
    names = {c.name for c in terminal_cheats(env.tasks()[0])}
    assert "nothing" in names
    assert not names & {"files_without_history", "background_reference"}


def test_no_generic_cheat_passes_or_is_masked(terminal) -> None:
    tasks = terminal.tasks()
    spread = choose_tasks([t for t in tasks if t.id not in GIT_TASKS], SPREAD, "hash")
    chosen = [terminal.task(t) for t in GIT_TASKS] + spread
    audits, summary = audit_env(terminal, chosen, GapOptions(workers=2))
    assert summary.language == "terminal"
    for a in audits:
        assert a.reference_passed is True, (a.task_id, a.reference_reason)
        assert len(a.trivials) >= 5, a.task_id
        passed = [(t.name, t.reason) for t in a.trivials if t.passed is not False]
        assert not passed, (a.task_id, passed)
    assert summary.trivial_passed == 0
