"""Does grading hide behind generation? Time generation alone, grading alone, and the pipeline.

    python bench/rollout_overlap.py [--model tiny-sft] [--n-tasks 64] [-G 8]

All three phases sample with the same seeds, so they do the same work. The pipeline overlaps
the two when its time is close to the slower phase alone: the printed ratio
pipeline / max(generation, grading) should be at most about 1.1.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ThreadPoolExecutor

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import rlvr
from rlvr.models import make_policy
from rlvr.policies.base import SamplingConfig
from rlvr.rollout import (
    RolloutConfig,
    run_pipeline,
    sampling_for_batch,
    score_group,
)
from rlvr.selection import select_tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="math")
    parser.add_argument("--model", default="tiny-sft")
    parser.add_argument("--n-tasks", type=int, default=64)
    parser.add_argument("--difficulty", default=None)
    parser.add_argument("-G", type=int, default=8)
    parser.add_argument("--batch-tasks", type=int, default=8)
    parser.add_argument("--grade-workers", type=int, default=4)
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()

    env = rlvr.load_env(args.env)
    tasks = select_tasks(env, args.n_tasks, args.difficulty)
    policy = make_policy(args.model, device=args.device)
    config = RolloutConfig(
        g=args.G,
        sampling=SamplingConfig(seed=0),
        batch_tasks=args.batch_tasks,
        grade_workers=args.grade_workers,
    )
    batches = [tasks[i : i + args.batch_tasks] for i in range(0, len(tasks), args.batch_tasks)]

    # Warm-up: first generate call and the grader's worker processes.
    warm = policy.sample([env.messages(tasks[0])], 2, SamplingConfig(seed=0))
    score_group(env, tasks[0], warm[0], config)

    start = time.perf_counter()
    generated = []
    for b, batch in enumerate(batches):
        groups = policy.sample(
            [env.messages(t) for t in batch],
            args.G,
            sampling_for_batch(config, b),
            [t.id for t in batch],
        )
        generated.extend(zip(batch, groups, strict=True))
    generation_s = time.perf_counter() - start

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.grade_workers) as pool:
        list(pool.map(lambda pair: score_group(env, pair[0], pair[1], config), generated))
    grading_s = time.perf_counter() - start

    times = run_pipeline(env, policy, tasks, config, on_group=lambda group: None)
    pipeline_s = times.wall_s

    slower = max(generation_s, grading_s)
    samples = len(tasks) * args.G
    print(f"env {args.env}, model {args.model}, {len(tasks)} tasks x G={args.G} = {samples}")
    print(f"generation alone  {generation_s:8.2f} s")
    print(f"grading alone     {grading_s:8.2f} s")
    print(f"sequential sum    {generation_s + grading_s:8.2f} s")
    print(f"pipeline          {pipeline_s:8.2f} s")
    print(f"ratio pipeline / max(generation, grading) = {pipeline_s / slower:.3f}  (goal <= 1.1)")


if __name__ == "__main__":
    main()
