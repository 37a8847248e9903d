"""Benchmark rlvr's math grader against math-verify, side by side, on three case sets.

    python bench/math_grader.py [--group-size 8] [--mv-timeout 3] [--show-misses]

(a) Math-Verify's own test suite (graders/math/math_verify_cases.jsonl, ported from
math-verify 0.9.0's tests/), (b) rlvr's non-adversarial cases and (c) the adversarial cases
(graders/math/cases.jsonl). Accuracy counts agreement with each case's `expect`; on (a) the
table also shows agreement with the suite's own verdict (`mv_expect`), and the cases where rlvr
deliberately differs say why in their `note`.

Cases are grouped as in RL: cases sharing a gold form groups of `--group-size` answers, padded by
cycling. rlvr grades each group with one `grade_group` call, timed from the caller (worker IPC
included). math-verify runs in a killable worker process (so its hangs cannot stall the bench):
it parses the gold once per group and each distinct completion once, timed inside the worker (no
IPC counted); an answer past `--mv-timeout` seconds counts as a timeout and as that many seconds.
On (a) math-verify runs with the options each test of its suite passes (extraction targets,
precision, strictness); elsewhere with its defaults, the gold wrapped in `$...$` (it reads LaTeX
only inside delimiters). Grader_error cases (unreadable golds) count as "broken golds flagged".
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
CASES = ROOT / "graders" / "math" / "cases.jsonl"
MV_CASES = ROOT / "graders" / "math" / "math_verify_cases.jsonl"
SUBSETS = {"mv": "(a) Math-Verify's suite", "rlvr": "(b) rlvr's cases", "adv": "(c) adversarial"}


def _targets(options: tuple) -> tuple:
    from math_verify import ExprExtractionConfig, LatexExtractionConfig

    kinds = dict(options).get("match_types")
    if kinds is None:
        return (LatexExtractionConfig(), ExprExtractionConfig())
    made = {"latex": LatexExtractionConfig(boxed_match_priority=0), "expr": ExprExtractionConfig()}
    return tuple(made[k] for k in kinds)


@functools.lru_cache(maxsize=64)
def _mv_gold(gold: str, options: tuple) -> Any:
    from math_verify import parse

    if not options:
        gold = gold if any(d in gold for d in ("$", "\\(", "\\[")) else f"${gold}$"
    return parse(gold, _targets(options))


def mv_check(common: tuple[str, tuple], answer: str) -> bool:
    """math-verify's verdict for one completion (runs in the bench's worker process)."""
    from math_verify import parse, verify

    gold, options = common
    opts = dict(options)
    kwargs = {"float_rounding": opts.get("precision", 6), "strict": opts.get("strict", True)}
    if "allow_set_relation_comp" in opts:
        kwargs["allow_set_relation_comp"] = opts["allow_set_relation_comp"]
    return bool(verify(_mv_gold(gold, options), parse(answer, _targets(options)), **kwargs))


@dataclass
class Tally:
    """Outcomes and time of one grader on one subset."""

    answers: int = 0
    seconds: float = 0.0
    correct: int = 0
    agree_mv: int = 0
    scored_cases: int = 0
    false_pos: int = 0
    false_neg: int = 0
    timeouts: int = 0
    gold_flagged: int = 0
    gold_cases: int = 0
    misses: list[str] = field(default_factory=list)

    def record(self, case: dict[str, Any], outcome: str) -> None:
        expect = case["expect"]
        self.agree_mv += outcome == case.get("mv_expect", expect)
        self.timeouts += outcome == "timeout"
        if expect == "grader_error":
            self.gold_cases += 1
            self.gold_flagged += outcome == "grader_error"
            self.false_pos += outcome == "accept"
        else:
            self.scored_cases += 1
            self.correct += outcome == expect
            self.false_pos += expect == "reject" and outcome == "accept"
            self.false_neg += expect == "accept" and outcome != "accept"
        if outcome != expect:
            self.misses.append(f"[{case['label']}] {expect}->{outcome}: {case['note'][:100]}")


def load_cases() -> list[dict[str, Any]]:
    cases = []
    for line in MV_CASES.read_text().splitlines():
        c = json.loads(line)
        options = tuple(
            sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in c["mv_options"].items())
        )
        options = tuple(o for o in options if o[0] != "default_parse")
        cases.append({**c, "subset": "mv", "label": c["source"], "mv": options})
    for line in CASES.read_text().splitlines():
        c = json.loads(line)
        subset = "adv" if c["adversarial"] else "rlvr"
        cases.append({**c, "subset": subset, "label": c["category"], "mv": ()})
    return cases


def build_groups(cases: list[dict[str, Any]], size: int) -> list[list[dict[str, Any]]]:
    by_gold: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for case in cases:
        options = json.dumps(case.get("options", {}), sort_keys=True)
        by_gold[(case["subset"], case["gold"], case["mv"], options)].append(case)
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


def run_rlvr(groups: list[list[dict[str, Any]]], tallies: dict[str, Tally]) -> None:
    from rlvr.graders.math import MathGrader
    from rlvr.types import Task

    MathGrader().grade_group(Task(id="warm", prompt="", gold="x+1"), ["\\boxed{1+x}"])  # a worker
    for group in groups:
        grader = MathGrader(**group[0].get("options", {}))
        task = Task(id="bench", prompt="", gold=group[0]["gold"])
        start = time.perf_counter()
        verdicts = grader.grade_group(task, [c["answer"] for c in group])
        elapsed = time.perf_counter() - start
        tally = tallies[group[0]["subset"]]
        tally.seconds += elapsed
        tally.answers += len(group)
        for case in dict((id(c), c) for c in group).values():
            tally.record(case, _outcome(verdicts[group.index(case)]))


def run_math_verify(
    groups: list[list[dict[str, Any]]], tallies: dict[str, Tally], timeout_s: float
) -> None:
    from rlvr.graders.bounded import WorkerPool

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import math_grader as this  # this file as an importable module, so workers can load mv_check

    with WorkerPool(size=1, preload=("math_verify", "math_grader"), memory_mb=None) as pool:
        pool.run_batch(this.mv_check, ("1", ()), ["\\boxed{1}"], timeout_s=60.0)  # warm-up
        for group in groups:
            distinct = list(dict.fromkeys(c["answer"] for c in group))
            common = (group[0]["gold"], group[0]["mv"])
            results = pool.run_batch(this.mv_check, common, distinct, timeout_s=timeout_s)
            tally = tallies[group[0]["subset"]]
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


def _pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / max(d, 1):.1f}%)"


def _table(results: dict[str, dict[str, Tally]], subset: str) -> Any:
    from rich.table import Table

    table = Table(title=SUBSETS[subset])
    columns = ["grader", "accuracy", "agrees with suite", "false pos.", "false neg."]
    columns += ["timeouts", "broken golds flagged", "answers/s"]
    for col in columns:
        table.add_column(col, justify="left" if col == "grader" else "right")
    rates = {}
    for name, tallies in results.items():
        t = tallies[subset]
        rates[name] = t.answers / t.seconds if t.seconds else float("inf")
        total = t.scored_cases + t.gold_cases
        table.add_row(
            name,
            _pct(t.correct + t.gold_flagged, total),
            _pct(t.agree_mv, total) if subset == "mv" else "-",
            str(t.false_pos),
            str(t.false_neg),
            str(t.timeouts),
            f"{t.gold_flagged}/{t.gold_cases}" if t.gold_cases else "-",
            f"{rates[name]:,.0f}",
        )
    ratio = rates["rlvr"] / rates["math-verify"] if rates["math-verify"] else float("inf")
    table.caption = f"throughput ratio rlvr / math-verify: {ratio:.1f}x"
    return table


def main() -> None:
    from rich.console import Console

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--group-size", type=int, default=8)
    parser.add_argument("--mv-timeout", type=float, default=3.0)
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    cases = load_cases()
    groups = build_groups(cases, args.group_size)
    console = Console(width=None if sys.stdout.isatty() else 140)
    console.print(f"{len(cases)} cases in {len(groups)} groups of {args.group_size}")
    results: dict[str, dict[str, Tally]] = {}
    for name in ("rlvr", "math-verify"):
        tallies = {s: Tally() for s in SUBSETS}
        start = time.perf_counter()
        if name == "rlvr":
            run_rlvr(groups, tallies)
        else:
            run_math_verify(groups, tallies, args.mv_timeout)
        console.print(f"{name}: done in {time.perf_counter() - start:.1f} s wall")
        results[name] = tallies
    for subset in SUBSETS:
        console.print(_table(results, subset))
    for name, tallies in results.items():
        misses = [m for t in tallies.values() for m in t.misses]
        console.print(f"{name}: {len(misses)} cases differ from rlvr's expected outcome")
        for line in misses[: None if args.show_misses else 12]:
            console.print(f"  {line}", markup=False)


if __name__ == "__main__":
    main()
