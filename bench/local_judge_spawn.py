"""How the unsafe local judge starts an answer, against Python's preexec_fn, from a large parent.

    python bench/local_judge_spawn.py --parent-gib 1 6 --jobs 40 --workers 4

A training process is large (weights, optimiser state, a GPU context). `subprocess.Popen` with a
`preexec_fn` must fork() that whole process for every answer, one at a time; the local judge
instead execs through a small wrapper that sets the rlimits (`rlvr.sandbox.local.limited`:
prlimit, else a Python one-liner), so Popen can use vfork. Each job here is `true` under a CPU
limit, started from `--workers` threads of a parent holding `--parent-gib` GiB of touched memory.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from rlvr.sandbox.local import limited


def _cpu_limit() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (5, 5))


def preexec_job(_: int) -> None:
    """The peer: Python's own way, the rlimit set in a preexec_fn."""
    subprocess.Popen(["true"], stdin=subprocess.DEVNULL, start_new_session=True,
                     preexec_fn=_cpu_limit).wait()  # fmt: skip


def wrapper_job(_: int) -> None:
    subprocess.Popen(limited(["true"], 5, 1 << 26), stdin=subprocess.DEVNULL,
                     start_new_session=True).wait()  # fmt: skip


def per_job_ms(job: object, jobs: int, workers: int) -> float:
    start = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(job, range(jobs)))  # type: ignore[arg-type]
    return (time.perf_counter() - start) / jobs * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--parent-gib", type=float, nargs="+", default=[1.0, 6.0])
    ap.add_argument("--jobs", type=int, default=40)
    ap.add_argument("--workers", type=int, default=4)
    args = ap.parse_args()
    print(f"{'parent':>8} {'preexec_fn':>12} {'rlvr wrapper':>13} {'ratio':>7}")
    for gib in args.parent_gib:
        held = torch.ones(int(gib * (1 << 28)))  # float32: 2^28 values per GiB, all touched
        old = per_job_ms(preexec_job, args.jobs, args.workers)
        new = per_job_ms(wrapper_job, args.jobs, args.workers)
        print(f"{gib:>6.1f} G {old:>9.1f} ms {new:>10.1f} ms {old / new:>6.1f}x")
        del held


if __name__ == "__main__":
    main()
