"""A folder of tasks in Harbor's layout, registered with --env-path and run in rlvr's sandbox:
Harbor's own tests/test.sh as the verifier (the weaker mode), and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.cli.common import use_env_paths
from rlvr.errors import RlvrError
from rlvr.registry import load_env

ENV_TOML = """name = "harbor-demo"
description = "Harbor tasks run in rlvr's terminal sandbox."

[tasks]
loader = "rlvr.tasksets.terminal:load_tasks"
args = {{ path = "{tasks}" }}

[episode]
max_turns = 6
tools = ["bash", "read_file", "write_file", "submit"]
session = "terminal"

[grader]
kind = "terminal"

[sandbox]
image = "rlvr-terminal:bookworm"
runner = "episode"
"""

TEST_SH = """#!/bin/bash
cd /app
if python3 -m pytest -q /tests/test_outputs.py; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
"""

TEST_OUTPUTS = """from pathlib import Path


def test_sorted():
    assert Path("/app/sorted.txt").read_text() == "apple\\nbanana\\ncherry\\n"
"""


def harbor_task(root: Path, name: str, dockerfile: str) -> Path:
    task = root / "tasks" / name
    (task / "environment" / "data").mkdir(parents=True)
    (task / "solution").mkdir()
    (task / "tests").mkdir()
    (task / "task.toml").write_text(
        'version = "1.0"\n[metadata]\ndifficulty = "easy"\ncategory = "text"\n'
        "[verifier]\ntimeout_sec = 60.0\n[agent]\ntimeout_sec = 30.0\n"
        "[environment]\ncpus = 1\nmemory_mb = 2048\n"
    )
    (task / "instruction.md").write_text("Sort the lines of /app/fruit.txt into /app/sorted.txt.\n")
    (task / "environment" / "Dockerfile").write_text(dockerfile)
    (task / "environment" / "data" / "fruit.txt").write_text("cherry\napple\nbanana\n")
    (task / "solution" / "solve.sh").write_text(
        "#!/bin/bash\nsort /app/fruit.txt > /app/sorted.txt\n"
    )
    (task / "tests" / "test.sh").write_text(TEST_SH)
    (task / "tests" / "test_outputs.py").write_text(TEST_OUTPUTS)
    return task


@pytest.fixture
def harbor_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("rlvr.discovery._extra_paths", [])  # --env-path folders of this test only
    harbor_task(tmp_path, "sort-fruit", "FROM rlvr-terminal:bookworm\nWORKDIR /app\n"
                "COPY data/fruit.txt /app/fruit.txt\n")  # fmt: skip
    folder = tmp_path / "envs" / "harbor-demo"
    folder.mkdir(parents=True)
    (folder / "env.toml").write_text(ENV_TOML.format(tasks=tmp_path / "tasks"))
    return tmp_path / "envs"


def test_harbor_tasks_validate_through_env_path(harbor_env: Path) -> None:
    result = CliRunner().invoke(app, ["envs", "validate", "--references", "--env-path",
                                      str(harbor_env), "harbor-demo"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "1 reference" in result.output


def test_harbor_verifier_scores_the_workspace_and_an_empty_answer_fails(harbor_env: Path) -> None:
    use_env_paths([harbor_env])
    env = load_env("harbor-demo")
    [task] = env.tasks()
    assert task.meta["judge"] == "harbor" and task.meta["copies"] == [
        ("data/fruit.txt", "fruit.txt")
    ]
    ref, empty, wrong = env.grade(
        task, [task.reference or "", "", "sort -r fruit.txt > sorted.txt"]
    )
    assert (ref.reward, empty.reward, wrong.reward) == (1.0, 0.0, 0.0), (ref.reason, empty.reason)


def test_a_dockerfile_that_needs_an_image_of_its_own_is_refused(tmp_path: Path) -> None:
    from rlvr.tasksets.terminal import load_tasks

    harbor_task(tmp_path, "needs-packages", "FROM python:3.13-slim\nRUN pip install pandas\n")
    with pytest.raises(RlvrError, match="first line must be `FROM rlvr-terminal:bookworm`"):
        load_tasks(str(tmp_path / "tasks"))
    (tmp_path / "tasks" / "needs-packages" / "environment" / "Dockerfile").write_text(
        "FROM rlvr-terminal:bookworm\nRUN apt-get install -y postgresql\n"
    )
    with pytest.raises(RlvrError, match="RUN apt-get install -y postgresql` is not supported"):
        load_tasks(str(tmp_path / "tasks"))
