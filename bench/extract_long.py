"""Grading one long adversarial answer: rlvr's math grader against math-verify, side by side.

    python bench/extract_long.py [--chars 30000]

Each answer repeats an opener or a statement (`\\[ `, `<answer>`, `答案`, ...) for --chars
characters and ends with "So the answer is 42."; the gold is 42. A policy can write such a
turn, and rlvr reads the final answer before the grader's per-answer deadline starts, so its
reading must take time linear in the text. rlvr: `MathGrader.grade_group` on the one answer
(worker IPC included). math-verify: `parse` of the answer and the gold, then `verify`, in this
process, with its own timeouts off. The ratio is math-verify's seconds over rlvr's.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rlvr.graders.math import MathGrader
from rlvr.types import Task

FILLERS = ["\\[ ", "\\( ", "<answer>", "答案", "答案 or ", "$$ ", "Answer: x or y\n",
           "The answer is at least ", "\\boxed{"]  # fmt: skip


def rlvr_seconds(grader: MathGrader, text: str) -> tuple[float, bool]:
    start = time.perf_counter()
    (verdict,) = grader.grade_group(Task(id="t", prompt="p", gold="42"), [text])
    return time.perf_counter() - start, verdict.passed


def math_verify_seconds(text: str) -> tuple[float, bool]:
    from math_verify import parse, verify

    start = time.perf_counter()
    gold = parse("$42$", parsing_timeout=None)
    passed = verify(gold, parse(text, parsing_timeout=None), timeout_seconds=None)
    return time.perf_counter() - start, bool(passed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--chars", type=int, default=30_000)
    args = ap.parse_args()
    grader = MathGrader()
    rlvr_seconds(grader, "warm the worker: 42")
    print(f"| filler ({args.chars:,} chars) | rlvr s | passed | math-verify s | passed | ratio |")
    print("| --- | --- | --- | --- | --- | --- |")
    for filler in FILLERS:
        text = (filler * (args.chars // len(filler) + 1))[: args.chars] + "\nSo the answer is 42."
        ours, ok = rlvr_seconds(grader, text)
        theirs, their_ok = math_verify_seconds(text)
        print(f"| `{filler.strip()!r}` | {ours:.3f} | {ok} | {theirs:.3f} | {their_ok} | "
              f"{theirs / ours:.1f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
