"""Benchmark rlvr's math grader against math-verify on graders/math/cases.jsonl.

    python bench/math_grader.py [--cases PATH] [--group-size 8] [--mv-timeout 3]

Cases are grouped as in RL: cases sharing a gold (and the adversarial flag) form groups of
`--group-size` answers, padded by cycling their answers. rlvr grades each group with one
`grade_group` call, timed from the caller (worker IPC included). math-verify runs in a killable
worker process (rlvr's WorkerPool, so its hangs cannot stall the bench): it parses the gold once
per group and each distinct completion once, timed inside the worker (no IPC counted); an answer
past `--mv-timeout` seconds counts as a timeout and as that many seconds. Golds are wrapped in
`$...$` for math-verify, which reads LaTeX only inside delimiters.

Accuracy, false positives and false negatives count the accept/reject cases; the grader_error
cases (unreadable golds) are reported as "broken golds flagged".
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CASES = ROOT / "graders" / "math" / "cases.jsonl"


@functools.lru_cache(maxsize=64)
def _mv_gold(gold: str) -> Any:
    from math_verify import parse

    text = gold if any(d in gold for d in ("$", "\\(", "\\[")) else f"${gold}$"
    return parse(text)


def mv_check(gold: str, answer: str) -> bool:
    """math-verify's verdict for one completion (runs in the bench's worker process)."""
    from math_verify import parse, verify

    return bool(verify(_mv_gold(gold), parse(answer)))


@dataclass
class Tally:
    """Outcomes and time of one grader on one subset."""

    answers: int = 0
    seconds: float = 0.0
    correct: int = 0
    scored_cases: int = 0
    false_pos: int = 0
    false_neg: int = 0
    timeouts: int = 0
    gold_flagged: int = 0
    gold_cases: int = 0
    misses: list[str] = field(default_factory=list)

    def record(self, case: dict[str, Any], outcome: str) -> None:
        expect = case["expect"]
        if expect == "grader_error":
            self.gold_cases += 1
            self.gold_flagged += outcome == "grader_error"
            self.false_pos += outcome == "accept"
        else:
            self.scored_cases += 1
            self.correct += outcome == expect
            self.false_pos += expect == "reject" and outcome == "accept"
            self.false_neg += expect == "accept" and outcome != "accept"
        self.timeouts += outcome == "timeout"
        if outcome != expect:
            self.misses.append(f"[{case['category']}] {expect}->{outcome}: {case['note']}")


def build_groups(cases: list[dict[str, Any]], size: int) -> list[list[dict[str, Any]]]:
    by_gold: dict[tuple[str, bool], list[dict[str, Any]]] = defaultdict(list)
    for case in cases:
        by_gold[(case["gold"], case["adversarial"])].append(case)
    groups = []
    for members in by_gold.values():
        for start in range(0, len(members), size):
            chunk = members[start : start + size]
            groups.append([chunk[i % len(chunk)] for i in range(size)])
    return groups


def _outcome(verdict: Any) -> str:
    if verdict.status == "scored":
        return "accept" if verdict.passed else "reject"
    return verdict.status


def run_rlvr(groups: list[list[dict[str, Any]]], tallies: dict[bool, Tally]) -> None:
    from rlvr.graders.math import MathGrader
    from rlvr.types import Task

    grader = MathGrader()
    grader.grade_group(Task(id="warm", prompt="", gold="x+1"), ["\\boxed{1+x}"])  # start a worker
    for group in groups:
        task = Task(id="bench", prompt="", gold=group[0]["gold"])
        start = time.perf_counter()
        verdicts = grader.grade_group(task, [c["answer"] for c in group])
        elapsed = time.perf_counter() - start
        tally = tallies[group[0]["adversarial"]]
        tally.seconds += elapsed
        tally.answers += len(group)
        for case in dict((id(c), c) for c in group).values():
            tally.record(case, _outcome(verdicts[group.index(case)]))


def run_math_verify(
    groups: list[list[dict[str, Any]]], tallies: dict[bool, Tally], timeout_s: float
) -> None:
    from rlvr.graders.bounded import WorkerPool

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import math_grader as this  # this file as an importable module, so workers can load mv_check

    with WorkerPool(size=1, preload=("math_verify", "math_grader"), memory_mb=None) as pool:
        pool.run(this.mv_check, "1", "\\boxed{1}", timeout_s=60.0)  # warm-up
        for group in groups:
            distinct = list(dict.fromkeys(c["answer"] for c in group))
            results = pool.run_batch(this.mv_check, group[0]["gold"], distinct, timeout_s=timeout_s)
            tally = tallies[group[0]["adversarial"]]
            tally.answers += len(group)
            outcome_of = {}
            for answer, res in zip(distinct, results, strict=True):
                tally.seconds += timeout_s if res.status == "timeout" else res.duration_s
                if res.status == "ok":
                    outcome_of[answer] = "accept" if res.value else "reject"
                else:
                    outcome_of[answer] = "timeout" if res.status == "timeout" else "error"
            for case in dict((id(c), c) for c in group).values():
                tally.record(case, outcome_of[case["answer"]])


def _table(results: dict[str, dict[bool, Tally]], title: str, subset: list[bool]) -> Any:
    from rich.table import Table

    table = Table(title=title)
    for col in (
        "grader",
        "accuracy",
        "false pos.",
        "false neg.",
        "timeouts",
        "broken golds flagged",
        "answers/s",
    ):
        table.add_column(col, justify="left" if col == "grader" else "right")
    rates = {}
    for name, tallies in results.items():
        t = Tally()
        for key in subset:
            s = tallies[key]
            for attr in ("answers", "seconds", "correct", "scored_cases", "false_pos"):
                setattr(t, attr, getattr(t, attr) + getattr(s, attr))
            for attr in ("false_neg", "timeouts", "gold_flagged", "gold_cases"):
                setattr(t, attr, getattr(t, attr) + getattr(s, attr))
        rates[name] = t.answers / t.seconds if t.seconds else float("inf")
        accuracy = f"{t.correct}/{t.scored_cases} ({100 * t.correct / max(t.scored_cases, 1):.1f}%)"
        flagged = f"{t.gold_flagged}/{t.gold_cases}" if t.gold_cases else "-"
        table.add_row(
            name,
            accuracy,
            str(t.false_pos),
            str(t.false_neg),
            str(t.timeouts),
            flagged,
            f"{rates[name]:,.0f}",
        )
    ratio = rates["rlvr"] / rates["math-verify"] if rates["math-verify"] else float("inf")
    table.caption = f"throughput ratio rlvr / math-verify: {ratio:.1f}x"
    return table


def main() -> None:
    from rich.console import Console

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES)
    parser.add_argument("--group-size", type=int, default=8)
    parser.add_argument("--mv-timeout", type=float, default=3.0)
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    cases = [json.loads(line) for line in args.cases.read_text().splitlines() if line.strip()]
    groups = build_groups(cases, args.group_size)
    console = Console(width=None if sys.stdout.isatty() else 120)
    console.print(f"{len(cases)} cases in {len(groups)} groups of {args.group_size}")
    results: dict[str, dict[bool, Tally]] = {}
    for name, runner in (("rlvr", run_rlvr), ("math-verify", run_math_verify)):
        tallies = {False: Tally(), True: Tally()}
        start = time.perf_counter()
        if name == "rlvr":
            runner(groups, tallies)
        else:
            runner(groups, tallies, args.mv_timeout)
        console.print(f"{name}: done in {time.perf_counter() - start:.1f} s wall")
        results[name] = tallies
    console.print(_table(results, "All cases", [False, True]))
    console.print(_table(results, "Non-adversarial cases", [False]))
    console.print(_table(results, "Adversarial cases", [True]))
    for name, tallies in results.items():
        misses = tallies[False].misses + tallies[True].misses
        console.print(f"{name}: {len(misses)} cases differ from the expected outcome")
        for line in misses[: None if args.show_misses else 12]:
            console.print(f"  {line}", markup=False)


if __name__ == "__main__":
    main()
