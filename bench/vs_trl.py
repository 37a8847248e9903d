"""rlvr's GRPO learner against TRL's GRPOTrainer: same model, G, batch, length and steps.

    python bench/vs_trl.py --model tiny-sft --steps 20

Both train the same starting weights on the math env's easy tasks with the same reward (rlvr's
math grader through `rlvr.integrations.trl.reward_funcs` for TRL), G answers per task, the same
prompts per step, completion limit, learning rate, beta = 0, one update per batch and the same
torch thread count. Reported: median seconds per step (set-up excluded, first step dropped as
warm-up) for each, and the ratio TRL / rlvr, for rlvr as is and with async_sampling (step t+1
sampled on a copy of the weights while step t trains; one update stale). Process CPU seconds
per step are printed beside the wall time: on a shared, busy machine they move much less.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import tempfile
import time

import torch

import rlvr


def stamp_now() -> tuple[float, float]:
    """(wall, process CPU) seconds: CPU time is what a shared, busy machine changes least."""
    return time.perf_counter(), time.process_time()


def deltas(stamps: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(stamps)]


def rlvr_steps(
    args: argparse.Namespace, env: rlvr.Environment, async_sampling: bool
) -> list[tuple[float, float]]:
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
    stamps: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as out:
        stamps.append(stamp_now())
        train(cfg, out, env=env, on_row=lambda _row: stamps.append(stamp_now()))
    return deltas(stamps)


def trl_steps(args: argparse.Namespace, env: rlvr.Environment) -> list[tuple[float, float]]:
    from transformers import AutoModelForCausalLM, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.integrations.trl import reward_funcs, to_hf_dataset
    from rlvr.models import resolve_model
    from rlvr.policies.hf import load_tokenizer

    class Clock(TrainerCallback):
        def __init__(self) -> None:
            self.times: list[tuple[float, float]] = []

        def on_step_begin(self, *a, **k) -> None:
            self.start = stamp_now()

        def on_step_end(self, *a, **k) -> None:
            self.times.extend(deltas([self.start, stamp_now()]))

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
    print(
        f"setting: G={args.g}, {args.prompts} prompts/step, {args.max_new_tokens} new tokens, "
        f"{args.steps} steps, {args.threads} threads, model {args.model}"
    )
    wall, cpu = {}, {}
    for name, steps in (("rlvr GRPO", ours), ("TRL GRPOTrainer", theirs)):
        wall[name] = statistics.median(w for w, _ in steps[1:])
        cpu[name] = statistics.median(c for _, c in steps[1:])
    wall["rlvr GRPO, async_sampling"] = statistics.median(w for w, _ in ours_async[1:])
    for name in wall:
        spent = f", {cpu[name]:.3f} CPU s/step" if name in cpu else " (CPU time: two threads)"
        print(f"{name}: {wall[name]:.3f} s/step{spent} (median of {args.steps - 1})")
    a, b, c = wall["rlvr GRPO"], wall["TRL GRPOTrainer"], wall["rlvr GRPO, async_sampling"]
    print(f"ratio TRL / rlvr: {b / a:.2f}x; TRL / rlvr async_sampling: {b / c:.2f}x")
    print(f"CPU time ratio TRL / rlvr: {cpu['TRL GRPOTrainer'] / cpu['rlvr GRPO']:.2f}x")


if __name__ == "__main__":
    main()
