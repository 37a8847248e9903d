"""The README's main job, end to end on the tiny model (short)."""

import json

from rlvr.demo import check_references, run_pipeline
from rlvr.registry import load_env


def test_grader_check_passes_references_and_rejects_neighbours():
    result = check_references(load_env("math"), n_tasks=40)
    assert result.tasks == 40
    assert result.references_passed == 40
    assert result.neighbours_rejected >= 35  # neighbours share a gold only by chance
    assert result.masked == 0


def test_pipeline_writes_frontier_run_held_out_evaluations_and_index(tmp_path):
    result = run_pipeline(tmp_path, steps=1, n_tasks=8, eval_samples=2)
    f = result.frontier
    assert f["tasks"] == 8
    assert f["always_pass"] + f["always_fail"] + f["kept"] == 8
    metrics = [json.loads(x) for x in (result.run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics if "eval/pass@1" not in m] == [1]
    assert [m["step"] for m in metrics if "eval/pass@1" in m] == [0, 1]  # before and after
    assert result.reward_first is not None and 0.0 <= result.reward_first <= 1.0
    assert "answers" in result.flag_counts
    test_easy = [t for t in load_env("math").tasks_in("test") if t.meta.get("difficulty") == "easy"]
    for summary in (result.before, result.after):
        assert summary.split == "test" and summary.n_tasks == len(test_easy)
        lo, hi = summary.pass_at["pass@1"].ci95
        assert 0.0 <= lo <= summary.pass_at["pass@1"].mean <= hi <= 1.0
    assert result.after.model_path.endswith("step-000001/policy")
    assert result.paired.n_tasks == len(test_easy) and 0.0 < result.paired.p_value <= 1.0
    page = result.index.read_text()
    assert "frontier report" in page and "training report" in page
    assert "Held-out pass@1" in page and "grpo/eval.png" in page
