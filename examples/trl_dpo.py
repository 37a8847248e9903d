"""TRL's DPOTrainer on preference pairs built from rlvr's scored groups.

    python examples/trl_dpo.py --env math --model tiny-sft --tasks 64 --steps 20 --out runs/trl-dpo

rlvr samples G answers per task with the starting policy and grades them; the best scored answer
of each group is `chosen`, the worst `rejected` (groups with no reward difference give no pair).
"""

from __future__ import annotations

import argparse

import torch
from transformers import AutoModelForCausalLM
from trl import DPOConfig, DPOTrainer

import rlvr
from rlvr.integrations.trl import to_dpo_dataset
from rlvr.models import make_policy, resolve_model
from rlvr.policies.base import SamplingConfig
from rlvr.policies.hf import load_tokenizer
from rlvr.rollout import RolloutConfig, score_tasks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--env", default="math")
    ap.add_argument("--model", default="tiny-sft")
    ap.add_argument("--difficulty", default="easy", help="keep tasks of this meta difficulty")
    ap.add_argument("--tasks", type=int, default=64, help="tasks to sample pairs from")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default="runs/trl-dpo")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    env = rlvr.load_env(args.env)
    tasks = [
        t for t in env.tasks() if not args.difficulty or t.meta.get("difficulty") == args.difficulty
    ]
    rollout = RolloutConfig(g=8, sampling=SamplingConfig(max_new_tokens=48, seed=0))
    groups = score_tasks(env, make_policy(args.model, device="cpu"), tasks[: args.tasks], rollout)
    dataset = to_dpo_dataset(groups, env, min_margin=0.5)
    print(f"{len(dataset)} preference pairs from {len(groups)} groups")

    path = resolve_model(args.model)
    config = DPOConfig(
        output_dir=args.out,
        max_steps=args.steps,
        per_device_train_batch_size=8,
        learning_rate=5e-5,
        beta=0.1,
        bf16=False,
        gradient_checkpointing=False,
        use_cpu=True,
        report_to="none",
        logging_steps=1,
        save_strategy="no",
    )
    trainer = DPOTrainer(
        model=AutoModelForCausalLM.from_pretrained(path),
        args=config,
        train_dataset=dataset.remove_columns(["task_id", "margin"]),
        processing_class=load_tokenizer(path),
    )
    trainer.train()
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    print(f"loss per step: {[round(x, 4) for x in losses]}")


if __name__ == "__main__":
    main()
