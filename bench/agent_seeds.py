"""Does the demo's agent claim hold across seeds? The agent stage exactly as `rlvr demo` runs it
(rlvr.demo.AGENT through rlvr.demo.run_stage), once per seed of its frontier and GRPO.

The warm start (tiny-columns-agent-sft) is the demo's own for every seed: built once on this
machine, as a user's demo builds it. Each row is the held-out paired difference on the 383
math-columns-retry test pairs, with the episode figures before and after (the share of episodes
with a submit_answer call the tool carried out, pass@1 without a retry and after one).

    python bench/agent_seeds.py --seeds 8 --jobs 2 --out runs/agent-seeds

Rows append to OUT/results.jsonl (a rerun skips the seeds there); OUT/seeds.md holds the table.
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

from demo_seeds import _paired, verdict

from rlvr.demo import AGENT, run_stage
from rlvr.demo_transcripts import episode_figures


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
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    results = args.out / "results.jsonl"
    done = (
        {json.loads(x)["seed"] for x in results.read_text().splitlines()}
        if results.is_file()
        else set()
    )
    todo = [s for s in range(args.seeds) if s not in done]
    with ProcessPoolExecutor(args.jobs, mp_context=get_context("spawn")) as pool:
        frontier = (args.frontier_tasks, args.frontier_samples)
        futures = {pool.submit(one, s, str(args.out), *frontier): s for s in todo}
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
    (args.out / "seeds.md").write_text(md)
    print(md)


if __name__ == "__main__":
    main()
