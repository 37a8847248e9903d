"""rlvr's decoding loop against transformers' `generate` on a real model on the CPU.

    python bench/sampler_cpu.py --model smollm2-135m --batches 1 8 32 --repeats 3

Same prompts (synth-python train prompts through the chat template), same sampling
(temperature 0.6, the closed-fence stop on, a token cap), the same `HFPolicy`; only
`SamplingConfig.decoder` differs ("rlvr" or "generate"). After one short warm-up call of each,
for each batch size the two run interleaved `--repeats` times, so that a load change on a
shared machine hits both; prints the median tokens/s of each (generated tokens up to each row's
end, over wall time) and their ratio. `--g` samples G answers per prompt (batch = prompts
x G), where the loop prefills each prompt once. `--int8` adds a third sampler: rlvr's loop on
int8 Linear weights (`rlvr eval --int8`, rlvr/policies/int8.py), a second copy of the model.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import torch

import rlvr
from rlvr.models import resolve_model
from rlvr.policies.base import SamplingConfig
from rlvr.policies.hf import HFPolicy


def decoder(sampler: str) -> str:
    """The SamplingConfig.decoder of a sampler's column ("rlvr int8" is the loop too)."""
    return "generate" if sampler == "generate" else "rlvr"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--env", default="synth-python")
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 8, 32])
    ap.add_argument("--g", type=int, default=1, help="answers per prompt")
    ap.add_argument("--new", type=int, default=192, help="max new tokens")
    ap.add_argument("--temperature", type=float, default=0.6)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--dtype", choices=["float32", "bfloat16"], default="float32")
    ap.add_argument("--attn", choices=["sdpa", "eager"], default="sdpa")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--int8", action="store_true", help="also time the loop on int8 weights")
    args = ap.parse_args()

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    policy = HFPolicy.from_pretrained(
        str(resolve_model(args.model)), device="cpu", threads=args.threads,
        dtype=getattr(torch, args.dtype),
    )  # fmt: skip
    policy.model.set_attn_implementation(args.attn)
    policies = {"generate": policy, "rlvr": policy}
    if args.int8:
        policies["rlvr int8"] = HFPolicy.from_pretrained(
            str(resolve_model(args.model)), device="cpu", threads=args.threads, int8=True
        )
        policies["rlvr int8"].model.set_attn_implementation(args.attn)
    env = rlvr.load_env(args.env)
    tasks = env.tasks_in("train")
    sampling = SamplingConfig(
        temperature=args.temperature, max_new_tokens=args.new, stop_at_closed_fence=True
    )
    print(f"{args.model} on {args.env} train prompts, T={args.temperature}, cap {args.new}, "
          f"fence stop on, G={args.g}, {args.threads} thread(s), {args.dtype}, {args.attn}, "
          f"load average {os.getloadavg()[0]:.1f} at start")  # fmt: skip
    extra = " | rlvr int8 tokens/s | int8 ratio" if args.int8 else ""
    print(f"| batch | generate tokens/s | rlvr tokens/s | ratio{extra} | tokens per call "
          f"({' / '.join(policies)}) |")  # fmt: skip
    print("| --- " * (5 + 2 * args.int8) + "|")
    warm = sampling.model_copy(update={"max_new_tokens": 8})
    for name, pol in policies.items():  # one short warm-up call of each
        pol.sample([env.messages(tasks[0])], 1, warm.model_copy(update={"decoder": decoder(name)}))
    seed = 0
    for batch in args.batches:
        n = max(1, batch // args.g)
        prompts = [env.messages(t) for t in tasks[:n]]
        rates: dict[str, list[float]] = {name: [] for name in policies}
        tokens: dict[str, list[int]] = {name: [] for name in policies}
        for _ in range(args.repeats):
            seed += 1  # every sampler draws from the same seed: one row draws the same tokens
            for name, pol in policies.items():
                s = sampling.model_copy(update={"decoder": decoder(name), "seed": seed})
                t0 = time.perf_counter()
                groups = pol.sample(prompts, args.g, s)
                wall = time.perf_counter() - t0
                made = sum(len(x.token_ids or []) for group in groups for x in group)
                rates[name].append(made / wall)
                tokens[name].append(made)
        med = {name: statistics.median(r) for name, r in rates.items()}
        gen = med["generate"]
        cells = [f"{med['rlvr']:.1f}", f"{med['rlvr'] / gen:.2f}x"]
        if args.int8:
            cells += [f"{med['rlvr int8']:.1f}", f"{med['rlvr int8'] / gen:.2f}x"]
        made = " / ".join(f"{statistics.median(t):.0f}" for t in tokens.values())
        print(f"| {n * args.g} | {gen:.1f} | {' | '.join(cells)} | {made} |", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
