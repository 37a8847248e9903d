"""rlvr's sampler against plain `model.generate` on the same batch: where generation time goes.

    python bench/sampler_vs_generate.py                         # 0.5B shape, CUDA, bf16
    python bench/sampler_vs_generate.py --shape tiny --device cpu --rows 16 --new 32

Four ways to sample the same rows (G copies of each prompt, sampling at temperature 1, a random
model that rarely stops): transformers' `generate` with its default dynamic cache and with
`cache_implementation="static"` (which compiles the forward on CUDA), and rlvr's `HFPolicy`
(token log-probs, finish tracking, the samples as objects) with the dynamic and the static
cache. Each is run `--repeats` times after one warm-up call (which pays any compilation);
prints tokens/s of each and rlvr's ratio to the plain call with the same cache.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_smoke import build_model
from gpu_vs_trl import SHAPES


def _sync(device: str) -> None:
    if device == "cuda":
        torch.cuda.synchronize()


def timed(fn, device: str, repeats: int) -> tuple[float, int]:
    """(median seconds per call after a warm-up call, generated tokens per call)."""
    fn()
    times, tokens = [], 0
    for _ in range(repeats):
        _sync(device)
        t0 = time.perf_counter()
        tokens = fn()
        _sync(device)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), tokens


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--shape", choices=sorted(SHAPES), default="0.5b")
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    ap.add_argument("--rows", type=int, default=64, help="sequences per call (prompts x G)")
    ap.add_argument("--g", type=int, default=8)
    ap.add_argument("--new", type=int, default=256, help="new tokens per sequence")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    from rlvr.policies.base import SamplingConfig
    from rlvr.policies.hf import HFPolicy, load_pretrained

    torch.manual_seed(0)
    if args.device == "cpu":
        torch.set_num_threads(1)  # a busy machine's threads spin against each other
    dtype = torch.bfloat16 if args.device == "cuda" else torch.float32
    with tempfile.TemporaryDirectory() as tmp:
        build_model(Path(tmp), args.device, SHAPES[args.shape])
        model, tok = load_pretrained(tmp, device=args.device, dtype=dtype)
    prompts = [f"Write something about the number {i}." for i in range(args.rows // args.g)]
    sampling = SamplingConfig(max_new_tokens=args.new, seed=0)
    enc = tok([p for p in prompts for _ in range(args.g)], return_tensors="pt", padding=True)
    enc = {k: v.to(args.device) for k, v in enc.items()}
    width = enc["input_ids"].shape[1]

    def plain(static: bool):
        def call() -> int:
            extra = {"cache_implementation": "static"} if static else {}
            with torch.no_grad():
                out = model.generate(
                    **enc, do_sample=True, max_new_tokens=args.new, top_k=0, **extra
                )
            return int((out[:, width:] != tok.pad_token_id).sum())

        return call

    def ours(static: bool):
        policy = HFPolicy(model, tok, batch_size=args.rows, static_cache=static)

        def call() -> int:
            groups = policy.sample(prompts, args.g, sampling)
            return sum(len(s.token_ids or []) for g in groups for s in g)

        return call

    rates = {}
    for name, fn in [
        ("generate, dynamic cache", plain(False)),
        ("generate, static cache", plain(True)),
        ("rlvr HFPolicy, dynamic cache", ours(False)),
        ("rlvr HFPolicy, static cache", ours(True)),
    ]:
        sec, tokens = timed(fn, args.device, args.repeats)
        rates[name] = tokens / sec
        print(
            f"{name}: {sec:.3f} s/call, {tokens} tokens, {tokens / sec:,.0f} tokens/s", flush=True
        )
    for cache in ("dynamic", "static"):
        ratio = rates[f"rlvr HFPolicy, {cache} cache"] / rates[f"generate, {cache} cache"]
        print(f"rlvr / generate, {cache} cache: {ratio:.2f}x")


if __name__ == "__main__":
    main()
