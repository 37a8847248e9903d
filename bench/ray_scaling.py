"""Grading throughput on Ray: HumanEval canonical solutions x 8, local pool vs 1 and 2 actors.

    python bench/ray_scaling.py [--limit N] [--copies 8] [--in-flight 2]

Three runs over the same groups (one group = one task's canonical solution, `--copies` times,
each with its own trailing comment so that every answer is graded: identical answers would be
graded once per group):

- local:   the environment's own grader on this process's warm container pool, groups
           submitted from `--in-flight` x 1 threads (what `rlvr grade` does without --ray);
- ray x1:  one grader actor on a local Ray cluster, `--in-flight` groups at a time;
- ray x2:  two grader actors (each with its own container pool) on the same machine.

Each run is warmed first (containers started, actors up), then timed. Prints answers/s per
run, the ratios, Ray's overhead over the local pool, and the dispatch floor (math groups that
grade in microseconds, so the time is Ray's round trip); the last line is JSON. Every verdict
is checked: a canonical solution that does not pass is counted (a timeout on a loaded machine
shows up there, not as a crash).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import rlvr
from rlvr.distributed.cluster import connect, require_ray
from rlvr.distributed.grading import RayGradingPool
from rlvr.types import Task, Verdict

Groups = list[tuple[Task, list[str]]]


def timed(grade: Callable[[Task, list[str]], list[Verdict]], groups: Groups, threads: int):
    """(seconds, answers that did not pass) for grading every group with `threads` callers."""
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as ex:
        results = list(ex.map(lambda g: grade(*g), groups))
    took = time.perf_counter() - start
    failed = sum(not v.passed for verdicts in results for v in verdicts)
    return took, failed


def run_local(env: rlvr.Environment, groups: Groups, threads: int) -> tuple[float, int]:
    timed(env.grade, groups[:threads], threads)  # warm: start the pool's containers
    return timed(env.grade, groups, threads)


def run_ray(env: rlvr.Environment, groups: Groups, actors: int, in_flight: int):
    with RayGradingPool(env, actors=actors, in_flight=in_flight) as pool:
        timed(pool.grade, groups[: pool.capacity], pool.capacity)  # warm every actor's pool
        took, failed = timed(pool.grade, groups, pool.capacity)
        assert pool.stats.retries == 0 and pool.stats.gave_up == 0, pool.stats
    return took, failed


def dispatch_overhead(n: int, threads: int) -> dict[str, float]:
    """Per-group cost of the Ray path itself: math groups whose grading is a plain-number
    comparison (microseconds), graded locally and on one actor."""
    env = rlvr.load_env("math")
    tasks = (env.tasks() * (n // len(env.tasks()) + 1))[:n]
    groups = [(t, [f"\\boxed{{{t.gold}}}"]) for t in tasks]
    local, _ = timed(env.grade, groups, threads)
    with RayGradingPool(env, actors=1, in_flight=threads) as pool:
        timed(pool.grade, groups[:threads], threads)
        remote, _ = timed(pool.grade, groups, threads)
    return {"local_ms": local / n * 1000, "ray_ms": remote / n * 1000,
            "ray_groups_per_s": n / remote}  # fmt: skip


def summarise(runs: list[tuple[float, int]], answers: int) -> dict[str, float]:
    """The median run (by time) of the rounds, as seconds, answers/s and failures."""
    took, failed = sorted(runs)[len(runs) // 2]
    return {"seconds": took, "answers_per_s": answers / took, "not_passed": failed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="Use the first N tasks (164).")
    ap.add_argument("--copies", type=int, default=8, help="Answers per group (G).")
    ap.add_argument("--in-flight", type=int, default=2, help="Groups per actor at once.")
    ap.add_argument("--rounds", type=int, default=1, help="Interleaved rounds; medians shown.")
    args = ap.parse_args()

    env = rlvr.load_env("humaneval")
    tasks = env.tasks()[: args.limit]
    groups = [
        (t, [f"{t.reference or ''}\n# copy {i}\n" for i in range(args.copies)]) for t in tasks
    ]
    answers = len(groups) * args.copies
    cpus = os.cpu_count() or 1
    print(f"{len(groups)} groups x {args.copies} = {answers} answers; {cpus} CPUs; "
          f"container pool per process/actor: {cpus}")  # fmt: skip

    runs: dict[str, list[tuple[float, int]]] = {"local": [], "ray_x1": [], "ray_x2": []}
    connect(num_cpus=cpus)
    for _ in range(args.rounds):  # interleaved, so a load change on the machine hits all three
        runs["local"].append(run_local(env, groups, args.in_flight))
        for actors in (1, 2):
            runs[f"ray_x{actors}"].append(run_ray(env, groups, actors, args.in_flight))
    floor = dispatch_overhead(400, args.in_flight)
    require_ray().shutdown()
    rows = {name: summarise(r, answers) for name, r in runs.items()}

    for name, r in rows.items():
        per_s = r["answers_per_s"]
        print(f"{name:8s} {r['seconds']:7.2f} s  {per_s:7.1f} answers/s  "
              f"{per_s / args.copies:6.2f} groups/s  not passed: {r['not_passed']}")  # fmt: skip
    base = rows["local"]["answers_per_s"]
    ratios = {
        "ray_x1_over_local": rows["ray_x1"]["answers_per_s"] / base,
        "ray_x2_over_local": rows["ray_x2"]["answers_per_s"] / base,
        "ray_x2_over_ray_x1": rows["ray_x2"]["answers_per_s"] / rows["ray_x1"]["answers_per_s"],
    }
    overhead_ms = (rows["ray_x1"]["seconds"] - rows["local"]["seconds"]) / len(groups) * 1000
    for k, v in ratios.items():
        print(f"{k}: {v:.2f}")
    print(f"Ray overhead over the local pool: {overhead_ms:+.1f} ms per group "
          f"({(1 / ratios['ray_x1_over_local'] - 1) * 100:+.1f}% time)")  # fmt: skip
    print(f"dispatch floor (math plain numbers, 1 actor, {args.in_flight} in flight): "
          f"{floor['ray_ms']:.2f} ms/group on Ray vs {floor['local_ms']:.2f} ms locally "
          f"= {floor['ray_groups_per_s']:.0f} groups/s through one actor")  # fmt: skip
    print(json.dumps({"groups": len(groups), "copies": args.copies, "cpus": cpus, **rows,
                      **ratios, "ray_overhead_ms_per_group": overhead_ms,
                      "dispatch": floor}))  # fmt: skip


if __name__ == "__main__":
    main()
