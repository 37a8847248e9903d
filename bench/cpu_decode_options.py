"""Two ways to decode faster on a CPU, measured on a real model before building either.

    python bench/cpu_decode_options.py --model smollm2-135m
    python bench/cpu_decode_options.py --model smollm2-135m --lookup runs/eval-x/groups.jsonl

1. **int8 weights** (`torch.ao.quantization.quantize_dynamic`): a decode step's time at batch
   8 against fp32's, and how far the quantised model is from the model: teacher-forced top-1
   agreement and KL(fp32 || int8) over the model's own greedy answers to 16 synth-python train
   prompts, for int8 per tensor, per channel, and per channel on the attention projections only.
2. **Prompt-lookup drafting** (speculative decoding with n-grams of the prompt and the answer
   so far as the draft): the cost of verifying q tokens in one cached forward at batch 1 and 8
   against one token, and, with `--lookup`, how many tokens a forward would yield on stored
   answers (draft 8 tokens from the latest earlier match of the last 3, 2 or 1 tokens).

Either pays only if the speed it buys is not eaten by what it costs. Results: bench/README.md.
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import time
import warnings
from pathlib import Path

import torch
from transformers.cache_utils import DynamicCache

import rlvr
from rlvr.models import resolve_model
from rlvr.policies.base import SamplingConfig
from rlvr.policies.decode import cache_arg
from rlvr.policies.hf import HFPolicy


def step_ms(model: torch.nn.Module, batch: int, query: int = 1, repeats: int = 8) -> float:
    """Median ms of one cached forward of `query` new tokens per row after a 150-token prefill."""
    with torch.inference_mode():
        cache = DynamicCache(config=model.config)
        model(input_ids=torch.randint(0, 40000, (batch, 150)), use_cache=True,
              logits_to_keep=1, **{cache_arg(model): cache})  # fmt: skip
        times = []
        for _ in range(repeats):
            ids = torch.randint(0, 40000, (batch, query))
            t0 = time.perf_counter()
            model(input_ids=ids, use_cache=True, **{cache_arg(model): cache})
            times.append(time.perf_counter() - t0)
            cache.crop(-query)
    return statistics.median(times[2:]) * 1000


def quantised(model: torch.nn.Module, per_channel: bool, only: str | None) -> torch.nn.Module:
    """An int8 copy: every Linear, the LM head too (or only those whose name holds `only`)."""
    from torch.ao.quantization import (
        default_dynamic_qconfig,
        per_channel_dynamic_qconfig,
        quantize_dynamic,
    )

    qconfig = per_channel_dynamic_qconfig if per_channel else default_dynamic_qconfig
    names = {
        n
        for n, m in model.named_modules()
        if isinstance(m, torch.nn.Linear) and (only is None or only in n)
    }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return quantize_dynamic(copy.deepcopy(model), {n: qconfig for n in names}, torch.qint8)


def distance(ref: list[torch.Tensor], got: list[torch.Tensor]) -> tuple[float, float]:
    """Mean top-1 agreement and KL(ref || got) over the answer positions."""
    agree, kl = [], []
    for r, g in zip(ref, got, strict=True):
        agree.append((r.argmax(-1) == g.argmax(-1)).float().mean().item())
        kl.append(
            torch.nn.functional.kl_div(
                g.log_softmax(-1), r.log_softmax(-1), log_target=True, reduction="batchmean"
            ).item()
        )
    return statistics.mean(agree), statistics.mean(kl)


def lookup_yield(prompt: list[int], answer: list[int], draft: int = 8) -> int:
    """Forwards a prompt-lookup decoder needs for `answer` (each accepts the draft's agreeing
    prefix plus one token of its own)."""
    ctx, i, forwards = list(prompt), 0, 0
    while i < len(answer):
        guess: list[int] = []
        for n in (3, 2, 1):
            pattern = ctx[-n:]
            for j in range(len(ctx) - n - 1, -1, -1):
                if ctx[j : j + n] == pattern:
                    guess = ctx[j + n : j + n + draft]
                    break
            if guess:
                break
        ok = 0
        while ok < len(guess) and i + ok < len(answer) and guess[ok] == answer[i + ok]:
            ok += 1
        step = min(ok + 1, len(answer) - i)
        ctx += answer[i : i + step]
        i, forwards = i + step, forwards + 1
    return forwards


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--lookup", nargs="*", default=[], help="groups.jsonl files of answers")
    args = ap.parse_args()
    torch.set_num_threads(1)
    policy = HFPolicy.from_pretrained(str(resolve_model(args.model)), device="cpu", threads=1)
    model = policy.model
    env = rlvr.load_env("synth-python")
    prompts = [env.messages(t) for t in env.tasks_in("train")[100:116]]
    greedy = SamplingConfig(temperature=0, max_new_tokens=64)
    answers = [g[0] for g in policy.sample(prompts, 1, greedy)]
    seqs = [torch.tensor(a.prompt_token_ids + a.token_ids) for a in answers]
    cut = [len(a.prompt_token_ids or []) - 1 for a in answers]

    def logits(m: torch.nn.Module) -> list[torch.Tensor]:
        with torch.inference_mode():
            return [m(s[None]).logits[0, c:-1].float() for s, c in zip(seqs, cut, strict=True)]

    ref = logits(model)
    base = step_ms(model, 8)
    print(f"1. int8 weights ({args.model}, one thread, batch-8 decode step fp32 {base:.0f} ms)")
    print("| weights | step / fp32 step | top-1 agreement | KL(fp32 || int8) |")
    print("| --- | --- | --- | --- |")
    for label, per_channel, only in (
        ("int8 per tensor", False, None),
        ("int8 per channel", True, None),
        ("int8 per channel, attention only", True, "self_attn"),
    ):
        q = quantised(model, per_channel, only)
        agree, kl = distance(ref, logits(q))
        print(f"| {label} | {step_ms(q, 8) / base:.2f} | {agree:.3f} | {kl:.3f} |", flush=True)
    print("\n2. verifying q tokens in one forward, against one token")
    print("| batch | q=1 ms | q=3 | q=5 | q=9 |")
    print("| --- | --- | --- | --- | --- |")
    for batch in (1, 8):
        one = step_ms(model, batch)
        rest = " | ".join(f"{step_ms(model, batch, q) / one:.2f}x" for q in (3, 5, 9))
        print(f"| {batch} | {one:.0f} | {rest} |", flush=True)
    for path in args.lookup:
        tokens = forwards = 0
        for line in Path(path).read_text().splitlines():
            for s in json.loads(line)["samples"]:
                if s.get("token_ids") and s.get("prompt_token_ids") is not None:
                    tokens += len(s["token_ids"])
                    forwards += lookup_yield(s["prompt_token_ids"], s["token_ids"])
        print(f"prompt lookup on {path}: {tokens} tokens in {forwards} forwards, "
              f"{tokens / max(forwards, 1):.2f} tokens per forward")  # fmt: skip


if __name__ == "__main__":
    main()
