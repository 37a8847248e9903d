"""LoRA against full fine-tuning on one model: trainable parameters, peak memory, step time.

    python bench/lora_vs_full.py                                   # SmolLM2-135M on the CPU
    python bench/lora_vs_full.py --model tiny --seqs 4 --tokens 64  # seconds, a smoke run
    python bench/lora_vs_full.py --device cuda --seqs 32 --tokens 256 --steps 5   # on a GPU

Each side runs in its own child process (peak RSS only grows, so one process cannot measure
both): load the model in float32 as the learners do (`rlvr.learners.common.load_model`), add
the adapters for the LoRA side (`rlvr.policies.lora.add_lora`), then `--steps` optimiser steps
of a next-token loss on `--seqs` random sequences of `--tokens` tokens: forward, backward,
clip, AdamW, the same work as one SFT step or one GRPO minibatch update. Step time is the
median of the steps after the first (the first allocates AdamW's state). Peak memory is the
child's peak RSS (`ru_maxrss`); on CUDA also `torch.cuda.max_memory_allocated`. On a shared
CPU the step's process CPU time (`step_cpu_s`, one thread by default) is the steadier figure:
wall time moves with the machine's load. Prints both
sides and LoRA / full for each figure. Results and their command: bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def measure(args: argparse.Namespace, lora: bool) -> dict[str, Any]:
    """One side, in this process: load, adapt (LoRA), run the steps; its figures."""
    sys.path.insert(0, str(ROOT))
    import torch

    from rlvr.learners.common import load_model
    from rlvr.learners.config import LearnerConfig
    from rlvr.policies.lora import add_lora, trainable_parameters

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    cfg = LearnerConfig(
        model=args.model,
        device=args.device,
        bf16=args.device == "cuda",
        lora_rank=args.rank if lora else 0,
        lora_alpha=2 * args.rank,
        lora_targets=args.targets.split(","),
    )
    device = torch.device(args.device)
    model, _ = load_model(args.model, cfg, device)
    if lora:
        model = add_lora(model, cfg)
    rss_loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    trainable, total = trainable_parameters(model)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-5)
    vocab = model.config.vocab_size
    ids = torch.randint(0, vocab, (args.seqs, args.tokens), device=device)
    model.train()
    times, cpu = [], []
    for _ in range(args.steps):
        start, start_cpu = time.perf_counter(), time.process_time()
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=cfg.bf16):
            logits = model(input_ids=ids, use_cache=False).logits[:, :-1]
        loss = torch.nn.functional.cross_entropy(
            logits.reshape(-1, vocab).float(), ids[:, 1:].reshape(-1)
        )
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        if args.device == "cuda":
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    out = {
        "side": "lora" if lora else "full",
        "trainable": trainable,
        "total": total,
        "rss_loaded_mb": rss_loaded,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "step_s": statistics.median(times[1:] or times),
        "first_step_s": times[0],
        "step_cpu_s": statistics.median(cpu[1:] or cpu),
    }
    if args.device == "cuda":
        out["peak_cuda_mb"] = torch.cuda.max_memory_allocated() / 2**20
    return out


def child(args: argparse.Namespace, side: str) -> dict[str, Any]:
    """Run one side in a fresh interpreter and read its JSON line."""
    argv = [sys.executable, __file__, "--side", side]
    for key in ("model", "device", "seqs", "tokens", "steps", "rank", "targets", "threads"):
        argv += [f"--{key}", str(getattr(args, key))]
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{side} side failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _num(v: float) -> str:
    return f"{v:,.0f}" if isinstance(v, int) or v >= 100 else f"{v:.3g}"


def table(full: dict[str, Any], lora: dict[str, Any]) -> str:
    """Both sides and LoRA / full, as a markdown table."""
    keys = ["trainable", "rss_loaded_mb", "peak_rss_mb", "step_s", "step_cpu_s", "first_step_s"]
    keys += ["peak_cuda_mb"] if "peak_cuda_mb" in full else []
    lines = ["| figure | full | LoRA | LoRA / full |", "| --- | --- | --- | --- |"]
    for k in keys:
        a, b = full[k], lora[k]
        lines.append(f"| {k} | {_num(a)} | {_num(b)} | {b / a:.3g} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--seqs", type=int, default=4, help="Sequences per step.")
    parser.add_argument("--tokens", type=int, default=128, help="Tokens per sequence.")
    parser.add_argument("--steps", type=int, default=3, help="Steps per side (first is warm-up).")
    parser.add_argument("--rank", type=int, default=16, help="LoRA rank (alpha = 2 x rank).")
    parser.add_argument("--targets", default="q_proj,k_proj,v_proj,o_proj")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads.")
    parser.add_argument("--side", choices=["full", "lora"], help=argparse.SUPPRESS)
    parser.add_argument("--json", type=Path, help="Also write both sides here.")
    args = parser.parse_args()
    if args.side:
        print(json.dumps(measure(args, args.side == "lora")))
        return
    print(
        f"{args.model} on {args.device}: {args.seqs} x {args.tokens} tokens, {args.steps} steps "
        f"a side, LoRA r={args.rank} on {args.targets}, {args.threads} thread(s)",
        flush=True,
    )
    print(f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
    full = child(args, "full")
    lora = child(args, "lora")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print(f"full: {json.dumps(full)}\nlora: {json.dumps(lora)}")
    print(f"trainable parameters: full {full['trainable']:,} of {full['total']:,}, ", end="")
    print(f"LoRA {lora['trainable']:,} ({lora['trainable'] / full['total']:.2%})")
    print(table(full, lora))
    if args.json:
        args.json.write_text(
            json.dumps({"args": vars(args), "full": full, "lora": lora}, indent=1, default=str)
        )


if __name__ == "__main__":
    main()
