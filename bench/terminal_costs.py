"""What a terminal episode costs in the sandbox: opening its container, a `bash` call, the judge
and removal, timed on one task (medians over several episodes).

    python bench/terminal_costs.py [--episodes 5] [--calls 5] [--task count-error-lines]
"""

from __future__ import annotations

import argparse
import statistics
import time

from rlvr.registry import load_env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--episodes", type=int, default=5)
    ap.add_argument("--calls", type=int, default=5, help="bash calls per episode")
    ap.add_argument("--task", default="count-error-lines")
    args = ap.parse_args()
    env = load_env("terminal")
    task, grader = env.task(args.task), env.grader
    times: dict[str, list[float]] = {"open": [], "bash": [], "judge": [], "close": []}
    for _ in range(args.episodes):
        start = time.perf_counter()
        box = grader.open_box(task)  # type: ignore[attr-defined]
        times["open"].append(time.perf_counter() - start)
        for _ in range(args.calls):
            start = time.perf_counter()
            box.bash("wc -l app.log", 30, 16 << 10)
            times["bash"].append(time.perf_counter() - start)
        start = time.perf_counter()
        grader.judge(box, task)  # type: ignore[attr-defined]
        times["judge"].append(time.perf_counter() - start)
        start = time.perf_counter()
        box.close()
        times["close"].append(time.perf_counter() - start)
    for name, xs in times.items():
        print(f"{name:5s} median {statistics.median(xs):.3f} s  min {min(xs):.3f}  "
              f"max {max(xs):.3f}  (n={len(xs)})")  # fmt: skip


if __name__ == "__main__":
    main()
