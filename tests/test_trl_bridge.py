"""rlvr rewards and datasets inside TRL 1.16: signature, masking, and real trainer steps on CPU."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
from learner_env import digit_env

from rlvr.errors import RlvrError
from rlvr.integrations.trl import completion_text, reward_funcs, to_dpo_dataset, to_hf_dataset
from rlvr.types import Sample, ScoredGroup, Verdict

pytest.importorskip("trl", exc_type=ModuleNotFoundError)  # broken installs must fail


def test_reward_function_grades_per_task_and_masks_failures() -> None:
    env = digit_env(n=2, flaky=1)
    (reward,) = reward_funcs(env)
    logged: dict[str, float] = {}
    out = reward(
        prompts=["p"] * 6,
        completions=["a1", "none", "x", "7", "b", "c"],
        task_id=["t0", "t0", "flaky0", "flaky0", "t1", "nope"],
        log_metric=lambda k, v: logged.__setitem__(k, v),
        trainer_state=None,
    )
    # flaky0's first answer timed out: None (TRL masks it); an unknown task id is masked too.
    assert out == [1.0, 0.0, None, 1.0, 0.0, None]
    assert reward.__name__ == "rlvr_digits"
    assert logged == {"rlvr_digits/masked_frac": pytest.approx(2 / 6)}


def test_reward_function_reads_chat_completions_and_needs_task_ids() -> None:
    (reward,) = reward_funcs(digit_env(n=1))
    chat = [[{"role": "assistant", "content": "it is 3"}]]
    assert reward(prompts=["p"], completions=chat, task_id=["t0"]) == [1.0]
    assert completion_text([{"role": "assistant", "content": "a"}, {"content": "b"}]) == "ab"
    with pytest.raises(RlvrError, match="no 'task_id' column"):
        reward(prompts=["p"], completions=["1"])


def test_datasets_have_prompt_and_task_id_columns() -> None:
    env = digit_env(n=3)
    chat = to_hf_dataset(env)
    assert chat.column_names == ["prompt", "task_id"] and chat[1]["task_id"] == "t1"
    assert chat[0]["prompt"] == [{"role": "user", "content": "What is 0 + 1?"}]
    assert to_hf_dataset(env, conversational=False)[0]["prompt"] == "What is 0 + 1?"


def test_dpo_dataset_pairs_best_against_worst() -> None:
    env = digit_env(n=2)
    samples = [Sample(task_id="t0", index=i, text=t) for i, t in enumerate(["no", "7", "x"])]
    verdicts = [Verdict.reject("no digit"), Verdict.score(1.0), Verdict.reject("no digit")]
    groups = [ScoredGroup(env="digits", task_id="t0", samples=samples, verdicts=verdicts)]
    ds = to_dpo_dataset(groups, env, conversational=False)
    assert ds[0]["chosen"] == "7" and ds[0]["rejected"] == "no" and ds[0]["task_id"] == "t0"
    with pytest.raises(RlvrError, match="no preference pair"):
        to_dpo_dataset(groups, env, min_margin=2.0)


def test_two_grpo_trainer_steps_with_rlvr_rewards_on_cpu(tmp_path: Path) -> None:
    from transformers import AutoModelForCausalLM
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.tiny import load_tokenizer, tiny_dir

    path = tiny_dir()
    model = AutoModelForCausalLM.from_pretrained(str(path))
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    args = GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=4,
        num_generations=4,
        max_completion_length=12,
        max_steps=2,
        learning_rate=1e-3,
        bf16=False,
        gradient_checkpointing=False,
        report_to="none",
        use_vllm=False,
        logging_steps=1,
        save_strategy="no",
        use_cpu=True,
        seed=0,
    )
    trainer = GRPOTrainer(
        model=model,
        reward_funcs=reward_funcs(digit_env()),
        train_dataset=to_hf_dataset(digit_env()),
        args=args,
        processing_class=load_tokenizer(path),
    )
    trainer.train()
    logs = [h for h in trainer.state.log_history if "rewards/rlvr_digits/mean" in h]
    assert len(logs) == 2 and all(0.0 <= h["rewards/rlvr_digits/mean"] <= 1.0 for h in logs)
    assert any(not torch.equal(before[n], p.detach()) for n, p in model.named_parameters())
