"""TRL's RLOOTrainer with rlvr's rewards (leave-one-out baseline; KL to a reference).

    python examples/trl_rloo.py --env math --model tiny-sft --steps 20 --out runs/trl-rloo

Masked verdicts (grader errors, timeouts, infrastructure failures) come back as None, which
RLOOTrainer leaves out of the leave-one-out baseline.
"""

from __future__ import annotations

import argparse

import torch
from transformers import AutoModelForCausalLM
from trl import RLOOConfig, RLOOTrainer

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
    ap.add_argument("--out", default="runs/trl-rloo")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    env = rlvr.load_env(args.env)
    tasks = [
        t for t in env.tasks() if not args.difficulty or t.meta.get("difficulty") == args.difficulty
    ]
    path = resolve_model(args.model)
    config = RLOOConfig(
        output_dir=args.out,
        max_steps=args.steps,
        per_device_train_batch_size=32,
        num_generations=8,
        max_completion_length=48,
        learning_rate=5e-5,
        beta=0.05,  # TRL's RLOO default: loads a frozen reference
        bf16=False,
        gradient_checkpointing=False,
        use_cpu=True,
        use_vllm=False,
        report_to="none",
        logging_steps=1,
        save_strategy="no",
    )
    trainer = RLOOTrainer(
        model=AutoModelForCausalLM.from_pretrained(path),
        reward_funcs=reward_funcs(env),
        train_dataset=to_hf_dataset(env, tasks),
        args=config,
        processing_class=load_tokenizer(path),
    )
    trainer.train()
    rewards = [h["reward"] for h in trainer.state.log_history if "reward" in h]
    print(f"reward per step: {[round(r, 3) for r in rewards]}")


if __name__ == "__main__":
    main()
