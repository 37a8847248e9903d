"""repair-<stack> episodes against the real Docker sandbox: public feedback, hidden judging,
and `rlvr rollout`, `train` and `eval` on episodes with a scripted (replay) policy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.episodes.run import EpisodeRunner
from rlvr.functions.task import FunctionTask
from rlvr.policies.base import SamplingConfig
from rlvr.policies.replay import ReplayPolicy
from rlvr.registry import load_env
from rlvr.types import Task

FENCES = {"python": "python", "javascript": "javascript", "go": "go", "rust": "rust"}


def call(name: str, **args: object) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": args}) + "</tool_call>"


def first_train_task(env_name: str) -> Task:
    env = load_env(env_name)
    return next(t for t in env.tasks_in("train") if t.reference)


def scripts(task: Task, fence: str) -> list[dict]:
    """Episode 0 runs broken code, reads the failure, fixes it, submits: it must pass. Episode
    1 submits broken code at once: it must fail. Episode 2 never calls a tool."""
    broken = f"```{fence}\nthis is not a program {{\n```\n"
    fixed = f"Fixed.\n```{fence}\n{task.reference}\n```\n"
    return [
        {
            "task_id": task.id,
            "turns": [
                broken + call("run_public_tests"),
                fixed + call("run_public_tests"),
                call("submit"),
            ],
        },
        {"task_id": task.id, "turns": [broken + call("submit")]},
        {"task_id": task.id, "turns": ["I cannot do this."]},
    ]


@pytest.mark.parametrize("stack", ["python", "javascript", "go", "rust"])
def test_repair_episode_sees_public_failures_and_is_judged_on_hidden_cases(
    stack: str, tmp_path: Path
) -> None:
    env = load_env(f"repair-{stack}")
    task = first_train_task(env.name)
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in scripts(task, FENCES[stack])))
    [group] = EpisodeRunner(env, ReplayPolicy(path)).run([task], 3, SamplingConfig())
    verdicts = env.grade(task, [r.sample.text for r in group])
    assert [v.reward for v in verdicts] == [1.0, 0.0, 0.0], [v.reason for v in verdicts]
    fixer = group[0].sample.episode
    assert fixer is not None and fixer.end == "submit" and len(fixer.turns) == 3
    failed, passed = fixer.turns[0].observations[0], fixer.turns[1].observations[0]
    assert failed.tool == "run_public_tests" and "failed before any example ran" in failed.content
    n_public = len(FunctionTask.model_validate(task.meta["function"]).public_cases)
    assert passed.content.startswith(f"{n_public} of {n_public} public examples pass")
    assert group[2].sample.episode is not None and group[2].sample.episode.end == "no_call"


def test_public_feedback_shows_failing_public_cases_and_never_a_hidden_one(
    tmp_path: Path,
) -> None:
    env = load_env("repair-python")
    task = first_train_task(env.name)
    ftask = FunctionTask.model_validate(task.meta["function"])
    name = task.entry_point
    wrong = f"```python\ndef {name}(*args):\n    return None\n```\n" + call("run_public_tests")
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps({"task_id": task.id, "turns": [wrong]}) + "\n")
    [[result]] = EpisodeRunner(env, ReplayPolicy(path)).run([task], 1, SamplingConfig())
    episode = result.sample.episode
    assert episode is not None and episode.end == "no_call" and len(episode.turns) == 2
    shown = episode.turns[0].observations[0].content
    n = len(ftask.public_cases)
    assert shown.startswith(f"0 of {n} public examples pass")
    assert shown.count(f"- {name}(") == min(n, 8)
    for case in ftask.hidden_cases:
        args = ", ".join(json.dumps(a) for a in case.args)
        if all(args != ", ".join(json.dumps(a) for a in p.args) for p in ftask.public_cases):
            assert f"{name}({args})" not in shown


@pytest.mark.parametrize("stack", ["python", "javascript", "go", "rust"])
def test_rollout_train_and_eval_run_on_repair_episodes(stack: str, tmp_path: Path) -> None:
    """Every stack: rollout, GRPO, RLOO and PPO from the stored episodes, eval."""
    runner = CliRunner()
    env = load_env(f"repair-{stack}")
    tasks = [t for t in env.tasks_in("train") if t.reference][:2]
    lines = []
    for task in tasks:
        lines += scripts(task, FENCES[stack])[:2] * 2  # 4 episodes: 2 pass, 2 fail
    replay = tmp_path / "episodes.jsonl"
    replay.write_text("".join(json.dumps(x) + "\n" for x in lines))
    chosen = tmp_path / "tasks.jsonl"
    chosen.write_text("".join(t.model_dump_json() + "\n" for t in tasks))
    store = tmp_path / "groups.jsonl"
    args = ["rollout", "-e", env.name, "-m", f"replay:{replay}", "-o", str(store)]
    result = runner.invoke(app, [*args, "-G", "4", "--tasks", str(chosen)])
    assert result.exit_code == 0, result.output
    groups = [json.loads(x) for x in store.read_text().splitlines()]
    assert len(groups) == 2
    assert [v["reward"] for v in groups[0]["verdicts"]] == [1.0, 0.0, 1.0, 0.0]
    assert all(s["episode"]["turns"] for g in groups for s in g["samples"])

    for algo in ("grpo", "rloo", "ppo"):
        run = tmp_path / f"run-{algo}"
        result = runner.invoke(app, [
            "train", "-e", env.name, "--model", "tiny", "--algo", algo, "--out", str(run),
            "--set", f"groups_file=\"{store}\"", "--set", "steps=1", "--set", "prompts_per_step=2",
            "--set", "group_size=4", "--set", "save_every=0", "--set", "eval_tasks=0",
            "--set", "micro_batch_size=4",
        ])  # fmt: skip
        assert result.exit_code == 0, (algo, result.output)
        rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
        assert rows[-1]["turns_mean"] == pytest.approx(2.0)
        assert rows[-1]["submitted_frac"] == 1.0 and rows[-1]["grad_norm"] > 0

    test_task = next(t for t in env.tasks_in("test") if t.reference)
    (tmp_path / "test_tasks.jsonl").write_text(test_task.model_dump_json() + "\n")
    replay.write_text("".join(json.dumps(x) + "\n" for x in scripts(test_task, FENCES[stack])[:2]))
    out = tmp_path / "eval"
    result = runner.invoke(app, [
        "eval", "-e", env.name, "-m", f"replay:{replay}", "-n", "2", "--out", str(out),
        "--tasks", str(tmp_path / "test_tasks.jsonl"), "--json",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["pass@1"]["mean"] == 0.5
    ep = summary["episodes"]
    assert ep["turns_mean"] == 2.0 and ep["tool_error_rate"] == 0.0
    assert ep["pass@1_by_turns"]["2"]["mean"] == 0.0 and ep["pass@1_by_turns"]["3"]["mean"] == 0.5
    assert ep["valid_call_frac"] == 1.0  # both scripted episodes call a tool
    page = (out / "report.html").read_text()
    assert "episodes with a valid call</td><td>1.000" in page
    assert "episodes with a call the tool carried out</td><td>1.000" in page  # none refused
    assert ep["pass@1_after_retry"]["mean"] == 0.0  # no repair tool turns an answer down
