"""The README's main job, end to end on the tiny model (short)."""

import json
from dataclasses import replace

from rlvr.demo import MATH, STAGES, Stage, check_references, run_pipeline
from rlvr.registry import load_env
from rlvr.selection import select_tasks


def test_grader_check_passes_references_and_rejects_neighbours():
    result = check_references(load_env("math"), n_tasks=40)
    assert result.tasks == 40
    assert result.references_passed == 40
    assert result.neighbours_rejected >= 35  # neighbours share a gold only by chance
    assert result.masked == 0


def test_math_stage_trains_on_train_pairs_and_evaluates_unseen_pairs():
    env = load_env(MATH.env)
    train = {t.prompt for t in select_tasks(env, split="train")}
    test = select_tasks(env, split="test")
    assert MATH in STAGES and (MATH.eval_tasks is None or len(test) >= MATH.eval_tasks)
    assert not train & {t.prompt for t in test}  # a held-out pair is never a train prompt
    # every digit fact a held-out column answer needs appears in the train split
    facts = {(t.meta["family"], a, b) for t in select_tasks(env, split="train")
             for a, b in _digit_pairs(t.prompt)}  # fmt: skip
    assert all((t.meta["family"], a, b) in facts for t in test for a, b in _digit_pairs(t.prompt))


def _digit_pairs(prompt: str) -> list[tuple[str, str]]:
    """('What is 32 + 23?') -> [('3', '2'), ('2', '3')]: the tens and the units column."""
    a, _, b = prompt.removeprefix("What is ").removesuffix("?").split()
    return list(zip(a, b, strict=True))


SMALL = Stage(
    name="small",
    env="math",
    model="tiny-sft",
    title="math (easy), short",
    why="a test",
    steps=1,
    difficulty="easy",
    frontier_tasks=16,
    eval_tasks=None,
    eval_samples=2,
)


def test_pipeline_writes_frontier_run_held_out_evaluations_and_index(tmp_path):
    (result,), index = run_pipeline(tmp_path, stages=(SMALL,))
    f = result.frontier
    assert f["tasks"] == 16
    assert f["always_pass"] + f["always_fail"] + f["kept"] == 16
    assert result.run_dir == tmp_path / "small" / "grpo"
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
    page = index.read_text()
    assert index == tmp_path / "index.html"
    assert "frontier report" in page and "training report" in page
    assert "Held-out pass@1" in page and "small/grpo/eval.png" in page
    # a second stage gets its own folder and section of the same page
    (again, other), index = run_pipeline(tmp_path, stages=(SMALL, replace(SMALL, name="other")))
    assert again.after.pass_at == result.after.pass_at  # resumed, not retrained
    assert other.run_dir == tmp_path / "other" / "grpo"
    page = index.read_text()
    assert "id='small'" in page and "id='other'" in page and "other/grpo/eval.png" in page
