"""How strong the hidden cases of the function-task envs are: constant-answer gaps and mutants.

Per env (humaneval and synth, in python, javascript, go and rust) it prints:

- tasks whose hidden cases all expect one value (a constant answer, or the public examples
  hard-coded, passes them), before and after a change of the case file;
- tasks whose hidden cases are all among the public (docstring) examples, listed by id
  (HumanEval/34 style: returning the example's literal passes);
- the mutation score: mutants of the stack's reference made by the spec-gap audit's mutators
  (`rlvr.audit.source.mutate` for python, `mutate_text` for the others), run in the stack's
  sandbox image on every case, and counted killed when a case of the *before* file, or of the
  *after* file, fails. Mutants that produce no result on any case (they do not compile) are
  stillborn and left out; mutants that equal the reference on every input are counted as
  survivors, so the score is a lower bound.

"Before" is the case file at a git revision (`--before`, default HEAD) less the hidden cases
`rlvr cases augment` added (their provenance, `meta.augment`, counts the original ones), "after"
the working tree's. Tasks whose answer is a bool are listed (their answer space is binary).
The after file must keep the before file's cases as a prefix of each task's cases (the
synth generator only appends hidden rows), so one run of a mutant on the after cases gives both
scores. The mutants run through `bench/synth_references.py`'s bulk drivers (one container per
env and stack; go and rust build one program per mutant, so a mutant that does not compile
costs only itself).

    python bench/case_strength.py [--envs synth,humaneval] [--stacks python,javascript,go,rust]
        [--tasks 120] [--mutants 6] [--before HEAD]

`--tasks` samples that many tasks per env evenly (0: all); `--mutants` keeps that many mutants
per task (a seeded sample). Needs Docker and the stack images.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

import synth_references as bulk  # noqa: E402  (bench/ is not a package)

from rlvr.audit.source.mutate import python_mutants  # noqa: E402
from rlvr.audit.source.mutate_text import text_mutants  # noqa: E402
from rlvr.functions.judge import judge_cases, read_driver_output  # noqa: E402
from rlvr.functions.task import FunctionTask, read_function_tasks  # noqa: E402
from rlvr.functions.translator import load_translator  # noqa: E402
from rlvr.graders.code.function import stack_sandbox  # noqa: E402
from rlvr.tasksets.functions import read_references  # noqa: E402

FILES = {
    "synth": "datasets/synth/functions.jsonl",
    "humaneval": "datasets/humaneval/functions.jsonl",
}
REFERENCES = {"humaneval": "humaneval/{stack}"}
SEED = 25


@dataclasses.dataclass
class Score:
    tasks_sampled: int = 0
    mutants: int = 0
    stillborn: int = 0
    killed_before: int = 0
    killed_after: int = 0


def _tag(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def single_value(tasks: Sequence[FunctionTask]) -> list[str]:
    """Ids of tasks whose hidden cases expect one value (or have none)."""
    return [t.id for t in tasks if len({_tag(c.expected) for c in t.hidden_cases}) < 2]


def examples_only(tasks: Sequence[FunctionTask]) -> list[str]:
    """Ids of tasks whose every hidden case is one of the public examples."""
    out = []
    for t in tasks:
        public = {_tag([c.args, c.expected]) for c in t.public_cases}
        if all(_tag([c.args, c.expected]) in public for c in t.hidden_cases):
            out.append(t.id)
    return out


def original(task: FunctionTask) -> FunctionTask:
    """The task without the hidden cases `rlvr cases augment` added (its provenance says how
    many hidden cases are original)."""
    aug = task.meta.get("augment")
    if not aug:
        return task
    return task.model_copy(update={"hidden_cases": task.hidden_cases[: aug["original_hidden"]]})


def binary(tasks: Sequence[FunctionTask]) -> list[str]:
    """Ids of tasks whose answer space is two values (a bool return): one hidden value of
    each is the most their cases can show, and a coin flip passes a case half the time."""
    return [t.id for t in tasks if t.signature.returns == "bool"]


def read_at(rev: str, path: str) -> list[FunctionTask]:
    """The function tasks of `path` at git revision `rev`, without augmented cases."""
    text = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:{path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write(text)
    try:
        return [original(t) for t in read_function_tasks(f.name)]
    finally:
        Path(f.name).unlink()


def with_stack_references(kind: str, stack: str, tasks: list[FunctionTask]) -> list[FunctionTask]:
    """HumanEval keeps its non-python references in files; put them on the tasks."""
    if kind not in REFERENCES or stack == "python":
        return tasks
    refs = read_references(REFERENCES[kind].format(stack=stack), [t.id for t in tasks])
    return [
        t.model_copy(update={"references": {**t.references, stack: refs[t.id]}})
        for t in tasks
        if t.id in refs
    ]


def mutants_of(task: FunctionTask, stack: str, limit: int) -> list[str]:
    """Sources of up to `limit` mutants of the task's `stack` reference (seeded sample)."""
    source = task.references.get(stack)
    if not source:
        return []
    if stack == "python":
        found = python_mutants(source, limit=limit, seed=SEED)
    else:
        found = text_mutants(source, stack, limit=limit, seed=SEED)  # type: ignore[arg-type]
    return [m.source for m in found]


def mutant_tasks(
    tasks: Sequence[FunctionTask], stack: str, limit: int
) -> list[tuple[FunctionTask, FunctionTask]]:
    """(original task, the same task with a mutant as its reference) pairs."""
    out = []
    for t in tasks:
        for src in mutants_of(t, stack, limit):
            out.append((t, t.model_copy(update={"references": {**t.references, stack: src}})))
    return out


