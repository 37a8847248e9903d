"""rlvr episodes in TRL 1.16's agent path: the environment class TRL drives, and a GRPO step
of the tiny model on repair-python through `GRPOTrainer(environment_factory=...)`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from rlvr.functions.task import FunctionTask
from rlvr.integrations.trl import to_hf_dataset
from rlvr.integrations.trl_episodes import environment_factory, episode_reward, trainer_kwargs
from rlvr.registry import load_env


def test_the_environment_class_exposes_the_tools_and_the_reward_judges_the_code() -> None:
    env = load_env("repair-python")
    cls = environment_factory(env)
    import inspect

    public = {n for n, _ in inspect.getmembers(cls, inspect.isfunction) if not n.startswith("_")}
    # no get_reward: TRL would judge before the model's text reached the session
    assert public == {"run_public_tests", "submit", "reset"}
    task = next(t for t in env.tasks_in("train") if t.reference)
    n = len(FunctionTask.model_validate(task.meta["function"]).public_cases)
    rollout = cls()
    assert rollout.reset(task_id=task.id) is None
    wrong = f"def {task.entry_point}(*args):\n    return None\n"
    assert rollout.run_public_tests(code=wrong).startswith(f"0 of {n} public examples pass")
    assert rollout.submit(code=task.reference) == "submitted"
    assert episode_reward([[]], [rollout]) == [1.0]
    again = cls()
    again.reset(task_id=task.id)
    again.run_public_tests(code=wrong)
    assert episode_reward([[]], [again]) == [0.0]  # the last code it ran is its answer


def _assistant(content: str, **calls: dict) -> dict:
    return {
        "role": "assistant",
        "content": content,
        "tool_calls": [
            {"type": "function", "function": {"name": k, "arguments": v}} for k, v in calls.items()
        ],
    }


def test_code_the_model_wrote_as_text_reaches_the_judge_in_order() -> None:
    """TRL shows an environment only the calls; the reward replays the text, as rlvr's loop
    reads it: each turn's last code block, then its calls' code arguments."""
    env = load_env("repair-python")
    task = next(t for t in env.tasks_in("train") if t.reference)
    wrong = f"def {task.entry_point}(*args):\n    return None\n"
    cls = environment_factory(env)

    def reward(messages: list[dict]) -> float | None:
        rollout = cls()
        rollout.reset(task_id=task.id)
        return episode_reward([messages], [rollout])[0]

    fixed = f"Here it is.\n```python\n{task.reference}\n```"
    assert reward([_assistant(fixed, submit={})]) == 1.0  # text only: no code argument
    assert (
        reward(
            [
                _assistant(fixed),
                {"role": "tool", "content": "ok"},
                _assistant("", submit={"code": wrong}),
            ]
        )
        == 0.0
    )  # a later argument wins
    assert (
        reward(
            [
                _assistant("", run_public_tests=json.dumps({"code": wrong})),
                {"role": "tool", "content": "0 pass"},
                _assistant(fixed, submit={}),
            ]
        )
        == 1.0
    )  # a later text wins (JSON arguments)
    # malformed calls (a model's runaway JSON, odd structures) are skipped, never raised
    for odd in ("abc", [None], ["submit"], [{"function": {}}], [{"function": "submit"}], 5,
                [{"function": {"name": "submit", "arguments": "[" * 1000}}]):  # fmt: skip
        message = {"role": "assistant", "content": fixed, "tool_calls": odd}
        assert reward([message]) == 1.0, odd
    kwargs = trainer_kwargs(env)
    assert kwargs["reward_funcs"] == [episode_reward] and kwargs["environment_factory"]
    terminal = trainer_kwargs(load_env("terminal"))
    assert "reward_funcs" not in terminal  # judged on the workspace: get_reward
    assert hasattr(terminal["environment_factory"], "get_reward")


def test_a_single_turn_environment_is_refused() -> None:
    from rlvr.errors import RlvrError

    with pytest.raises(RlvrError, match="single-turn"):
        environment_factory(load_env("synth-python"))


def test_grpo_trainer_steps_on_repair_episodes_through_trl(tmp_path: Path) -> None:
    from importlib.resources import files

    from transformers import AutoModelForCausalLM
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.tiny import load_tokenizer, tiny_dir

    env = load_env("repair-python")
    path = tiny_dir()
    model = AutoModelForCausalLM.from_pretrained(str(path))
    tokenizer = load_tokenizer(path)
    # TRL parses tool calls only for chat templates it knows: give the tiny model Qwen 3's
    tokenizer.chat_template = (files("trl") / "chat_templates" / "qwen3.jinja").read_text()
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    tasks = [t for t in env.tasks_in("train") if len(t.prompt) < 300][:2]
    args = GRPOConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=4,
        max_completion_length=12, max_steps=1, learning_rate=1e-3, bf16=False,
        gradient_checkpointing=False, report_to="none", use_vllm=False, logging_steps=1,
        save_strategy="no", use_cpu=True, seed=0, max_tool_calling_iterations=2,
    )  # fmt: skip
    trainer = GRPOTrainer(
        model=model,
        train_dataset=to_hf_dataset(env, tasks),
        args=args,
        processing_class=tokenizer,
        **trainer_kwargs(env),
    )
    trainer.train()
    rewards = [h for h in trainer.state.log_history if any("episode_reward" in k for k in h)]
    assert rewards, trainer.state.log_history
    assert any(not torch.equal(before[n], p.detach()) for n, p in model.named_parameters()) or all(
        h.get("loss", 0.0) == 0.0 for h in trainer.state.log_history
    )


def test_a_masked_verdict_reaches_trl_as_none_with_its_reason_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """TRL drops a None reward silently; rlvr says once why the verdict was masked."""
    from rlvr.registry import env_from_manifest

    task = tmp_path / "tasks" / "image-not-here"
    (task / "tests").mkdir(parents=True)
    (task / "instruction.md").write_text("Do nothing.\n")
    (task / "tests" / "test.sh").write_text("echo 1 > /logs/verifier/reward.txt\n")
    (task / "task.toml").write_text(
        '[environment]\ndocker_image = "registry.example/never-here-rlvr-trl:1"\n'
    )
    manifest = (Path(__file__).parents[1] / "envs" / "harbor-examples" / "env.toml").read_text()
    folder = tmp_path / "env"
    folder.mkdir()
    (folder / "env.toml").write_text(
        manifest.replace(
            'args = { path = "harbor" }', f'args = {{ path = "{tmp_path / "tasks"}" }}'
        ).replace('dockerfile = "../terminal/Dockerfile"\n', "")
    )
    env = env_from_manifest(folder)
    rollout = environment_factory(env)()
    rollout.reset(task_id="image-not-here")
    assert rollout.get_reward() is None
    said = capsys.readouterr().err
    assert "image-not-here" in said and "masked (grader_error" in said and "rlvr sandbox" in said
