"""What stopping at the first closed fence saves: the same evaluation with the stop off and on.

    python bench/fence_stop.py --model smollm2-135m --env synth-python --n-tasks 32 \\
        --max-new-tokens 256 --out runs/fence-stop

Runs `rlvr eval` twice through the API on the same tasks of the TRAIN split (a validation
slice: never tune on the test split), greedy, with `stop_at_closed_fence` off (the model
decodes on after its block) and on (the environment's setting), one after the other in one
process, and prints generated tokens, wall time, and pass@1 with the paired difference. The
decoding stops where the grader's block rule says the answer ends, so pass@1 should not move
while tokens and time drop.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import rlvr
from rlvr.evaluation.passk import paired_difference
from rlvr.evaluation.run import EvalConfig, run_eval
from rlvr.models import make_policy


def tokens_of(folder: Path) -> int:
    """Generated tokens over every stored sample of an eval folder."""
    total = 0
    for line in (folder / "groups.jsonl").read_text().splitlines():
        total += sum(len(s["token_ids"] or []) for s in json.loads(line)["samples"])
    return total


def per_task(folder: Path) -> dict[str, float]:
    rows = [json.loads(x) for x in (folder / "per_task.jsonl").read_text().splitlines() if x]
    return {r["task_id"]: float(r["pass@1"]) for r in rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--env", default="synth-python")
    ap.add_argument("--n-tasks", type=int, default=32)
    ap.add_argument("--max-new-tokens", type=int, default=256)
    ap.add_argument("--batch-tasks", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", default="runs/fence-stop")
    args = ap.parse_args()

    policy = make_policy(args.model, threads=args.threads)
    rows = []
    for stop in (False, True):
        env = rlvr.load_env(args.env, stop_at_closed_fence=stop)
        out = Path(args.out) / ("stop" if stop else "no-stop")
        config = EvalConfig(
            env=args.env, model=args.model, split="train", n=1, temperature=0.0,
            max_new_tokens=args.max_new_tokens, n_tasks=args.n_tasks,
            batch_tasks=args.batch_tasks,
        )  # fmt: skip
        summary = run_eval(env, policy, config, out)
        rows.append((stop, out, summary))

    print(f"{args.model} on {args.env} (train split, {args.n_tasks} tasks, greedy, "
          f"cap {args.max_new_tokens} tokens, {args.threads} thread(s))")  # fmt: skip
    print("| stop at closed fence | generated tokens | wall s | tokens/s | pass@1 |")
    print("| --- | --- | --- | --- | --- |")
    for stop, out, s in rows:
        toks = tokens_of(out)
        est = s.pass_at["pass@1"]
        lo, hi = est.ci95 or [0.0, 0.0]
        print(f"| {'on' if stop else 'off'} | {toks:,} | {s.wall_s:.0f} | {toks / s.wall_s:.1f} | "
              f"{est.mean or 0.0:.3f} [{lo:.3f}, {hi:.3f}] |")  # fmt: skip
    off, on = per_task(rows[0][1]), per_task(rows[1][1])
    shared = sorted(set(off) & set(on))
    d = paired_difference([off[t] for t in shared], [on[t] for t in shared])
    lo, hi = d.ci95
    print(f"pass@1 on - off: {d.diff:+.3f} [{lo:+.3f}, {hi:+.3f}], p = {d.p_value:.2f}")
    t_off, t_on = tokens_of(rows[0][1]), tokens_of(rows[1][1])
    print(f"tokens saved: {1 - t_on / t_off:.0%}; wall time ratio off/on: "
          f"{rows[0][2].wall_s / rows[1][2].wall_s:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
