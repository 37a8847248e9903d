"""What a Harbor-mode episode costs beside a strong-mode one, on the same machine and run.

Time to the first episode of a task whose image is not built (cold: docker build of its
environment/), the same with the image cached, then per episode: open (container start), one
`bash` call, the verifier (Harbor: test.sh with the toolbox's uvx pytest; strong: rlvr's judge
on a snapshot) and removal. Medians over several episodes; ratios are Harbor / strong.

    python bench/harbor_costs.py [--episodes 5] [--harbor-task hello-world]
                                 [--strong-task count-error-lines]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from rlvr.registry import load_env
from rlvr.sandbox.client import get_client
from rlvr.sandbox.task_images import task_image
from rlvr.types import Task


def timed(times: dict[str, list[float]], name: str, fn: Any, *args: Any) -> Any:
    start = time.perf_counter()
    out = fn(*args)
    times.setdefault(name, []).append(time.perf_counter() - start)
    return out


def episode_costs(env: Any, task: Task, command: str, episodes: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}
    grader = env.grader
    for _ in range(episodes):
        box = timed(times, "open", grader.open_box, task)
        timed(times, "bash", box.bash, command, 30, 16 << 10)
        verdict = timed(times, "judge", grader.judge, box, task)
        timed(times, "close", box.close)
        assert verdict.status == "scored", verdict.reason
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--episodes", type=int, default=5)
    ap.add_argument("--harbor-task", default="hello-world")
    ap.add_argument("--strong-task", default="count-error-lines")
    args = ap.parse_args()
    harbor_env, strong_env = load_env("harbor-examples"), load_env("terminal")
    h_task, s_task = harbor_env.task(args.harbor_task), strong_env.task(args.strong_task)

    # cold: remove the task's image (a fresh tag), then the first episode builds it
    tag = task_image(h_task)
    get_client().images.remove(tag, force=True)
    first: dict[str, list[float]] = {}
    timed(first, "cold", lambda: harbor_env.grader.grade_group(h_task, [h_task.reference]))
    timed(first, "cached", lambda: harbor_env.grader.grade_group(h_task, [h_task.reference]))
    print(f"first episode of {args.harbor_task} (reference, graded): image cold "
          f"{first['cold'][0]:.2f} s, cached {first['cached'][0]:.2f} s")  # fmt: skip

    harbor = episode_costs(harbor_env, h_task, "ls -la", args.episodes)
    strong = episode_costs(strong_env, s_task, "wc -l app.log", args.episodes)
    print(f"{'per episode':12s} {'harbor (s)':>11s} {'strong (s)':>11s} {'ratio':>7s}")
    for name in ("open", "bash", "judge", "close"):
        h, s = statistics.median(harbor[name]), statistics.median(strong[name])
        print(f"{name:12s} {h:11.3f} {s:11.3f} {h / s:6.2f}x")
    print(f"(medians of {args.episodes} episodes; harbor: {args.harbor_task}, its test.sh runs "
          f"uvx pytest offline; strong: {args.strong_task})")  # fmt: skip


if __name__ == "__main__":
    main()
