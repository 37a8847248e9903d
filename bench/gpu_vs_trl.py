"""rlvr's GRPO learner against TRL's GRPOTrainer on one GPU: same model, tokenizer, reward, setup.

    python bench/gpu_vs_trl.py                               # Qwen2-0.5B shape on CUDA
    python bench/gpu_vs_trl.py --shape 1.5b
    python bench/gpu_vs_trl.py --sides rlvr,trl,rlvr-async   # also rlvr with async_sampling
    python bench/gpu_vs_trl.py --shape tiny --device cpu --steps 3   # the same code on a CPU

On a GPU box without TRL or pydantic use bench/gpu_vs_trl.sh (it installs carried wheels).

The model is built from a config with random weights (nothing is downloaded) and saved once;
each learner then runs in its own child process, back to back, so each gets a fresh CUDA
context and its own peak-memory figure. Both train the same fp32 weights with bf16 autocast on
CUDA, G answers to each of `--prompts` prompts per step, `--max-new-tokens` new tokens (a random
model rarely stops early), micro-batches of `--micro-batch` answers with one optimiser step per
batch, beta (KL to a bf16 reference) 0.04, token-mean loss (TRL loss_type "dapo"), lr 1e-6,
generation with transformers (TRL: use_vllm=False), gradient checkpointing as TRL's default has
it (on, CUDA only), and the parity reward of bench/gpu_smoke.py through the same rlvr grader.

Per learner: s/step (median over the steps after `--warmup`), generated tokens/s (completion
tokens over the time spent in generation), update tokens/s (the same tokens over the rest of
the step: scoring, reference, loss, backward, optimiser), peak memory (CUDA: max allocated;
CPU: peak RSS), and the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gpu_smoke import QWEN2_05B, ParityGrader, build_model

SHAPES: dict[str, dict[str, Any]] = {
    "0.5b": QWEN2_05B,
    "1.5b": {
        **QWEN2_05B,
        "hidden_size": 1536,
        "intermediate_size": 8960,
        "num_hidden_layers": 28,
        "num_attention_heads": 12,
    },
    "tiny": {
        **QWEN2_05B,
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_hidden_layers": 2,
        "num_attention_heads": 4,
        "vocab_size": 512,
    },
}
SIDES = ("rlvr", "trl", "rlvr-async")
GOAL = (
    "0.5b shape on an H200: rlvr >= 12,000 generated tokens/s, <= 1/3 of TRL's s/step, "
    "<= TRL's memory"
)


def parity_env() -> Any:
    from rlvr.env import Environment
    from rlvr.types import Task

    tasks = [Task(id=f"t{i}", prompt=f"Write something about the number {i}.") for i in range(64)]
    return Environment(name="parity", grader=ParityGrader(), load_tasks=lambda: tasks)


def peak_memory_gib(device: str) -> float:
    if device == "cuda":
        return torch.cuda.max_memory_allocated() / 2**30
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux


def run_rlvr(
    args: argparse.Namespace, folder: str, async_sampling: bool, done: Any = None
) -> list[dict[str, float]]:
    """rlvr's GRPO steps; `done(steps)` is called at the last step, before the final
    checkpoint (several GB of fp32 weights and optimiser state) is written."""
    from rlvr.learners.config import LearnerConfig
    from rlvr.learners.grpo import train

    cfg = LearnerConfig(
        env="parity",
        model=folder,
        device=args.device,
        bf16=args.device == "cuda",
        steps=args.steps,
        lr=1e-6,
        group_size=args.g,
        prompts_per_step=args.prompts,
        max_new_tokens=args.max_new_tokens,
        micro_batch_size=args.micro_batch,
        beta=args.beta,
        loss_agg="token_mean",
        gradient_checkpointing=args.gradient_checkpointing,
        async_sampling=async_sampling,
        static_cache=args.static_cache,
        threads=args.threads if args.device == "cpu" else None,
        save_every=0,
    )
    steps: list[dict[str, float]] = []
    stamp = [time.perf_counter()]

    def on_row(row: dict[str, Any]) -> None:
        now = time.perf_counter()
        tokens = row["completion_len_mean"] * row["groups_sampled"] * args.g
        steps.append({"s": now - stamp[0], "gen_s": row["time_generate"], "tokens": tokens})
        if done is not None and row["step"] == args.steps:
            done(steps)
        stamp[0] = now
        print(json.dumps({"side": "rlvr", "step": row["step"], **steps[-1]}), flush=True)

    with tempfile.TemporaryDirectory() as out:
        train(cfg, out, env=parity_env(), on_row=on_row)
    return steps


def _timed_generate(model: Any, pad_id: int, record: list[tuple[float, int]]) -> None:
    """Wrap model.generate to record (seconds, completion tokens) of each call TRL makes."""
    plain = model.generate

    def generate(*a: Any, **kw: Any) -> Any:
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        t0 = time.perf_counter()
        out = plain(*a, **kw)
        seq = out if isinstance(out, torch.Tensor) else out.sequences
        width = kw["input_ids"].shape[1] if "input_ids" in kw else 0
        tokens = int((seq[:, width:] != pad_id).sum())  # the host read also waits for the GPU
        record.append((time.perf_counter() - t0, tokens))
        return out

    model.generate = generate


def run_trl(args: argparse.Namespace, folder: str) -> list[dict[str, float]]:
    from transformers import AutoModelForCausalLM, TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.integrations.trl import reward_funcs, to_hf_dataset
    from rlvr.policies.hf import load_tokenizer

    env = parity_env()
    tok = load_tokenizer(folder)
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32)
    gens: list[tuple[float, int]] = []
    _timed_generate(model, tok.pad_token_id, gens)
    steps: list[dict[str, float]] = []

    class Clock(TrainerCallback):
        def on_step_begin(self, *a: Any, **k: Any) -> None:
            self.start, self.n_gen = time.perf_counter(), len(gens)

        def on_step_end(self, *a: Any, **k: Any) -> None:
            done = gens[self.n_gen :]
            row = {
                "s": time.perf_counter() - self.start,
                "gen_s": sum(t for t, _ in done),
                "tokens": float(sum(n for _, n in done)),
            }
            steps.append(row)
            print(json.dumps({"side": "trl", "step": len(steps), **row}), flush=True)

    batch = args.g * args.prompts
    with tempfile.TemporaryDirectory() as out:
        config = GRPOConfig(
            output_dir=out,
            max_steps=args.steps,
            num_generations=args.g,
            per_device_train_batch_size=args.micro_batch,
            gradient_accumulation_steps=batch // args.micro_batch,
            max_completion_length=args.max_new_tokens,
            learning_rate=1e-6,
            beta=args.beta,
            loss_type="dapo",
            temperature=1.0,
            bf16=args.device == "cuda",
            gradient_checkpointing=args.gradient_checkpointing,
            use_cpu=args.device == "cpu",
            use_vllm=False,
            report_to="none",
            logging_steps=1,
            save_strategy="no",
            seed=0,
            disable_tqdm=True,
        )
        trainer = GRPOTrainer(
            model=model,
            reward_funcs=reward_funcs(env),
            train_dataset=to_hf_dataset(env, env.tasks()),
            args=config,
            processing_class=tok,
            callbacks=[Clock()],
        )
        trainer.train()
    return steps


def summarise(side: str, steps: list[dict[str, float]], warmup: int, peak: float) -> dict:
    """Median s/step and token rates over the steps after the warm-up."""
    kept = steps[warmup:] or steps[-1:]
    tokens = sum(s["tokens"] for s in kept)
    gen_s = sum(s["gen_s"] for s in kept)
    rest = sum(s["s"] - s["gen_s"] for s in kept)
    overlapped = side == "rlvr-async"  # sampling runs beside the update: no split of the step
    return {
        "side": side,
        "steps_measured": len(kept),
        "s_per_step": statistics.median(s["s"] for s in kept),
        "gen_tokens_per_s": tokens / gen_s if gen_s > 0 else None,
        "update_tokens_per_s": tokens / rest if rest > 0 and not overlapped else None,
        "tokens_per_step": tokens / len(kept),
        "peak_gib": peak,
        "steps": steps,
    }


def child(args: argparse.Namespace) -> None:
    torch.manual_seed(0)
    if args.device == "cpu":
        torch.set_num_threads(args.threads)
    else:
        torch.cuda.reset_peak_memory_stats()

    def done(steps: list[dict[str, float]]) -> None:
        result = summarise(args.side, steps, args.warmup, peak_memory_gib(args.device))
        Path(args.result).write_text(json.dumps(result) + "\n", encoding="utf-8")

    if args.side == "trl":
        done(run_trl(args, args.model_dir))
    else:
        run_rlvr(args, args.model_dir, args.side == "rlvr-async", done)


def passthrough(args: argparse.Namespace) -> list[str]:
    """The shared settings, as flags for a child process."""
    out = [
        f"--device={args.device}",
        f"--steps={args.steps}",
        f"--warmup={args.warmup}",
        f"--g={args.g}",
        f"--prompts={args.prompts}",
        f"--max-new-tokens={args.max_new_tokens}",
        f"--micro-batch={args.micro_batch}",
        f"--beta={args.beta}",
        f"--threads={args.threads}",
        "--gradient-checkpointing"
        if args.gradient_checkpointing
        else "--no-gradient-checkpointing",
    ]
    if args.static_cache is not None:
        out.append("--static-cache" if args.static_cache else "--no-static-cache")
    return out


def run_side(
    args: argparse.Namespace, side: str, folder: str, tmp: str, extra: tuple[str, ...] = ()
) -> dict | None:
    result = Path(tmp) / f"{side}.json"
    cmd = [sys.executable, __file__, "--side", side, "--model-dir", folder, "--result", str(result)]
    print(f"== {side} {' '.join(extra)}", flush=True)
    try:
        code = subprocess.run([*cmd, *passthrough(args), *extra], timeout=args.child_timeout)
        failed = f"failed with exit code {code.returncode}" if code.returncode else ""
    except subprocess.TimeoutExpired:
        failed = f"stopped after --child-timeout={args.child_timeout}s"
    if failed:
        print(f"{side}: {failed}", flush=True)
    if not result.is_file():  # a run stopped while writing its checkpoint keeps its figures
        return None
    return json.loads(result.read_text(encoding="utf-8"))


def run_with_fallback(args: argparse.Namespace, side: str, folder: str, tmp: str) -> dict | None:
    """Run a learner; when rlvr's compiled static-cache sampler fails, once more without it
    (labelled, so the table says which sampler the figures are from)."""
    got = run_side(args, side, folder, tmp)
    if (
        got is None
        and side.startswith("rlvr")
        and args.device == "cuda"
        and args.static_cache is None
    ):
        print(f"{side}: retrying with the dynamic-cache sampler (--no-static-cache)", flush=True)
        got = run_side(args, side, folder, tmp, ("--no-static-cache",))
        if got is not None:
            got["side"] = f"{side} (dynamic cache: static-cache run failed)"
    return got


def _fmt(x: float | None, spec: str) -> str:
    return "-" if x is None else format(x, spec)


def report(results: dict[str, dict], args: argparse.Namespace) -> dict[str, float | None]:
    """Print the table and the ratios against TRL; return the ratios."""
    mem = "peak GiB (CUDA allocated)" if args.device == "cuda" else "peak GiB (RSS)"
    print(
        f"\nshape {args.shape}, {args.device}, G={args.g}, {args.prompts} prompts/step, "
        f"{args.max_new_tokens} new tokens, micro-batch {args.micro_batch}, beta {args.beta}, "
        f"gradient checkpointing {'on' if args.gradient_checkpointing else 'off'}"
    )
    print(f"| learner | s/step | generated tok/s | update tok/s | {mem} |")
    print("| --- | --- | --- | --- | --- |")
    for r in results.values():
        print(
            f"| {r['side']} | {r['s_per_step']:.2f} | {_fmt(r['gen_tokens_per_s'], ',.0f')} | "
            f"{_fmt(r['update_tokens_per_s'], ',.0f')} | {r['peak_gib']:.2f} |"
        )
    ratios: dict[str, float | None] = {}
    trl = results.get("trl")
    for side in ("rlvr", "rlvr-async"):
        r = results.get(side)
        if trl is None or r is None:
            continue
        gen = r["gen_tokens_per_s"], trl["gen_tokens_per_s"]
        ratios[f"{side}: TRL s/step / rlvr s/step"] = trl["s_per_step"] / r["s_per_step"]
        ratios[f"{side}: rlvr gen tok/s / TRL"] = gen[0] / gen[1] if all(gen) else None
        ratios[f"{side}: rlvr memory / TRL"] = r["peak_gib"] / trl["peak_gib"]
    for name, value in ratios.items():
        print(f"{name}: {_fmt(value, '.2f')}x")
    ours = results.get("rlvr")
    if ours is not None and trl is not None:
        checks = {
            ">= 12,000 generated tokens/s": (ours["gen_tokens_per_s"] or 0) >= 12_000,
            "<= 1/3 of TRL's s/step": ours["s_per_step"] * 3 <= trl["s_per_step"],
            "<= TRL's peak memory": ours["peak_gib"] <= trl["peak_gib"],
        }
        met = "; ".join(f"{k}: {'yes' if v else 'no'}" for k, v in checks.items())
        print(f"goal ({GOAL}): {met}")
    return ratios


def save(args: argparse.Namespace, results: dict, ratios: dict) -> None:
    if not args.out:
        return
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    payload = {"settings": {k: v for k, v in vars(args).items() if k != "side_list"}}
    Path(args.out).write_text(
        json.dumps({**payload, "results": results, "ratios": ratios}, indent=1) + "\n",
        encoding="utf-8",
    )


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--shape", choices=sorted(SHAPES), default="0.5b")
    ap.add_argument("--device", choices=["cuda", "cpu"], default="cuda")
    ap.add_argument("--sides", default="rlvr,trl", help=f"comma-separated, from {SIDES}")
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--warmup", type=int, default=1, help="first steps left out of the figures")
    ap.add_argument("--g", type=int, default=8)
    ap.add_argument("--prompts", type=int, default=8)
    ap.add_argument("--max-new-tokens", type=int, default=256)
    ap.add_argument("--micro-batch", type=int, default=16)
    ap.add_argument("--beta", type=float, default=0.04)
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads (CPU runs)")
    ap.add_argument(
        "--gradient-checkpointing",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="both learners (default: on for CUDA, as TRL's default; off on the CPU)",
    )
    ap.add_argument(
        "--static-cache",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="rlvr's static-cache compiled sampler (default: on for CUDA)",
    )
    ap.add_argument("--child-timeout", type=int, default=300, help="seconds per learner")
    ap.add_argument("--out", help="also write the results as JSON here")
    ap.add_argument("--side", choices=SIDES, help=argparse.SUPPRESS)
    ap.add_argument("--model-dir", help=argparse.SUPPRESS)
    ap.add_argument("--result", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.gradient_checkpointing is None:
        args.gradient_checkpointing = args.device == "cuda"
    sides = [s for s in args.sides.split(",") if s]
    bad = [s for s in sides if s not in SIDES]
    if bad:
        ap.error(f"--sides: unknown {bad}; use names from {SIDES}")
    if (args.g * args.prompts) % args.micro_batch:
        ap.error(
            f"--micro-batch={args.micro_batch} must divide G x prompts = {args.g * args.prompts}"
        )
    args.side_list = sides
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    if args.side:
        child(args)
        return
    if args.device == "cuda" and not torch.cuda.is_available():
        sys.exit("error: --device cuda but torch sees no CUDA device; use --device cpu")
    if args.device == "cuda":
        print(f"device: {torch.cuda.get_device_name(0)}, torch {torch.__version__}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = str(Path(tmp) / "model")
        t0 = time.perf_counter()
        build_model(Path(folder), args.device, SHAPES[args.shape])
        print(f"built the {args.shape} model in {time.perf_counter() - t0:.1f}s", flush=True)
        results: dict[str, dict] = {}
        for side in args.side_list:
            got = run_with_fallback(args, side, folder, tmp)
            if got is not None:
                results[side] = got
                brief = {k: v for k, v in got.items() if k != "steps"}
                print(json.dumps(brief), flush=True)
                save(args, results, {})  # a run stopped later keeps what it measured
    save(args, results, report(results, args))
    if len(results) < len(args.side_list):
        sys.exit(f"error: {len(args.side_list) - len(results)} learner run(s) failed; see above")


if __name__ == "__main__":
    main()
