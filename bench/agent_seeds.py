"""Does the demo's agent claim hold across seeds? The agent stage exactly as `rlvr demo` runs it
(rlvr.demo.AGENT through rlvr.demo.run_stage), once per seed of its frontier and GRPO.

The warm start (tiny-columns-agent-sft) is the demo's own for every seed: built once on this
machine, as a user's demo builds it. Each row is the held-out paired difference on the 383
math-columns-retry test pairs, with the episode figures before and after (the share of episodes
with a submit_answer call the tool carried out, pass@1 without a retry and after one).

    python bench/agent_seeds.py --seeds 8 --jobs 2 --out runs/agent-seeds

Rows append to OUT/results.jsonl (a rerun skips the seeds there); OUT/seeds.md holds the table.

--phase validation measures the same settings without the test split: seed s builds its own
warm starts (tiny-columns-sft, then tiny-columns-agent-sft, both with seed s's data order and
both leaving out bench/demo_seeds.py's 128-pair validation slice), the frontier and GRPO run on
the rest of the train split, and the episodes are evaluated on the slice before and after
(OUT/validation.jsonl, OUT/validation.md). --quick shrinks every budget (the plumbing only).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import replace
from multiprocessing import get_context
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from demo_seeds import _paired, validation_slice, verdict

from rlvr.demo import AGENT, run_stage
from rlvr.demo_transcripts import episode_figures
from rlvr.registry import load_env


def one(
    seed: int, out: str, frontier_tasks: int | None = None, frontier_samples: int | None = None
) -> dict[str, Any]:
    """A worker process: one seed of the agent stage, its row."""
    import torch

    torch.set_num_threads(int(os.environ.get("DEMO_SEEDS_THREADS", "1")))
    start = time.perf_counter()
    stage = replace(AGENT, name=f"seed{seed}", seed=seed)
    if frontier_tasks is not None:
        stage = replace(stage, frontier_tasks=frontier_tasks)
    if frontier_samples is not None:
        stage = replace(stage, frontier_samples=frontier_samples)
    result = run_stage(stage, out)
    folder = Path(out) / stage.name
    return {"seed": seed, "kept": result.frontier["kept"],
            **_paired(folder / "eval-before", folder / "eval-after"),
            "episodes_before": episode_figures(result.before),
            "episodes_after": episode_figures(result.after),
            "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip


def validation_run(seed: int, out: str, samples: int, quick: bool = False) -> dict[str, Any]:
    """A worker process: the agent stage's settings from seed's warm starts that leave the
    128-pair validation slice out (both the math and the agent SFT), trained on the rest of
    the train split, episodes on the slice before and after; the test split is never read."""
    import torch

    from rlvr.evaluation.run import EvalConfig, run_eval
    from rlvr.frontier_report import run_frontier
    from rlvr.learners.config import load_config
    from rlvr.learners.run import train
    from rlvr.models import make_policy, resolve_model
    from rlvr.policies.base import SamplingConfig
    from rlvr.rollout import RolloutConfig
    from rlvr.tiny_agent import tiny_columns_agent_sft_dir

    torch.set_num_threads(int(os.environ.get("DEMO_SEEDS_THREADS", "1")))
    start = time.perf_counter()
    env = load_env(AGENT.env)
    val_ids = {t.id for t in validation_slice()[0]}
    train_tasks = env.tasks_in("train")
    val = [t for t in train_tasks if t.id in val_ids]
    rest = [t for t in train_tasks if t.id not in val_ids]
    folder = Path(out) / "validation" / f"seed{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    tasks_file = folder / "validation.jsonl"
    tasks_file.write_text("".join(t.model_dump_json() + "\n" for t in val))
    short = {"steps": 4, "base_steps": 4} if quick else {}  # --quick: the plumbing, not a model
    model = str(tiny_columns_agent_sft_dir(None, seed=seed, leave_out=val_ids, **short))
    sampling = SamplingConfig(seed=seed, max_new_tokens=AGENT.max_new_tokens)
    report, paths = run_frontier(
        env,
        make_policy(model),
        rest[:16] if quick else rest,
        RolloutConfig(g=2 if quick else AGENT.frontier_samples, sampling=sampling),
        folder / "frontier.jsonl",
        exclusive=not quick,  # a 4-step warm start passes nothing: keep every task
    )
    overrides = {
        **AGENT.train,
        "env": AGENT.env,
        "model": model,
        "algo": "grpo",
        "seed": seed,
        "steps": 2 if quick else AGENT.steps,
        "eval_every": 0,
        "eval_tasks": 0,  # never the test split here
        "tasks": str(paths["tasks"]),
        "max_new_tokens": AGENT.max_new_tokens,
    } | ({"prompts_per_step": 4, "micro_batch_size": 8, "save_every": 1} if quick else {})
    run_dir = train(load_config(None, overrides), folder / "grpo", env=env)
    summaries = []
    for name, m in (("eval-before", model), ("eval-after", str(run_dir))):
        config = EvalConfig(env=env.name, model=m, model_path=resolve_model(m), split="train",
                            tasks=str(tasks_file), n=2 if quick else samples, k=[1],
                            max_new_tokens=AGENT.max_new_tokens)  # fmt: skip
        summaries.append(run_eval(env, make_policy(m), config, folder / name))
    return {"phase": "validation", "seed": seed, "kept": report.kept, "eval_samples": samples,
            **_paired(folder / "eval-before", folder / "eval-after"),
            "episodes_before": episode_figures(summaries[0]),
            "episodes_after": episode_figures(summaries[1]),
            "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| seed | kept | before | after | diff [95% CI] | p | tool call | after a retry |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for r in sorted(rows, key=lambda r: r["seed"]):
        b, a = r["episodes_before"], r["episodes_after"]
        lines.append(
            f"| {r['seed']} | {r['kept']} | {r['before']:.3f} | {r['after']:.3f} | "
            f"{r['diff']:+.3f} [{r['lo']:+.3f}, {r['hi']:+.3f}] | {r['p']:.4f} | "
            f"{b['called']:.2f} -> {a['called']:.2f} | "
            f"{b['after_retry']:+.3f} -> {a['after_retry']:+.3f} |"
        )
    wins, worst = verdict(rows)
    lines.append(f"\n{wins} of {len(rows)} seeds rise at p < 0.05; worst {worst:+.3f}")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=1, help="processes at once")
    ap.add_argument("--out", type=Path, default=Path("runs/agent-seeds"))
    ap.add_argument("--frontier-tasks", type=int, help="train tasks the frontier samples "
                    "(default: the stage's own)")  # fmt: skip
    ap.add_argument("--frontier-samples", type=int, help="episodes per frontier task "
                    "(default: the stage's own, 8)")  # fmt: skip
    ap.add_argument("--phase", choices=["test", "validation"], default="test",
                    help="validation: the stage's settings on the 128-pair slice, from warm "
                    "starts that leave it out")  # fmt: skip
    ap.add_argument("--eval-samples", type=int, default=8, help="validation: episodes a pair")
    ap.add_argument("--quick", action="store_true", help="validation with tiny budgets")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    name = "results.jsonl" if args.phase == "test" else "validation.jsonl"
    results = args.out / name
    done = (
        {json.loads(x)["seed"] for x in results.read_text().splitlines()}
        if results.is_file()
        else set()
    )
    todo = [s for s in range(args.seeds) if s not in done]
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn")) as pool:
        frontier = (args.frontier_tasks, args.frontier_samples)
        futures = {
            pool.submit(one, s, str(args.out), *frontier)
            if args.phase == "test"
            else pool.submit(validation_run, s, str(args.out), args.eval_samples, args.quick): s
            for s in todo
        }
        for future in as_completed(futures):
            try:
                row = future.result()
            except Exception as e:  # one failed seed is reported; the others still count
                print(f"seed {futures[future]}: failed: {e!r}", flush=True)
                continue
            with results.open("a") as fh:
                fh.write(json.dumps(row) + "\n")
            line = f"{row['before']:.3f} -> {row['after']:.3f} {row['diff']:+.3f} p={row['p']:.4f}"
            print(f"seed {row['seed']}: {line} ({row['seconds']} s)", flush=True)
    rows = [json.loads(x) for x in results.read_text().splitlines() if x.strip()]
    md = table(rows)
    (args.out / ("seeds.md" if args.phase == "test" else "validation.md")).write_text(md)
    print(md)


if __name__ == "__main__":
    main()
