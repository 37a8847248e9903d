"""rlvr's decoding loop against transformers' `generate` on a real model on the CPU.

    python bench/sampler_cpu.py --model smollm2-135m --batches 1 8 32 --repeats 3

Same prompts (synth-python train prompts through the chat template), same sampling
(temperature 0.6, the closed-fence stop on, a token cap), the same `HFPolicy`; only
`SamplingConfig.decoder` differs ("rlvr" or "generate"). After one short warm-up call of each,
for each batch size the two run interleaved `--repeats` times, so that a load change on a
shared machine hits both; prints the median tokens/s of each (generated tokens up to each row's
end, over wall time) and their ratio, and the same over this process's CPU time: on a shared
machine other work stretches wall time by up to 3x between two runs, while CPU time counts
what the decoding itself cost. `--g` samples G answers per prompt (batch = prompts
x G), where the loop prefills each prompt once.
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
    args = ap.parse_args()

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    policy = HFPolicy.from_pretrained(
        str(resolve_model(args.model)), device="cpu", threads=args.threads,
        dtype=getattr(torch, args.dtype),
    )  # fmt: skip
    policy.model.set_attn_implementation(args.attn)
    env = rlvr.load_env(args.env)
    tasks = env.tasks_in("train")
    sampling = SamplingConfig(
        temperature=args.temperature, max_new_tokens=args.new, stop_at_closed_fence=True
    )
    print(f"{args.model} on {args.env} train prompts, T={args.temperature}, cap {args.new}, "
          f"fence stop on, G={args.g}, {args.threads} thread(s), {args.dtype}, {args.attn}, "
          f"load average {os.getloadavg()[0]:.1f} at start")  # fmt: skip
    print("| batch | generate tokens/s | rlvr tokens/s | ratio | generate tokens/CPU s | "
          "rlvr tokens/CPU s | CPU ratio | tokens per call (gen / rlvr) |")  # fmt: skip
    print("| --- " * 8 + "|")
    warm = sampling.model_copy(update={"max_new_tokens": 8})
    for decoder in ("generate", "rlvr"):  # one short warm-up call of each
        policy.sample([env.messages(tasks[0])], 1, warm.model_copy(update={"decoder": decoder}))
    seed = 0
    for batch in args.batches:
        n = max(1, batch // args.g)
        prompts = [env.messages(t) for t in tasks[:n]]
        rates: dict[str, list[float]] = {"generate": [], "rlvr": []}
        per_cpu: dict[str, list[float]] = {"generate": [], "rlvr": []}
        tokens: dict[str, list[int]] = {"generate": [], "rlvr": []}
        for _ in range(args.repeats):
            seed += 1  # both decoders draw from the same seed: one row draws the same tokens
            for decoder in ("generate", "rlvr"):
                s = sampling.model_copy(update={"decoder": decoder, "seed": seed})
                t0, c0 = time.perf_counter(), time.process_time()
                groups = policy.sample(prompts, args.g, s)
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                made = sum(len(x.token_ids or []) for group in groups for x in group)
                rates[decoder].append(made / wall)
                per_cpu[decoder].append(made / cpu)
                tokens[decoder].append(made)
        gen, ours = statistics.median(rates["generate"]), statistics.median(rates["rlvr"])
        cpu_gen, cpu_ours = (
            statistics.median(per_cpu["generate"]),
            statistics.median(per_cpu["rlvr"]),
        )
        print(f"| {n * args.g} | {gen:.1f} | {ours:.1f} | {ours / gen:.2f}x | "
              f"{cpu_gen:.1f} | {cpu_ours:.1f} | {cpu_ours / cpu_gen:.2f}x | "
              f"{statistics.median(tokens['generate']):.0f} / "
              f"{statistics.median(tokens['rlvr']):.0f} |", flush=True)  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
