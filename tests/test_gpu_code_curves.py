"""bench/gpu_code_curves.sh --quick runs the GPU recipe's stages on the CPU with tiny budgets
(the carry route on a stand-in wheel; one stack, python: SFT, frontier, evals, sandbox-graded
GRPO, --compare, the table; then the episode row: teachers, distillation, held-out evals, GRPO
on episodes), and the bench never grades outside the sandbox unless the unsafe local judge is
named.

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
    # the episode row (bench/agent_pipeline.py --quick) is about 6 minutes of this lane
    run = _run(["bash", str(SCRIPT), "--quick"], tmp_path)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "carry route: 3 parts split, joined and checked" in run.stdout
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
    episodes = record["episodes"]
    assert "episodes: base -> distilled" in run.stdout and "| repair-python | grpo |" in run.stdout
    assert {(r["env"], r["model"]) for r in episodes["rows"]} == {
        ("repair-python", "base"), ("repair-python", "distil"), ("repair-python", "grpo"),
        ("terminal", "base"), ("terminal", "distil"), ("synth-python", "base"),
    }  # fmt: skip
    assert set(episodes["kept"]) == {"reference", "served", "terminal"}
    assert len(episodes["grpo_zero_var_frac"]) == 1


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


def test_set_overrides_a_recipe_budget_and_names_a_bad_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--set KEY=VALUE` (a short GPU lease runs every stage on smaller budgets), checked by the
    Recipe model: an unknown field or a bad value stops the run and says which."""
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import gpu_code_curves as gcc

    recipe = gcc.with_overrides(gcc.gpu_recipe("python"), ["steps=12", "lr=5e-6"])
    assert (recipe.steps, recipe.lr, recipe.sft_steps) == (12, 5e-6, 300)
    for bad, needle in (("stepz=3", "stepz"), ("steps=many", "valid integer"), ("steps", "KEY")):
        with pytest.raises(SystemExit, match=needle):
            gcc.with_overrides(gcc.gpu_recipe("python"), [bad])
