"""Grading a sharpened policy's groups: every copy graded (as before) against each distinct
answer graded once (Environment.grade's default).

For each stack, the first N train tasks of `synth-<stack>` get a group of G answers with few
distinct ones, as a policy that has sharpened produces: by default 8 answers of which 3 differ
(the reference 4 times, the reference with a trailing comment 3 times, with another comment
once; all compile and pass, so each distinct answer costs a full build and run). The groups are
graded with `Environment.grade`, four at a time as `rlvr rollout` and the learners grade them,
first with every copy sent to the grader (`deterministic = False` on the grader: what main did
before), then with the default. The two runs' rewards must agree.

    python bench/grade_once.py [--stacks go,rust,python] [--tasks 6] [--mix 4,3,1]

Prints per stack and mode: wall seconds, sandbox programs run and execs, and CPU seconds (this
process and its children, plus its sandbox containers' cgroup `cpuacct.usage` and shims, as
bench/code_grader.py counts them; dockerd and containerd apart).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor

from code_grader import _cpu

import rlvr
from rlvr.env import Environment
from rlvr.types import Task

COMMENT = {"python": "#", "javascript": "//", "go": "//", "rust": "//"}


def groups_for(env: Environment, stack: str, n: int, mix: list[int]) -> list[tuple[Task, list]]:
    """G = sum(mix) answers per task: `mix[k]` copies of the k-th distinct answer."""
    out = []
    for task in env.tasks_in("train")[:n]:
        code = (task.reference or "").rstrip("\n")
        tails = [""] + [f"\n{COMMENT[stack]} variant {k}" for k in range(1, len(mix))]
        variants = [f"```{stack}\n{code}{tail}\n```" for tail in tails]
        out.append(
            (task, [v for v, copies in zip(variants, mix, strict=True) for _ in range(copies)])
        )
    return out


def run(env: Environment, groups: list[tuple[Task, list]], every_copy: bool) -> dict:
    env.grader.deterministic = not every_copy  # type: ignore[attr-defined]
    pool = env.grader.pool  # type: ignore[attr-defined]
    execs0, programs0, cpu0 = pool.execs, pool.programs, _cpu()
    t0 = time.perf_counter()
    with ThreadPoolExecutor(4) as ex:  # RolloutConfig.grade_workers
        verdicts = list(ex.map(lambda g: env.grade(*g), groups))
    wall = time.perf_counter() - t0
    cpu1 = _cpu()
    return {
        "wall_s": round(wall, 2),
        "programs": pool.programs - programs0,
        "execs": pool.execs - execs0,
        **{f"cpu_{k}_s": round(cpu1[k] - cpu0[k], 2) for k in cpu0},
        "passed": sum(v.passed for vs in verdicts for v in vs),
        "answers": sum(len(vs) for vs in verdicts),
        "rewards": [[v.reward for v in vs] for vs in verdicts],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--stacks", default="go,rust,python")
    ap.add_argument("--tasks", type=int, default=6, help="train tasks per stack")
    ap.add_argument("--mix", default="4,3,1", help="copies of each distinct answer in a group")
    ap.add_argument("--json", action="store_true", help="also print one JSON line of results")
    args = ap.parse_args()
    mix = [int(x) for x in args.mix.split(",")]
    print(f"groups of {sum(mix)} answers, {len(mix)} distinct ({args.mix}); "
          f"load average {os.getloadavg()}")  # fmt: skip
    results: dict[str, dict] = {}
    for stack in args.stacks.split(","):
        env = rlvr.load_env(f"synth-{stack}")
        groups = groups_for(env, stack, args.tasks, mix)
        env.grade(groups[0][0], groups[0][1][:1])  # a warm container, not counted
        before, after = run(env, groups, every_copy=True), run(env, groups, every_copy=False)
        assert before.pop("rewards") == after.pop("rewards"), "the two modes disagree"
        results[stack] = {"every_copy": before, "once": after}
        for mode, r in results[stack].items():
            cpu = r["cpu_host_s"] + r["cpu_containers_s"]
            print(
                f"{stack:8s} {mode:10s} wall {r['wall_s']:6.1f} s  programs {r['programs']:3d}  "
                f"execs {r['execs']:3d}  passed {r['passed']}/{r['answers']}  CPU {cpu:6.1f} s "
                f"(host {r['cpu_host_s']:.1f}, containers {r['cpu_containers_s']:.1f}; "
                f"daemons {r['cpu_daemons_s']:.1f})",
                flush=True,
            )
        ratio = before["wall_s"] / after["wall_s"]
        print(f"{stack:8s} once / every copy: {ratio:.2f}x faster (wall clock)", flush=True)
    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}")
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
