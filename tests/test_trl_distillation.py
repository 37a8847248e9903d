"""TRL's own on-policy distillation on an rlvr environment: `to_hf_dataset` is the prompt dataset
TRL 1.16's `DistillationTrainer` takes (the student samples, a teacher sharing its vocabulary
scores every token, a generalized JSD between them). Episodes do not fit it: it takes
standalone tools, with no per-rollout environment to reset and judge (rlvr's own learners
distil on episodes: rlvr/learners/teacher.py)."""

from __future__ import annotations

from pathlib import Path


def test_distillation_trainer_steps_on_an_rlvr_prompt_dataset(tmp_path: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM
    from trl import DistillationConfig, DistillationTrainer

    from rlvr.integrations.trl import to_hf_dataset
    from rlvr.registry import load_env
    from rlvr.tiny import load_tokenizer, tiny_dir

    env = load_env("math")
    student = AutoModelForCausalLM.from_pretrained(str(tiny_dir()))
    teacher = AutoModelForCausalLM.from_pretrained(str(tiny_dir(seed=1)))  # same vocabulary
    tokenizer = load_tokenizer(tiny_dir())
    tokenizer.padding_side = "left"
    before = {n: p.detach().clone() for n, p in student.named_parameters()}
    dataset = to_hf_dataset(env, env.tasks_in("train")[:4])
    assert "prompt" in dataset.column_names
    args = DistillationConfig(
        output_dir=str(tmp_path), per_device_train_batch_size=2, max_completion_length=8,
        max_steps=1, learning_rate=1e-3, use_cpu=True, bf16=False, report_to="none",
        save_strategy="no", logging_steps=1, seed=0,
    )  # fmt: skip
    trainer = DistillationTrainer(model=student, teacher_model=teacher, args=args,
                                  train_dataset=dataset, processing_class=tokenizer)  # fmt: skip
    trainer.train()
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert losses and all(loss == loss for loss in losses)  # a finite divergence was trained on
    assert any(not torch.equal(before[n], p.detach()) for n, p in student.named_parameters())
