"""bench/agent_pipeline.py's parts that run in seconds: the served teacher on loopback (structured
`tool_calls`, as OpenAI or vLLM send them) and the disjoint task slices of its stages."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from typer.testing import CliRunner

from rlvr.cli import app

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import agent_pipeline  # noqa: E402
from teacher_server import TeacherServer, structured  # noqa: E402


def test_the_served_teacher_answers_with_structured_calls_that_rollout_reads(
    tmp_path: Path,
) -> None:
    out = tmp_path / "served.jsonl"
    with TeacherServer(["repair-python"]) as server:
        result = CliRunner().invoke(app, ["rollout", "-e", "repair-python", "-m", server.url,
                                          "-G", "1", "--n-tasks", "2", "-o", str(out)])  # fmt: skip
        assert result.exit_code == 0, result.output
        stats = dict(server.stats)
    groups = [json.loads(x) for x in out.read_text().splitlines()]
    assert [v["reward"] for g in groups for v in g["verdicts"]] == [1.0, 1.0]
    # every request offered the tools; each public-test result came back as a `tool` message
    assert stats["requests"] == 4 and stats["with_tools"] == 4 and stats["unknown_prompt"] == 0
    assert stats["tool_messages"] == 2


def test_structured_turns_keep_the_text_and_the_calls_apart() -> None:
    turn = 'Fixed.\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>'
    message = structured(turn, 3)
    assert message["content"] == "Fixed."
    [call] = message["tool_calls"]
    assert call["id"] == "call_3_0" and call["function"]["name"] == "bash"
    assert json.loads(call["function"]["arguments"]) == {"command": "ls"}


def test_the_stages_draw_disjoint_train_slices(tmp_path: Path) -> None:
    budget = agent_pipeline.Budget(
        reference_tasks=5, served_tasks=3, grpo_tasks=4, terminal_tasks=2
    )
    paths = agent_pipeline.Pipeline(tmp_path, budget).slices()
    ids = {k: [json.loads(x)["id"] for x in p.read_text().splitlines()] for k, p in paths.items()}
    assert [len(ids[k]) for k in ("reference", "served", "grpo", "terminal")] == [5, 3, 4, 2]
    repair = ids["reference"] + ids["served"] + ids["grpo"]
    assert len(set(repair)) == len(repair)
    import rlvr

    train = {t.id for t in rlvr.load_env("repair-python").tasks_in("train")}
    assert set(repair) <= train
