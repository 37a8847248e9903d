"""`rlvr envs validate --references`: one exec per reference, one batched call, spread batches.

Grades the same references (`--tasks N` of an environment, chosen by the hash of their ids)
in one process, three ways:

- one exec per reference: `check_references` with the function judge's `batch_size = 1` (how
  the issue measured validation: a `docker exec` per task);
- one batched call: `rlvr.grading.grade_items` on all of them (one `grade_groups` call: the
  judge packs them into ceil(n / batch_size) execs of up to `batch_size` jobs);
- spread: `check_references`, as `rlvr envs validate --references` runs it: the one batched
  call, except when its execs would be fewer than the pool's containers (8 references: one
  exec of 8 on one container); then one call per container with its share (4 execs of 2).

All three use the same warm container pool (warmed first on other tasks), and the modes
alternate over `--rounds`, so load on a shared machine hits them alike. Prints per round and
mode: references, passed, execs, wall seconds, seconds per reference.

Run: python bench/validate_references.py [--env synth-go] [--tasks 64] [--rounds 1]
     [--modes per-reference,one-call,spread]
(needs Docker and the stack image: rlvr sandbox build go)
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from rlvr.grading import GradeItem, grade_items
from rlvr.references import check_references, choose_tasks, reference_completion
from rlvr.registry import load_env


def counted(env: Any) -> list[int]:
    """Wrap the function judge's exec so every `docker exec` is counted (its job count)."""
    calls: list[int] = []
    grader = env.grader
    run_batch = grader._run_batch

    def wrapped(pool: Any, chunk: list) -> Any:
        calls.append(len(chunk))
        return run_batch(pool, chunk)

    grader._run_batch = wrapped
    return calls


def measure(env_name: str, tasks: list, mode: str) -> dict[str, Any]:
    options = {"batch_size": 1} if mode == "per-reference" else {}
    env = load_env(env_name, grader_options=options)
    calls = counted(env)
    start = time.monotonic()
    if mode == "one-call":
        items = [GradeItem(t.id, reference_completion(env, t)) for t in tasks]
        passed = sum(bool(r["passed"]) for r in grade_items(env, items))
    else:
        passed = sum(r.passed for r in check_references(env, tasks=tasks))
    wall = time.monotonic() - start
    return {
        "batch_size": env.grader.options.batch_size,
        "references": len(tasks),
        "passed": passed,
        "execs": len(calls),
        "exec_sizes": sorted(calls, reverse=True),
        "wall_s": round(wall, 1),
        "s_per_reference": round(wall / max(1, len(tasks)), 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--env", default="synth-go")
    ap.add_argument("--tasks", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--modes", default="per-reference,one-call,spread",
                    help="comma-separated, run in this order each round")  # fmt: skip
    args = ap.parse_args()
    env = load_env(args.env)
    if env.grader.name != "function":
        raise SystemExit(
            f"{args.env}: grader {env.grader.name!r}; this bench needs the function judge"
        )
    tasks = choose_tasks(env.tasks(), args.tasks, "hash")
    chosen = {t.id for t in tasks}
    warm = [t for t in env.tasks() if t.id not in chosen][: 2 * (os.cpu_count() or 1)]
    check_references(env, tasks=warm)  # start the pool's containers outside the timings
    print(f"{args.env}: {len(tasks)} hash-chosen tasks, pool warmed on {len(warm)} others; "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    labels = {
        "per-reference": "one exec per reference",
        "one-call": "one batched call",
        "spread": "spread over the pool",
    }
    for r in range(args.rounds):
        for mode in args.modes.split(","):
            row = measure(args.env, tasks, mode)
            print(f"round {r + 1} {labels[mode]:<24} {row}", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
