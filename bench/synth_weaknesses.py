"""Check every synth task's hidden cases against its near misses, on fresh input pools.

`tests/test_synth.py` checks one task in four of every family (the check is as slow as the
generator); this script checks all of them, on as many independent pools (streams) as asked:

    python bench/synth_weaknesses.py                     # stream "audit", the test's own
    python bench/synth_weaknesses.py --streams audit2 audit3

It prints, per stream, how many tasks let a distinguishable near miss through (0 is the goal)
and names them. Exit status 1 when any does.
"""

from __future__ import annotations

import argparse
import sys
import time

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from rlvr.tasksets.synth import SEED, generate
from rlvr.tasksets.synth.generate import PER_LEVEL, weaknesses


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", nargs="+", default=["audit"])
    ap.add_argument("--per-level", type=int, default=PER_LEVEL)
    args = ap.parse_args()
    start = time.perf_counter()
    tasks = generate(SEED, args.per_level)
    print(f"generated {len(tasks)} tasks in {time.perf_counter() - start:.0f} s")
    weak: dict[str, list[str]] = {s: [] for s in args.streams}
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())  # fmt: skip
    with Progress(*columns, transient=True) as bar:
        for stream in args.streams:
            job = bar.add_task(f"stream {stream}", total=len(tasks))
            for task in tasks:
                if weaknesses(task, stream=stream):
                    weak[stream].append(task.id)
                bar.advance(job)
    for stream, ids in weak.items():
        print(f"stream {stream}: {len(ids)} of {len(tasks)} tasks weak {' '.join(ids)}".rstrip())
    return 1 if any(weak.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
