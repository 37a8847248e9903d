"""bench/gpu_code_curves.sh --quick runs the GPU recipe's stages on the CPU with tiny budgets
(one stack, python: SFT, frontier, evals, sandbox-graded GRPO, --compare, the table; the
episode row is skipped here), and the
bench never grades outside the sandbox unless the unsafe local judge is named.

The end-to-end test needs Docker and the python image; RLVR_SKIP_DOCKER=1 skips it explicitly.
It asserts the plumbing, never the learning figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "bench" / "gpu_code_curves.sh"


def _run(argv: list[str], out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "RLVR_UNSAFE_LOCAL_JUDGE"}
    full = {**base, "PYTHON": sys.executable, "OUT": str(out), "HF_HUB_OFFLINE": "1", **env}
    return subprocess.run(argv, capture_output=True, text=True, env=full, cwd=ROOT)


@pytest.mark.skipif(os.environ.get("RLVR_SKIP_DOCKER") == "1", reason="RLVR_SKIP_DOCKER=1")
def test_quick_runs_every_stage_in_the_sandbox_and_prints_the_table(tmp_path: Path) -> None:
    # the episode row (bench/agent_pipeline.py --quick, about 6 minutes of a lane here) is left
    # out of the suite; tests/test_agent_pipeline.py checks its parts
    run = _run(["bash", str(SCRIPT), "--quick", "--no-episodes"], tmp_path)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "judge: docker" in run.stdout and "unsafe" not in run.stdout
    assert "| synth-python |" in run.stdout and "pass@1 after GRPO" in run.stdout
    folder = tmp_path / "gpu-code-curves-quick"
    record = json.loads((folder / "results.json").read_text())
    assert record["judge"] == "docker" and record["not_run"] == {}
    (row,) = record["rows"]
    assert row["stack"] == "python" and 0 <= row["p_value"] <= 1
    assert set(json.loads((folder / "python" / "stages.json").read_text())) == {
        "sft", "frontier", "eval_sft", "grpo", "eval_grpo", "report",
    }  # fmt: skip
    summary = json.loads((folder / "python" / "eval-grpo" / "summary.json").read_text())
    assert summary["warnings"] == []
    assert record["episodes"] is None and "episodes" not in record["not_run"]


def _bench(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    script = [sys.executable, str(ROOT / "bench" / "gpu_code_curves.py"), *argv]
    return _run(script, Path("/nonexistent"), **env)


def test_without_docker_it_refuses_and_names_the_unsafe_flag(tmp_path: Path) -> None:
    run = _bench("--quick", "--out", str(tmp_path / "x"), DOCKER_HOST="unix:///nonexistent.sock")
    assert run.returncode != 0 and not (tmp_path / "x").exists()
    assert "no Docker daemon answers" in run.stderr and "--unsafe-local-judge" in run.stderr


def test_the_environment_variable_alone_does_not_turn_it_on(tmp_path: Path) -> None:
    run = _bench("--quick", "--out", str(tmp_path / "x"), RLVR_UNSAFE_LOCAL_JUDGE="1")
    assert run.returncode != 0 and "pass --unsafe-local-judge" in run.stderr