def _go_job(tr: Any, tasks: list[FunctionTask]) -> tuple[dict[str, str], str]:
    files, _ = bulk.go_job(tr, tasks, 1)
    script = (
        "export GOCACHE=/tmp/gocache GOFLAGS=-mod=mod GOPROXY=off CGO_ENABLED=0\n"
        "mkdir -p /tmp/bin && for d in cmd/*/; do go build -o /tmp/bin/ ./$d 2>/dev/null; done\n"
        "for b in /tmp/bin/*; do timeout 5 $b; done\n"
    )
    return files, script


def _rust_job(tr: Any, tasks: list[FunctionTask]) -> tuple[dict[str, str], str]:
    files, script = bulk.rust_job(tr, tasks, 1)
    script = script.replace(" && /tmp/bin/", " 2>/dev/null && timeout 5 /tmp/bin/")
    return files, script


def _loop_job(tr: Any, tasks: list[FunctionTask]) -> tuple[dict[str, str], str]:
    files, script = bulk.loop_job(tr, tasks)
    return files, script.replace("timeout 20 ", "timeout 5 ")


def run_mutants(
    stack: str, pairs: list[tuple[FunctionTask, FunctionTask]], n_before: dict
) -> Score:
    """Run every mutant on the after cases in the stack's image; count kills both ways."""
    tr = load_translator(stack)
    pairs = [(o, m) for o, m in pairs if tr.unsupported(m) is None]
    mutated = [m for _, m in pairs]
    build = {"go": _go_job, "rust": _rust_job}.get(stack, _loop_job)
    files, script = build(tr, mutated)
    output = bulk.run_container(stack_sandbox(tr)["image"], files, script, timeout=6 * 3600)
    segments: dict[int, str] = {}
    for part in output.split(f"\n{bulk.MARK}")[1:]:
        head, _, rest = part.partition("\n")
        if head.strip().isdigit():
            segments[int(head)] = rest
    score = Score(mutants=len(pairs))
    for n, (orig, mut) in enumerate(pairs):
        outcomes = judge_cases(mut, read_driver_output(segments.get(n, ""), len(mut.cases)))
        if all(o.outcome == "missing" for o in outcomes):
            score.stillborn += 1
            continue
        failed = [o.case for o in outcomes if o.outcome != "passed"]
        score.killed_after += bool(failed)
        score.killed_before += any(i < n_before[orig.id] for i in failed)
    return score


def sample(tasks: list[FunctionTask], n: int) -> list[FunctionTask]:
    if n <= 0 or n >= len(tasks):
        return tasks
    step = len(tasks) / n
    return [tasks[int(i * step)] for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", default="humaneval,synth")
    ap.add_argument("--stacks", default="python,javascript,go,rust")
    ap.add_argument("--tasks", type=int, default=120, help="tasks sampled per env (0: all)")
    ap.add_argument("--mutants", type=int, default=6, help="mutants kept per task")
    ap.add_argument("--before", default="HEAD", help="git revision of the before case files")
    ap.add_argument("--no-mutants", action="store_true", help="only the case-set counts")
    args = ap.parse_args()
    rows = []
    for kind in args.envs.split(","):
        path = FILES[kind]
        after = read_function_tasks(ROOT / path)
        before = {t.id: t for t in read_at(args.before, path)}
        for t in after:
            old = before.get(t.id)
            if old is not None and [c.model_dump() for c in t.cases[: len(old.cases)]] != [
                c.model_dump() for c in old.cases
            ]:
                raise SystemExit(f"{t.id}: the after cases do not extend the before cases")
        print(f"{kind}: {len(after)} tasks")
        print(f"  hidden cases with one distinct value, before: {single_value(before.values())}")
        print(f"  hidden cases with one distinct value, after: {single_value(after)}")
        print(f"  hidden cases only the public examples (after): {examples_only(after)}")
        print(f"  answer space binary (bool returns): {len(binary(after))} {binary(after)}")
        n_before = {i: len(t.cases) for i, t in before.items()}
        for stack in args.stacks.split(","):
            tr = load_translator(stack)
            env_tasks = [
                t for t in with_stack_references(kind, stack, after) if tr.unsupported(t) is None
            ]
            one_b = single_value([before[t.id] for t in env_tasks if t.id in before])
            one_a = single_value(env_tasks)
            name = f"{kind}-{stack}" if not (kind == "humaneval" and stack == "python") else kind
            row = {"env": name, "tasks": len(env_tasks), "one_before": len(one_b),
                   "one_after": len(one_a)}  # fmt: skip
            if not args.no_mutants:
                chosen = sample(env_tasks, args.tasks)
                pairs = mutant_tasks(chosen, stack, args.mutants)
                random.Random(SEED).shuffle(pairs)
                start = time.perf_counter()
                score = run_mutants(stack, pairs, n_before)
                score.tasks_sampled = len(chosen)
                row.update(dataclasses.asdict(score), seconds=round(time.perf_counter() - start))
            print("  " + json.dumps(row), flush=True)
            rows.append(row)
    print_table(rows)


def _pct(k: int, live: int) -> str:
    return f"{k}/{live} ({100 * k / live:.1f}%)" if live else "-"


def print_table(rows: list[dict]) -> None:
    print(
        "\n| env | tasks | one hidden value before -> after | mutants (tasks sampled) | "
        "stillborn | killed before | killed after |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        head = f"| {r['env']} | {r['tasks']} | {r['one_before']} -> {r['one_after']} |"
        if "mutants" not in r:
            print(f"{head} - | - | - | - |")
            continue
        live = r["mutants"] - r["stillborn"]
        print(
            f"{head} {r['mutants']} ({r['tasks_sampled']}) | {r['stillborn']} | "
            f"{_pct(r['killed_before'], live)} | {_pct(r['killed_after'], live)} |"
        )


if __name__ == "__main__":
    main()
