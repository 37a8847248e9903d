"""Regrade stored groups with the grader as it stands now, and count the verdicts that change.

A grader fix should move only the answers it means to. Every groups.jsonl (a frontier, a GRPO
run, an evaluation) keeps each sample's text and verdict, so grading the texts again and
comparing says what a change of the grader does to figures already measured.

    python bench/regrade_stored.py --env math-columns 'runs/demo/math/eval-*/groups.jsonl'
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rlvr.registry import load_env


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pattern", help="a glob of groups.jsonl files (quote it)")
    ap.add_argument("--env", required=True, help="the environment the groups were graded in")
    ap.add_argument("--show", type=int, default=10, help="changed verdicts to print")
    args = ap.parse_args()
    env = load_env(args.env)
    tasks = {t.id: t for t in env.tasks()}
    changed = total = 0
    for path in sorted(glob.glob(args.pattern)):
        for line in Path(path).read_text().splitlines():
            group = json.loads(line)
            task = tasks[group["task_id"]]
            texts = [s["text"] for s in group["samples"]]
            new_verdicts = env.grader.grade_group(task, texts)
            for text, old, new in zip(texts, group["verdicts"], new_verdicts, strict=True):
                total += 1
                if (old["status"], old.get("reward")) == (new.status, new.reward):
                    continue
                changed += 1
                if changed <= args.show:
                    print(f"{path}: {task.id} gold {task.gold!r}: {old.get('reward')} -> "
                          f"{new.reward} ({new.reason[:60]}): {text[-80:]!r}")  # fmt: skip
    print(f"{changed} of {total} verdicts changed")


if __name__ == "__main__":
    main()
