"""`rlvr rollout`, `train` (GRPO, RLOO, PPO, offline and live) and `eval` on the terminal
environment, against real Docker, with a scripted (replay) policy and the tiny model."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.registry import load_env


def call(name: str, **args: object) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": args}) + "</tool_call>"


def scripts(task_id: str, reference: str) -> list[dict]:
    solve = {"task_id": task_id, "turns": [call("bash", command=reference), call("submit")]}
    give_up = {"task_id": task_id, "turns": [call("bash", command="ls"), "I give up."]}
    return [solve, give_up]


def test_rollout_train_and_eval_on_terminal_episodes(tmp_path: Path) -> None:
    runner = CliRunner()
    env = load_env("terminal")
    train_task = env.task("count-error-lines")
    test_task = env.task("git-revert-bad-commit")
    assert train_task in env.tasks_in("train") and test_task in env.tasks_in("test")
    replay = tmp_path / "episodes.jsonl"
    lines = scripts(train_task.id, train_task.reference or "")
    replay.write_text("".join(json.dumps(x) + "\n" for x in lines))
    chosen = tmp_path / "tasks.jsonl"
    chosen.write_text(train_task.model_dump_json() + "\n")
    store = tmp_path / "groups.jsonl"
    result = runner.invoke(app, ["rollout", "-e", "terminal", "-m", f"replay:{replay}",
                                 "-o", str(store), "-G", "2", "--tasks", str(chosen)])  # fmt: skip
    assert result.exit_code == 0, result.output
    [group] = [json.loads(x) for x in store.read_text().splitlines()]
    assert [v["reward"] for v in group["verdicts"]] == [1.0, 0.0]

    for algo in ("grpo", "rloo", "ppo"):
        run = tmp_path / f"run-{algo}"
        result = runner.invoke(app, [
            "train", "-e", "terminal", "--model", "tiny", "--algo", algo, "--out", str(run),
            "--set", f'groups_file="{store}"', "--set", "steps=1", "--set", "prompts_per_step=1",
            "--set", "group_size=2", "--set", "save_every=0", "--set", "eval_tasks=0",
            "--set", "micro_batch_size=2",
        ])  # fmt: skip
        assert result.exit_code == 0, (algo, result.output)
        row = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()][-1]
        assert row["turns_mean"] == 2.0 and row["grad_norm"] > 0
        assert row["valid_call_frac"] == 1.0 and row["no_call_frac"] == 0.5  # "I give up."

    # live: the tiny model's own episodes, sampled and judged in their containers
    run = tmp_path / "run-live"
    result = runner.invoke(app, [
        "train", "-e", "terminal", "--model", "tiny", "--algo", "grpo", "--out", str(run),
        "--tasks", str(chosen),  # a short instruction: the tiny model has 512 positions
        "--set", "steps=1", "--set", "prompts_per_step=1", "--set", "group_size=2",
        "--set", "save_every=0", "--set", "eval_tasks=0", "--set", "max_new_tokens=16",
        "--set", "micro_batch_size=2",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    row = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()][-1]
    assert row["masked_frac"] == 0.0 and row["turns_mean"] >= 1.0

    (tmp_path / "test_tasks.jsonl").write_text(test_task.model_dump_json() + "\n")
    lines = scripts(test_task.id, test_task.reference or "")
    replay.write_text("".join(json.dumps(x) + "\n" for x in lines))
    out = tmp_path / "eval"
    result = runner.invoke(app, [
        "eval", "-e", "terminal", "-m", f"replay:{replay}", "-n", "2", "--out", str(out),
        "--tasks", str(tmp_path / "test_tasks.jsonl"), "--json",
    ])  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["pass@1"]["mean"] == 0.5 and summary["episodes"]["turns_mean"] == 2.0
    assert summary["episodes"]["valid_call_frac"] == 1.0
    assert summary["episodes"]["ends"] == {"no_call": 1, "submit": 1}
    report = (out / "report.html").read_text()
    assert "tool_call" in report or "bash" in report
