"""bench/smol_curve.py --quick runs the CPU learning attempt's stages with tiny budgets on
tiny-code (eval, frontier, LoRA GRPO graded in the sandbox, eval, the paired comparison) and
writes its table, plot and page; a second run resumes every stage instead of redoing it.

It needs Docker and the python image; RLVR_SKIP_DOCKER=1 skips it explicitly. It asserts the
plumbing, never the learning figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(out: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("RLVR_UNSAFE_LOCAL_JUDGE", None)
    script = [sys.executable, str(ROOT / "bench" / "smol_curve.py"), "--quick", "--out", str(out)]
    return subprocess.run(script, capture_output=True, text=True, env=env, cwd=ROOT)


@pytest.mark.skipif(os.environ.get("RLVR_SKIP_DOCKER") == "1", reason="RLVR_SKIP_DOCKER=1")
def test_quick_runs_eval_grpo_eval_and_resumes(tmp_path: Path) -> None:
    run = _run(tmp_path)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "pass@1 before" in run.stdout and "| tiny-code |" in run.stdout
    record = json.loads((tmp_path / "results.json").read_text())
    row = record["row"]
    assert row["lora_rank"] == 2 and 0 <= row["p_value"] <= 1
    assert len(row["train_reward_by_step"]) == row["recipe"]["steps"]
    assert row["cpu_min"] > 0
    stages = json.loads((tmp_path / "python" / "stages.json").read_text())
    assert set(stages) == {"eval_before", "frontier", "grpo", "eval_after"}
    assert (tmp_path / "smol_curve.png").stat().st_size > 0
    assert "<img src='data:image/png;base64," in (tmp_path / "index.html").read_text()
    again = _run(tmp_path)
    assert again.returncode == 0, again.stderr[-3000:]
    assert again.stdout.count("done before, skipped") == 4
