"""TRL's GRPOTrainer with rlvr's rewards: the graders stay rlvr's, the loop is TRL's.

    python examples/trl_grpo.py --env math --model tiny-sft --steps 20 --out runs/trl-grpo

`--model` takes what `rlvr train --model` takes (tiny, tiny-sft, a folder, a hub name). On a
GPU, drop `use_cpu` and set `bf16=True`.
"""

from __future__ import annotations

import argparse

import torch
from transformers import AutoModelForCausalLM
from trl import GRPOConfig, GRPOTrainer

import rlvr
from rlvr.integrations.trl import reward_funcs, to_hf_dataset
from rlvr.models import resolve_model
from rlvr.policies.hf import load_tokenizer


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--env", default="math")
    ap.add_argument("--model", default="tiny-sft")
    ap.add_argument("--difficulty", default="easy", help="keep tasks of this meta difficulty")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default="runs/trl-grpo")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    env = rlvr.load_env(args.env)
    tasks = [
        t for t in env.tasks() if not args.difficulty or t.meta.get("difficulty") == args.difficulty
    ]
    path = resolve_model(args.model)
    config = GRPOConfig(
        output_dir=args.out,
        max_steps=args.steps,
        per_device_train_batch_size=32,  # completions per step: a multiple of num_generations
        num_generations=8,
        max_completion_length=48,
        learning_rate=5e-5,  # TRL's 1e-6 default barely moves a small model
        beta=0.0,
        loss_type="grpo",  # rlvr's seq_mean_token_mean
        bf16=False,
        gradient_checkpointing=False,
        use_cpu=True,
        use_vllm=False,
        report_to="none",
        logging_steps=1,
        save_strategy="no",
    )
    trainer = GRPOTrainer(
        model=AutoModelForCausalLM.from_pretrained(path),
        reward_funcs=reward_funcs(env),
        train_dataset=to_hf_dataset(env, tasks),
        args=config,
        processing_class=load_tokenizer(path),  # never the Auto loader for a local tokenizer
    )
    trainer.train()
    rewards = [h["reward"] for h in trainer.state.log_history if "reward" in h]
    print(f"reward per step: {[round(r, 3) for r in rewards]}")


if __name__ == "__main__":
    main()
