"""`rlvr eval`: the pass@k estimator, bootstrap intervals, paired comparison, the command on
math with the tiny model, and evaluation during training."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.evaluation.passk import bootstrap_ci, estimate, paired_difference, pass_at_k, sign_flip_p
from rlvr.evaluation.results import TaskResult
from rlvr.evaluation.run import EvalConfig, summarize, write_outputs


def closed_form(n: int, c: int, k: int) -> float:
    """Chen et al. 2021, eq. 1, with exact binomials."""
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def test_pass_at_k_matches_the_closed_form_on_small_cases() -> None:
    for n in range(1, 13):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert pass_at_k(n, c, k) == pytest.approx(closed_form(n, c, k), abs=1e-12)


def test_pass_at_k_worked_numbers() -> None:
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)  # pass@1 is the plain pass rate
    assert pass_at_k(10, 3, 5) == pytest.approx(1 - 21 / 252)  # C(7,5)/C(10,5)
    assert pass_at_k(8, 0, 8) == 0.0 and pass_at_k(8, 1, 8) == 1.0
    assert pass_at_k(200, 50, 100) == pytest.approx(closed_form(200, 50, 100))
    with pytest.raises(ValueError, match="pass@9 needs at least 9"):
        pass_at_k(8, 3, 9)


def test_bootstrap_interval_is_sane() -> None:
    assert bootstrap_ci([0.5] * 20) == (0.5, 0.5)
    rng = np.random.default_rng(1)
    x = rng.integers(0, 2, size=400).astype(float).tolist()
    lo, hi = bootstrap_ci(x)
    half = 1.96 * math.sqrt(0.25 / 400)  # normal approximation of a proportion
    assert lo < float(np.mean(x)) < hi
    assert abs((hi - lo) / 2 - half) < 0.01
    small = estimate(x[:25])
    assert small.ci95[1] - small.ci95[0] > hi - lo  # fewer tasks, wider interval
    assert estimate([]).mean is None and bootstrap_ci(x, seed=3) == bootstrap_ci(x, seed=3)


def test_paired_difference_and_sign_flip_test() -> None:
    same = paired_difference([0.2, 0.5, 0.9], [0.2, 0.5, 0.9])
    assert same.diff == 0.0 and same.p_value == 1.0 and same.ties == 3
    five = paired_difference([0.0] * 5, [1.0] * 5)
    assert five.p_value == pytest.approx(2 / 32) and "exact" in five.test
    assert five.ci95 == [1.0, 1.0] and five.better == 5
    many = paired_difference([0.0] * 40, [0.5] * 40)
    assert many.p_value == pytest.approx(1 / 20001) and "monte carlo" in many.test
    noise = np.random.default_rng(0).normal(0, 0.2, size=60)
    assert sign_flip_p(noise.tolist())[0] > 0.05  # no effect, no significance


def write_eval(folder: Path, values: dict[str, float], model: str) -> Path:
    config = EvalConfig(env="math", model=model, n=4, k=[1])
    results = [
        TaskResult(
            task_id=tid,
            n=4,
            n_scored=4,
            correct=round(v * 4),
            masked=0,
            mean_reward=v,
            pass_at={"pass@1": v},
        )
        for tid, v in values.items()
    ]
    folder.mkdir(parents=True)
    write_outputs(folder, summarize(config, results), results)
    return folder


def test_compare_prints_the_paired_difference_of_constructed_runs(tmp_path: Path) -> None:
    ids = [f"math/t{i}" for i in range(30)]
    a = write_eval(tmp_path / "a", {t: 0.25 for t in ids}, "before")
    b = write_eval(tmp_path / "b", {t: 0.25 + 0.5 * (i % 2) for i, t in enumerate(ids)}, "after")
    result = CliRunner().invoke(app, ["eval", "--compare", str(a), str(b), "--json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    assert got["diff"] == pytest.approx(0.25) and got["n_tasks"] == 30
    assert got["better"] == 15 and got["ties"] == 15
    assert got["p_value"] < 0.001 and 0.1 < got["ci95"][0] < 0.25 < got["ci95"][1]
    other = write_eval(tmp_path / "c", {"math/zzz": 1.0}, "elsewhere")
    bad = CliRunner().invoke(app, ["eval", "--compare", str(a), str(other)])
    assert bad.exit_code == 1 and "share no task" in str(bad.exception)


def test_eval_on_math_with_the_tiny_model_writes_everything_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "eval"
    argv = ["eval", "--env", "math", "--model", "tiny", "--n-tasks", "6", "-n", "2", "-k", "1,2"]
    argv += ["--max-new-tokens", "8", "--out", str(out)]
    first = CliRunner().invoke(app, argv)
    assert first.exit_code == 0, first.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["env"] == "math" and summary["split"] == "test" and summary["n_tasks"] == 6
    assert summary["n_samples"] == 2 and summary["masked"] == 0
    for key in ("pass@1", "pass@2"):
        lo, hi = summary[key]["ci95"]
        assert 0.0 <= lo <= summary[key]["mean"] <= hi <= 1.0
    assert "difficulty" in summary["breakdown"] or "family" in summary["breakdown"]
    rows = [json.loads(x) for x in (out / "per_task.jsonl").read_text().splitlines()]
    import rlvr

    test_ids = {t.id for t in rlvr.load_env("math").tasks_in("test")}
    assert len(rows) == 6 and {r["task_id"] for r in rows} <= test_ids
    assert (out / "report.png").read_bytes()[:4] == b"\x89PNG"
    assert "data:image/png;base64," in (out / "report.html").read_text()
    stored = (out / "groups.jsonl").read_text()
    again = CliRunner().invoke(app, argv)  # resumes: nothing left to sample
    assert again.exit_code == 0 and (out / "groups.jsonl").read_text() == stored
    changed = CliRunner().invoke(app, [*argv[:-1], str(out), "--temperature", "0.5"])
    assert changed.exit_code == 1 and "other settings" in str(changed.exception)


def test_eval_greedy_mode_and_its_errors(tmp_path: Path) -> None:
    base = ["eval", "--env", "math", "--model", "tiny", "--n-tasks", "3", "--max-new-tokens", "4"]
    greedy = CliRunner().invoke(
        app, [*base, "-n", "1", "--temperature", "0", "--out", str(tmp_path / "g"), "--json"]
    )
    assert greedy.exit_code == 0, greedy.output
    assert list(json.loads(greedy.stdout)) >= ["out", "pass@1"]
    twice = CliRunner().invoke(app, [*base, "-n", "2", "--temperature", "0", "--out", "x"])
    assert twice.exit_code == 1 and "use -n 1 for greedy" in str(twice.exception)
    big_k = CliRunner().invoke(app, [*base, "-n", "2", "-k", "4", "--out", "x"])
    assert big_k.exit_code == 1 and "raise -n or drop 4" in str(big_k.exception)


def test_eval_on_a_tasks_file_keeps_its_ids_within_the_split(tmp_path: Path) -> None:
    """--tasks evaluates a named slice (e.g. a validation slice of train); ids of the other
    split in the file are left out, and a file naming no task of the split is an error."""
    import rlvr

    env = rlvr.load_env("math")
    train = [t.id for t in env.tasks_in("train")][:3]
    test = [t.id for t in env.tasks_in("test")][:2]
    ids = tmp_path / "slice.jsonl"
    ids.write_text("".join(json.dumps({"id": i}) + "\n" for i in [*train, *test]))
    base = ["eval", "--env", "math", "--model", "tiny", "-n", "1", "--max-new-tokens", "4"]
    out = tmp_path / "val"
    done = CliRunner().invoke(
        app, [*base, "--split", "train", "--tasks", str(ids), "--out", str(out)]
    )
    assert done.exit_code == 0, done.output
    rows = [json.loads(x) for x in (out / "per_task.jsonl").read_text().splitlines()]
    assert sorted(r["task_id"] for r in rows) == sorted(train)
    only_test = tmp_path / "test.jsonl"
    only_test.write_text("".join(json.dumps({"id": i}) + "\n" for i in test))
    none = CliRunner().invoke(
        app, [*base, "--split", "train", "--tasks", str(only_test), "--out", str(tmp_path / "x")]
    )
    assert none.exit_code == 1 and str(only_test) in str(none.exception)


def test_training_evaluates_held_out_and_a_run_folder_is_a_model(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from learner_env import FAST, digit_env

    from rlvr.learners.config import LearnerConfig
    from rlvr.learners.run import train
    from rlvr.report import write_report

    env = digit_env(n=24)
    settings = {**FAST, "eval_tasks": 4, "eval_samples": 2, "eval_every": 2, "save_every": 0}
    seen: list[dict] = []
    run = train(
        LearnerConfig(**{**settings, "steps": 3}), tmp_path / "run", env, on_eval=seen.append
    )
    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    evals = [r for r in rows if "eval/pass@1" in r]
    assert [r["step"] for r in evals] == [0, 2, 3] and seen == evals
    for r in evals:
        assert r["eval/n_tasks"] == 4 and r["eval/samples"] == 2
        lo, hi = r["eval/pass@1_ci95"]
        assert 0.0 <= lo <= r["eval/pass@1"] <= hi <= 1.0
    train(LearnerConfig(**{**settings, "steps": 4}), tmp_path / "run", env)  # resume to 4
    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows if "eval/pass@1" in r] == [0, 2, 3, 4]
    assert "eval.png" in write_report(run).read_text() or (run / "eval.png").is_file()
    from rlvr.models import resolve_model

    assert resolve_model(str(run)).endswith("step-000004/policy")


@pytest.mark.parametrize("algo", ["ppo", "dpo"])
def test_ppo_and_dpo_evaluate_held_out_too(algo: str, tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from learner_env import FAST, digit_env

    from rlvr.learners.config import build_config
    from rlvr.learners.run import train

    settings = {k: v for k, v in FAST.items() if not (algo == "dpo" and k == "prompts_per_step")}
    cfg = build_config(
        {**settings, "algo": algo, "steps": 2, "eval_tasks": 4, "eval_samples": 2, "eval_every": 1}
    )
    run = train(cfg, tmp_path / "run", env=digit_env(n=24, const=4, flaky=4))
    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows if "eval/pass@1" in r] == [0, 1, 2]
    assert [r["step"] for r in rows if "eval/pass@1" not in r] == [1, 2]
