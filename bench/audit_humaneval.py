"""Bench the specification-gap audit: mutation scores of HumanEval's tests (or any environment's).

For each task the reference must pass, the trivial answers must fail, and up to --max-mutants
mutants of the reference are graded in the sandbox; the share killed is the task's mutation
score. Prints the per-task scores (the lowest first), the overall score (pooled and mean per
task), the number of tasks with surviving mutants, the time the audit took, and writes the HTML
report with its histogram to --out.

Run: python bench/audit_humaneval.py [--limit N] [--max-mutants M] [--env humaneval] [--out DIR]
(needs Docker and the sandbox image: rlvr sandbox bootstrap)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from rlvr.audit.specgap.audit import GapOptions, audit_env
from rlvr.audit.specgap.report import write_gap_report
from rlvr.registry import load_env

console = Console(width=160, stderr=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--env", default="humaneval")
    ap.add_argument("--limit", type=int, default=None, help="audit the first N tasks")
    ap.add_argument("--max-mutants", type=int, default=40)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--timeout", type=float, default=None, help="per-answer deadline override (code)"
    )
    ap.add_argument("--out", type=Path, default=Path("bench/out/audit"))
    ap.add_argument("--show", type=int, default=15, help="tasks listed in the table")
    args = ap.parse_args()
    env = load_env(args.env)
    if args.timeout and env.sandbox:
        env = load_env(
            args.env, grader_options={"sandbox": {**env.sandbox, "timeout_s": args.timeout}}
        )
    tasks = env.tasks()[: args.limit] if args.limit else env.tasks()
    start = time.monotonic()
    columns = (TextColumn("auditing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        job = bar.add_task("audit", total=len(tasks))
        audits, summary = audit_env(
            env,
            tasks,
            GapOptions(max_mutants=args.max_mutants, workers=args.workers),
            lambda _a: bar.advance(job),
        )
    elapsed = time.monotonic() - start
    page = write_gap_report(args.out / args.env, audits, summary)
    table = Table(
        "task",
        "reference",
        "trivials fail",
        "mutants",
        "killed",
        "stillborn",
        "score",
        "surviving (first)",
    )
    ranked = sorted(
        audits, key=lambda a: (a.mutation_score if a.mutation_score is not None else 2, a.task_id)
    )
    for a in ranked[: args.show]:
        first = a.surviving[0].name if a.surviving else ""
        table.add_row(
            a.task_id,
            str(a.reference_passed),
            str(a.trivial_failed),
            str(a.mutants),
            str(a.mutants_killed),
            str(a.mutants_stillborn),
            str(a.mutation_score),
            first,
        )
    console.print(table)
    console.print(f"report: {page}", highlight=False)
    per_task = {a.task_id: a.mutation_score for a in audits}
    print(json.dumps({**summary.model_dump(), "wall_s": round(elapsed, 1), "per_task": per_task}))


if __name__ == "__main__":
    main()
