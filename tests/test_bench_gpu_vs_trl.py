"""bench/gpu_vs_trl.py runs end to end on the tiny shape on the CPU: both learners, the table."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_gpu_vs_trl_runs_both_learners_on_the_tiny_shape(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    args = ["--shape", "tiny", "--device", "cpu", "--steps", "2", "--g", "2", "--prompts", "2"]
    args += ["--max-new-tokens", "8", "--micro-batch", "2", "--out", str(out)]
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gpu_vs_trl.py"), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "| rlvr |" in run.stdout and "| trl |" in run.stdout
    assert "TRL s/step / rlvr s/step" in run.stdout
    got = json.loads(out.read_text())
    for side in ("rlvr", "trl"):
        r = got["results"][side]
        assert len(r["steps"]) == 2 and r["steps_measured"] == 1
        assert r["s_per_step"] > 0 and r["peak_gib"] > 0
        assert r["gen_tokens_per_s"] > 0 and r["update_tokens_per_s"] > 0
        assert 0 < r["tokens_per_step"] <= 2 * 2 * 8  # G x prompts x max new tokens
    assert got["ratios"]["rlvr: TRL s/step / rlvr s/step"] > 0


def test_gpu_vs_trl_rejects_a_micro_batch_that_does_not_divide_the_batch() -> None:
    args = ["--device", "cpu", "--g", "3", "--prompts", "3", "--micro-batch", "2"]
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gpu_vs_trl.py"), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 2
    assert "--micro-batch=2 must divide G x prompts = 9" in run.stderr
