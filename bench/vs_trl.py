"""rlvr's GRPO learner against TRL's GRPOTrainer: same model, G, batch, length and steps.

    python bench/vs_trl.py --model tiny-sft --steps 20

Both train the same starting weights on the math env's easy tasks with the same reward (rlvr's
math grader through `rlvr.integrations.trl.reward_funcs` for TRL), G answers per task, the same
prompts per step, completion limit, learning rate, beta = 0, one update per batch and the same
torch thread count. Reported: median seconds per step (set-up excluded, first step dropped as
warm-up) for each, and the ratio TRL / rlvr, for rlvr as is and with async_sampling (step t+1
sampled on a copy of the weights while step t trains; one update stale).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

import torch

import rlvr


def rlvr_steps(
    args: argparse.Namespace, env: rlvr.Environment, async_sampling: bool
) -> list[float]:
    from rlvr.learners.config import LearnerConfig
    from rlvr.learners.grpo import train

    cfg = LearnerConfig(
        env="math",
        model=args.model,
        task_filter={"difficulty": "easy"},
        steps=args.steps,
        lr=args.lr,
        group_size=args.g,
        prompts_per_step=args.prompts,
        max_new_tokens=args.max_new_tokens,
        micro_batch_size=args.g * args.prompts,
        loss_agg="seq_mean_token_mean",
        threads=args.threads,
        save_every=0,
        async_sampling=async_sampling,
    )
    stamps: list[float] = []
    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        train(cfg, out, env=env, on_row=lambda _row: stamps.append(time.perf_counter()))
    return [b - a for a, b in zip([t0, *stamps[:-1]], stamps, strict=True)]


def trl_steps(args: argparse.Namespace, env: rlvr.Environment) -> list[float]:
    from transformers import AutoModelForCausalLM, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.integrations.trl import reward_funcs, to_hf_dataset
    from rlvr.policies import resolve_model
    from rlvr.policies.hf import load_tokenizer

    class Clock(TrainerCallback):
        def __init__(self) -> None:
            self.times: list[float] = []

        def on_step_begin(self, *a, **k) -> None:
            self.start = time.perf_counter()

        def on_step_end(self, *a, **k) -> None:
            self.times.append(time.perf_counter() - self.start)

    path = resolve_model(args.model)
    easy = [t for t in env.tasks() if t.meta.get("difficulty") == "easy"]
    clock = Clock()
    with tempfile.TemporaryDirectory() as out:
        config = GRPOConfig(
            output_dir=out,
            max_steps=args.steps,
            num_generations=args.g,
            per_device_train_batch_size=args.g * args.prompts,
            max_completion_length=args.max_new_tokens,
            learning_rate=args.lr,
            beta=0.0,
            loss_type="grpo",
            temperature=1.0,
            bf16=False,
            gradient_checkpointing=False,
            use_cpu=True,
            use_vllm=False,
            report_to="none",
            logging_steps=1,
            save_strategy="no",
            seed=0,
            disable_tqdm=True,
        )
        trainer = GRPOTrainer(
            model=AutoModelForCausalLM.from_pretrained(path),
            reward_funcs=reward_funcs(env),
            train_dataset=to_hf_dataset(env, easy),
            args=config,
            processing_class=load_tokenizer(path),
            callbacks=[clock],
        )
        trainer.train()
    return clock.times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--model", default="tiny-sft")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--g", type=int, default=8)
    ap.add_argument("--prompts", type=int, default=4)
    ap.add_argument("--max-new-tokens", type=int, default=64)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    env = rlvr.load_env("math")

    ours = rlvr_steps(args, env, async_sampling=False)
    ours_async = rlvr_steps(args, env, async_sampling=True)
    theirs = trl_steps(args, env)
    a, b = statistics.median(ours[1:]), statistics.median(theirs[1:])
    c = statistics.median(ours_async[1:])
    print(
        f"setting: G={args.g}, {args.prompts} prompts/step, {args.max_new_tokens} new tokens, "
        f"{args.steps} steps, {args.threads} threads, model {args.model}"
    )
    print(f"rlvr GRPO: {a:.3f} s/step (median of {len(ours) - 1})")
    print(f"TRL GRPOTrainer: {b:.3f} s/step (median of {len(theirs) - 1})")
    print(f"rlvr GRPO, async_sampling: {c:.3f} s/step (median of {len(ours_async) - 1})")
    print(f"ratio TRL / rlvr: {b / a:.2f}x; TRL / rlvr async_sampling: {b / c:.2f}x")


if __name__ == "__main__":
    main()
