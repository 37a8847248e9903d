"""bench/stack_curves.py --quick runs one stack end to end (real SFT, frontier, sandbox-graded
GRPO, evaluations) and writes its table, PNG and page; a second run skips finished stages.

Needs Docker and the python image; RLVR_SKIP_DOCKER=1 skips it explicitly. Asserts the
plumbing, never the learning figures (a model trained here differs between machines)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if os.environ.get("RLVR_SKIP_DOCKER") == "1":
    pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request", allow_module_level=True)


def _bench(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    argv = [sys.executable, str(ROOT / "bench" / "stack_curves.py"), "--out", str(out), *extra]
    return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=out.parent)


def test_quick_python_stack_end_to_end_then_resumes(tmp_path: Path) -> None:
    out = tmp_path / "curves"
    run = _bench(out, "--quick", "--stacks", "python")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "| synth-python |" in run.stdout and "pass@1 after GRPO" in run.stdout
    png = out / "stack_curves.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "data:image/png;base64," in (out / "index.html").read_text()
    row = json.loads((out / "results.json").read_text())["rows"][0]
    assert row["stack"] == "python" and row["n_tasks"] >= 1
    assert 0 <= row["sft"]["mean"] <= 1 and 0 <= row["grpo"]["mean"] <= 1
    assert 0 <= row["p_value"] <= 1
    assert row["cpu_min"] > 0 and set(row["cpu_min_by_stage"]) >= {"sft", "grpo", "eval_grpo"}
    assert [c["step"] for c in row["curve"]] == [0, 1, 2]  # eval_every=1 over two steps
    stages = json.loads((out / "python" / "stages.json").read_text())

    again = _bench(out, "--quick", "--stacks", "python")
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert again.stdout.count("done before, skipped") == len(stages)
    assert json.loads((out / "python" / "stages.json").read_text()) == stages


def test_unknown_stack_is_refused_with_the_choices(tmp_path: Path) -> None:
    run = _bench(tmp_path / "x", "--stacks", "cobol")
    assert run.returncode != 0
    assert "cobol" in run.stderr and "python,javascript,go,rust" in run.stderr


def test_another_recipe_in_the_same_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "x" / "python"
    folder.mkdir(parents=True)
    (folder / "recipe.json").write_text(json.dumps({"sft_steps": 1}))
    run = _bench(tmp_path / "x", "--quick", "--stacks", "python")
    assert run.returncode != 0 and "another recipe" in run.stdout + run.stderr
