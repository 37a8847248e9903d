"""Distillation: teacher episodes collected as usual, only the judged-passed ones kept, and the
student trained on its own turns with every environment token masked."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.distil import IGNORE, encode_episode, verified_episodes
from rlvr.env import Environment
from rlvr.episodes.run import episode_ids
from rlvr.models import resolve_model
from rlvr.registry import load_env
from rlvr.types import Task


def call(name: str, **args: object) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": args}) + "</tool_call>"


def teacher(task: Task) -> list[dict]:
    """A teacher that solves the task after one look at the public tests, and one that
    submits broken code (which the judge fails, so it is never trained on)."""
    fixed = f"```python\n{task.reference}\n```\n"
    return [
        {"task_id": task.id, "turns": [fixed + call("run_public_tests"), call("submit")]},
        {"task_id": task.id, "turns": ["```python\ndef nothing(:\n```\n" + call("submit")]},
    ]


def teacher_groups(tmp_path: Path) -> tuple[Environment, list[Task], Path, Path]:
    """Both teachers' episodes on the two shortest repair-python train tasks, collected with
    `rlvr rollout` as a user would: (env, tasks, replay file, groups file)."""
    env = load_env("repair-python")
    tasks = sorted((t for t in env.tasks_in("train") if t.reference), key=lambda t: len(t.prompt))
    chosen = tasks[:2]
    replay = tmp_path / "teacher.jsonl"
    replay.write_text("".join(json.dumps(x) + "\n" for t in chosen for x in teacher(t)))
    (tmp_path / "tasks.jsonl").write_text("".join(t.model_dump_json() + "\n" for t in chosen))
    groups = tmp_path / "groups.jsonl"
    result = CliRunner().invoke(app, ["rollout", "-e", env.name, "-m", f"replay:{replay}", "-G",
                                      "2", "--tasks", str(tmp_path / "tasks.jsonl"), "-o",
                                      str(groups)])  # fmt: skip
    assert result.exit_code == 0, result.output
    return env, chosen, replay, groups


def test_sft_on_verified_teacher_episodes_masks_the_environment(tmp_path: Path, capsys) -> None:
    env, chosen, replay, groups = teacher_groups(tmp_path)
    runner = CliRunner()

    kept = verified_episodes(groups, env)
    assert "left out 2 episodes below --min-reward 1.0" in capsys.readouterr().err
    # what is no teacher is counted, never silently dropped or kept
    rows = [json.loads(x) for x in groups.read_text().splitlines()]
    odd = [{**rows[0], "env": "math"}, {**rows[0], "task_id": "no/such-task"}]
    for reward, passed in ((float("nan"), True), (1.0, False)):
        verdict = {**rows[1]["verdicts"][0], "reward": reward, "passed": passed}
        odd.append({**rows[1], "verdicts": [verdict, *rows[1]["verdicts"][1:]]})
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("".join(json.dumps(r) + "\n" for r in odd) + json.dumps(rows[0])[:50])
    assert verified_episodes(mixed, env) == []
    said = capsys.readouterr().err
    for needle in (
        "2 of environment 'math'",
        "2 of tasks 'repair-python' does not have",
        "1 episodes with a non-finite reward",
        "the judge failed despite",
        "1 torn last line",
    ):
        assert needle in said, said
    twice = tmp_path / "twice.jsonl"  # the same rollout appended twice: still best-of per task
    twice.write_text(groups.read_text() * 2)
    assert [t.id for t, _ in verified_episodes(twice, env)] == [t.id for t, _ in kept]
    backwards = tmp_path / "backwards.jsonl"  # grading order sets the file's: not the student
    backwards.write_text("".join(reversed(groups.read_text().splitlines(keepends=True))))
    assert verified_episodes(backwards, env) == kept
    assert sorted(t.id for t, _ in kept) == sorted(t.id for t in chosen)  # the passed one each
    assert all(len(s.episode.turns) == 2 for _, s in kept)  # type: ignore[union-attr]
    # the loss goes exactly where the learners put it: the model's tokens, not the tool's
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(resolve_model("tiny"))
    task, sample = kept[0]
    ids, labels = encode_episode(tokenizer, env, task, sample, 10**6)
    prompt, episode, mask = episode_ids(tokenizer, env.messages(task), sample.episode)  # type: ignore[arg-type]
    assert ids == prompt + episode and 0 < sum(mask) < len(mask)  # tool results are masked
    assert sum(x != IGNORE for x in labels) == sum(mask)
    trained = [t for t, label in zip(ids, labels, strict=True) if label != IGNORE]
    assert trained == [t for t, m in zip(episode, mask, strict=True) if m]

    full = [encode_episode(tokenizer, env, t, s, 10**6) for t, s in kept]
    out = tmp_path / "student"
    args = ["sft", "-e", env.name, "--episodes", str(groups), "--model", "tiny"]
    result = runner.invoke(app, [*args, "--steps", "2", "--batch-size", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout.strip().splitlines()[-1])
    assert record["episodes"] == 2 and record["tasks"] == 2 and record["tokens_trained"] > 0
    # tiny's 512 positions cut these episodes: said and counted, never silent
    assert record["episodes_cut"] == sum(len(i) > 512 for i, _ in full)
    assert (record["episodes_cut"] > 0) == ("were cut there" in result.output)
    saved = json.loads((out / "sft.json").read_text())
    assert saved["episodes_file"] == str(groups) and (out / "config.json").exists()

    # a replay file is a teacher, not a student: the error says what to run instead
    bad = runner.invoke(app, ["sft", "-e", env.name, "--model", f"replay:{replay}", "--out",
                              str(tmp_path / "x")])  # fmt: skip
    said = bad.output + str(bad.exception)
    assert bad.exit_code != 0 and "rlvr rollout" in said and "--episodes" in said
    # no passing episode: a clear error, nothing trained
    none = runner.invoke(app, [*args, "--min-reward", "2", "--out", str(tmp_path / "y")])
    assert none.exit_code != 0 and "lower --min-reward" in none.output + str(none.exception)


def test_exported_episodes_train_in_trls_sfttrainer_on_the_same_tokens(tmp_path: Path) -> None:
    """`rlvr sft --episodes --export`: the verified episodes as a chat dataset. Rendered by
    SmolLM2's tool template, a row is token for token what `rlvr sft --episodes` trains on
    (plus the template's closing newline), and TRL's SFTTrainer trains on it (assistant turns
    only)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from trl import SFTConfig, SFTTrainer

    from datasets import load_dataset
    from rlvr.policies.tool_template import with_tool_template

    env, _, _, groups = teacher_groups(tmp_path)
    rows = tmp_path / "rows.jsonl"
    runner = CliRunner()
    result = runner.invoke(app, ["sft", "-e", env.name, "--episodes", str(groups), "--export",
                                 "--out", str(rows)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {"export": str(rows), "rows": 2,
                                                                  "tasks": 2}  # fmt: skip
    # an export never overwrites a file: least of all the scored groups it reads
    for target in (rows, groups):
        again = runner.invoke(app, ["sft", "-e", env.name, "--episodes", str(groups), "--export",
                                    "--out", str(target)])  # fmt: skip
        assert again.exit_code != 0 and "would overwrite" in str(again.exception)
    assert json.loads(groups.read_text().splitlines()[0])["env"] == env.name
    # held-out episodes never reach a student: --split, --tasks, --n-tasks choose the tasks
    first = tmp_path / "first.jsonl"
    first.write_text((tmp_path / "tasks.jsonl").read_text().splitlines()[0] + "\n")
    export = ["sft", "-e", env.name, "--episodes", str(groups), "--export"]
    one = runner.invoke(app, [*export, "--tasks", str(first), "--out", str(tmp_path / "1.jsonl")])
    assert json.loads(one.stdout.strip().splitlines()[-1])["rows"] == 1
    assert "outside the chosen ones" in one.output
    held = tmp_path / "held.jsonl"
    test = runner.invoke(app, ["sft", "-e", env.name, "--episodes", str(groups), "--export",
                               "--split", "test", "--out", str(held)])  # fmt: skip
    assert test.exit_code != 0 and not held.exists()
    # a file appended twice: best-of 5 still takes each episode once
    twice = tmp_path / "twice.jsonl"
    twice.write_text(groups.read_text() * 2)
    assert len(verified_episodes(twice, env, best_of=5)) == 2

    path = resolve_model("smollm2-135m")
    tokenizer = AutoTokenizer.from_pretrained(path)
    assert with_tool_template(tokenizer)
    row = json.loads(rows.read_text().splitlines()[0])
    assert [m["role"] for m in row["messages"]][-1] == "assistant"
    assert "tool" in [m["role"] for m in row["messages"]]
    task, sample = next((t, s) for t, s in verified_episodes(groups, env) if t.id == row["task_id"])
    prompt, episode, _ = episode_ids(tokenizer, env.messages(task), sample.episode)  # type: ignore[arg-type]
    rendered = tokenizer.apply_chat_template(row["messages"], tokenize=False)
    theirs = tokenizer(rendered, add_special_tokens=False)["input_ids"]
    ours = prompt + episode
    assert theirs[: len(ours)] == ours and tokenizer.decode(theirs[len(ours) :]) == "\n"

    # one SFTTrainer step (the tiny model, its characters in the same template: a step of
    # SmolLM2 takes minutes on two cores), on the last 512 positions of each episode
    from rlvr.policies.tool_template import chatml_tool_template

    tiny = resolve_model("tiny")
    model = AutoModelForCausalLM.from_pretrained(tiny)
    small = AutoTokenizer.from_pretrained(tiny)
    small.chat_template = chatml_tool_template()
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    args = SFTConfig(output_dir=str(tmp_path / "trl"), max_steps=1, per_device_train_batch_size=2,
                     learning_rate=1e-3, assistant_only_loss=True, use_cpu=True,
                     report_to="none", save_strategy="no", logging_steps=1, max_length=512,
                     truncation_mode="keep_end", gradient_checkpointing=False)  # fmt: skip
    dataset = load_dataset("json", data_files=str(rows), split="train")
    trainer = SFTTrainer(model=model, args=args, train_dataset=dataset, processing_class=small)
    trainer.train()
    assert any(not torch_equal(before[n], p.detach()) for n, p in model.named_parameters())


def torch_equal(a, b) -> bool:  # type: ignore[no-untyped-def]
    import torch

    return bool(torch.equal(a, b))
