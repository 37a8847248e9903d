"""Case augmentation of function tasks: new hidden cases that kill what the old ones miss.

For every task (EvalPlus's recipe, on rlvr's typed cases): mutate its arguments by type
(`inputs.py`); run the Python reference on them in the sandbox, through the function judge's
own driver, to get each expected value (a call that raises or gives no result drops the input);
run mutants of the reference (the spec-gap audit's `python_mutants`) on the old cases and the new
inputs; for the mutants every old case lets through, keep the inputs that kill them, check them
against every other stack's reference in that stack's sandbox (an input any of them answers
differently is dropped: it is outside what all stacks mean by the task), and take the fewest
that still kill every killable survivor (`cover.py`). Constant answers equal to an expected
value already in the task ("return the docstring example's answer") count as mutants too.

Added cases are appended to `hidden_cases` (old cases, ids and order unchanged); the task's
`meta["augment"]` records the seed, how many hidden cases are original, and per added case the
mutation that made its input, its tier and the mutants it kills.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rlvr.audit.augment.cover import greedy_cover, killed_by
from rlvr.audit.augment.inputs import NewInput, new_inputs
from rlvr.audit.source.mutate import python_mutants
from rlvr.functions.judge import DriverOutput, judge_cases
from rlvr.functions.task import Case, FunctionTask, check_case
from rlvr.functions.typelang import decode, values_equal

PROBE_CHUNK = 12
KILLS = ("failed", "error")
TOOL = "rlvr cases augment"


@dataclass
class Options:
    """How hard to look (new inputs and mutants per task, the seed of both samples), whether
    inputs outside what a task's cases show may be kept (`wide`: they may break a contract the
    types do not state), and tasks to leave as they are (id -> why)."""

    seed: int = 25
    inputs: int = 96
    mutants: int = 40
    wide: bool = False
    skip: dict[str, str] = field(default_factory=dict)
    wrong: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    """Task id -> (name, Python program) of wrong answers known to pass the old cases (an
    attack's finds, `--kill`): each counts as a mutant to kill."""
    given: dict[str, list[list[Any]]] = field(default_factory=dict)
    """Task id -> argument lists to try besides the mutated ones (`--try`; tier "near")."""

    def later_round(self, task_id: str) -> bool:
        """A task already augmented gets another round only for its own wrong answers or inputs."""
        return task_id in self.wrong or task_id in self.given


@dataclass
class TaskResult:
    """What augmentation found for one task."""

    task_id: str
    inputs: int = 0
    valued: int = 0
    mutants: int = 0
    survivors: int = 0
    killable: int = 0
    disagreed: int = 0
    added: int = 0
    left: list[str] = field(default_factory=list)
    wide_only: int = 0


Runner = Callable[[str, Sequence[tuple[FunctionTask, str]]], list[DriverOutput | None]]
"""(stack, [(task, answer file)]) -> each driver's parsed output (None: no result)."""


def _probe_task(task: FunctionTask, inputs: Sequence[NewInput]) -> FunctionTask:
    """The task with only `inputs` as cases (placeholders: the driver never sees expected)."""
    cases = [Case(args=x.args, raises=True) for x in inputs]
    return task.model_copy(update={"public_cases": [], "hidden_cases": cases})


def given_inputs(task: FunctionTask, opts: Options) -> list[NewInput]:
    """The argument lists given for `task` (`--try`) that are not among its cases yet."""
    seen = {json.dumps(c.args, sort_keys=True) for c in task.cases}
    out = []
    for args in opts.given.get(task.id, []):
        key = json.dumps(args, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(NewInput(list(args), "given (--try)", "near"))
    return out


def _tol(task: FunctionTask) -> float | None:
    tols = [c.abs_tol for c in task.cases if c.abs_tol is not None]
    return max(tols) if tols else None


def expected_values(
    run: Runner, tasks: Sequence[FunctionTask], inputs: dict[str, list[NewInput]]
) -> dict[str, list[tuple[NewInput, Case]]]:
    """Each input with the case the Python reference makes of it (run in the sandbox)."""
    jobs: list[tuple[str, list[NewInput], FunctionTask, str]] = []
    for t in tasks:
        xs = inputs[t.id]
        for k in range(0, len(xs), PROBE_CHUNK):
            chunk = xs[k : k + PROBE_CHUNK]
            jobs.append((t.id, chunk, _probe_task(t, chunk), t.references["python"]))
    outs = run("python", [(p, src) for _, _, p, src in jobs])
    by_id = {t.id: t for t in tasks}
    found: dict[str, list[tuple[NewInput, Case]]] = {t.id: [] for t in tasks}
    for (tid, chunk, _, _), out in zip(jobs, outs, strict=True):
        if out is None or not out.ready or out.problem:
            continue
        task = by_id[tid]
        types, ret = task.signature.param_types, task.signature.return_type
        for j, x in enumerate(chunk):
            line = out.lines.get(j)
            if line is None or not line.ok:
                continue
            case = Case(args=x.args, expected=line.value, abs_tol=_tol(task))
            try:
                check_case(case, types, ret, "new case")
            except ValueError:
                continue
            found[tid].append((x, case))
    return found


def constant_kills(task: FunctionTask, valued: Sequence[tuple[NewInput, Case]]) -> dict[str, set]:
    """The constant answer equal to the task's one expected value, when every old case expects
    that value (HumanEval/34: returning the docstring example's answer passes), and the new
    inputs that tell it from the reference."""
    ret = task.signature.return_type
    out: dict[str, set[int]] = {}
    values = [decode(ret, c.expected) for c in task.cases if not c.raises]
    for c in task.cases[:1]:
        want = decode(ret, c.expected)
        if c.raises or not all(values_equal(ret, v, want, c.abs_tol) for v in values):
            continue
        name = f"constant {json.dumps(c.expected)[:80]}"
        out[name] = {
            i
            for i, (_, n) in enumerate(valued)
            if not values_equal(ret, decode(ret, n.expected), want, n.abs_tol)
        }
    return out


def first_line(task: FunctionTask) -> int:
    """Mutate below the prompt (its docstring and examples are not the solution)."""
    ref, prompt = task.references["python"], task.prompts.get("python", "")
    return len(prompt.splitlines()) + 1 if prompt and ref.startswith(prompt) else 1


def mutant_kills(
    run: Runner,
    tasks: Sequence[FunctionTask],
    valued: dict[str, list[tuple[NewInput, Case]]],
    opts: Options,
    results: dict[str, TaskResult],
    log: Callable[[str], Any],
) -> dict[str, dict[str, set[int]]]:
    """Per task: each mutant the old cases let through -> the new inputs that kill it."""
    jobs: list[tuple[FunctionTask, str, str]] = []
    for t in tasks:
        ref = t.references["python"]
        mutants = python_mutants(ref, first_line(t), opts.mutants, opts.seed + sum(map(ord, t.id)))
        full = t.model_copy(
            update={"hidden_cases": [*t.hidden_cases, *(c for _, c in valued[t.id])]}
        )
        jobs += [(full, m.description, m.source) for m in mutants]
        jobs += [(full, f"wrong answer: {name}", src) for name, src in opts.wrong.get(t.id, [])]
    log(f"{len(jobs)} mutants of the Python references")
    outs = run("python", [(f, src) for f, _, src in jobs])
    kills: dict[str, dict[str, set[int]]] = {t.id: {} for t in tasks}
    for (full, name, _), out in zip(jobs, outs, strict=True):
        if out is None or not out.ready or not out.lines:
            continue  # stillborn, or the sandbox brought nothing back
        res = results[full.id]
        res.mutants += 1
        outcomes = judge_cases(full, out)
        n_old = len(full.cases) - len(valued[full.id])
        if any(o.outcome != "passed" for o in outcomes[:n_old]):
            continue
        res.survivors += 1
        kills[full.id][name] = {o.case - n_old for o in outcomes[n_old:] if o.outcome in KILLS}
    return kills


def agreed(
    run: Runner,
    stack: str,
    tasks: Sequence[FunctionTask],
    refs: dict[str, str],
    picks: dict[str, list[int]],
    valued: dict[str, list[tuple[NewInput, Case]]],
) -> dict[str, set[int]]:
    """Of each task's picked inputs, those `stack`'s reference answers as Python's does."""
    jobs = []
    for t in tasks:
        if t.id in refs and picks.get(t.id):
            cases = [valued[t.id][i][1] for i in picks[t.id]]
            jobs.append((t, t.model_copy(update={"public_cases": [], "hidden_cases": cases})))
    outs = run(stack, [(probe, refs[t.id]) for t, probe in jobs])
    ok: dict[str, set[int]] = {}
    for (t, probe), out in zip(jobs, outs, strict=True):
        passed = set()
        if out is not None and out.ready and not out.problem:
            outcomes = judge_cases(probe, out)
            passed = {picks[t.id][o.case] for o in outcomes if o.outcome == "passed"}
        ok[t.id] = passed
    return ok


def provenance(
    task: FunctionTask,
    chosen: list[int],
    valued: list[tuple[NewInput, Case]],
    kills: dict,
    opts: Options,
) -> dict[str, Any]:
    """`meta["augment"]`: which hidden cases are original, and how each added one was made."""
    by_case = killed_by(kills, chosen)
    return {
        "tool": TOOL,
        "seed": opts.seed,
        "inputs": opts.inputs,
        "mutants": opts.mutants,
        "wide": opts.wide,
        "original_hidden": len(task.hidden_cases),
        "added": [
            {"mutation": valued[i][0].mutation, "tier": valued[i][0].tier, "kills": by_case[i]}
            for i in chosen
        ],
    }


def merged_provenance(old: dict[str, Any] | None, new: dict[str, Any]) -> dict[str, Any]:
    """A later round's provenance on top of an earlier one: the original count stays, the added
    cases are listed in order, and each round's settings are kept in `rounds`."""
    if old is None:
        return new
    settings = ("seed", "inputs", "mutants", "wide", "wrong_answers", "given")
    rounds = old.get("rounds") or [{k: old[k] for k in settings if k in old}]
    return {
        **old,
        "added": [*old["added"], *new["added"]],
        "rounds": [*rounds, {k: new[k] for k in settings if k in new}],
    }


def augment_tasks(
    tasks: Sequence[FunctionTask],
    run: Runner,
    references: dict[str, dict[str, str]],
    opts: Options,
    log: Callable[[str], Any] = lambda _m: None,
) -> tuple[list[FunctionTask], list[TaskResult]]:
    """Tasks with the new hidden cases appended (tasks already augmented, or without a Python
    reference, unchanged) and what was found per task. `references`: stack -> task id -> the
    stack's answer file (Python's come from the tasks)."""
    work = [
        t
        for t in tasks
        if "python" in t.references
        and t.id not in opts.skip
        and "python_check_only" not in t.meta
        and ("augment" not in t.meta or opts.later_round(t.id))
    ]
    results = {t.id: TaskResult(t.id) for t in work}
    inputs = {t.id: given_inputs(t, opts) + new_inputs(t, opts.seed, opts.inputs) for t in work}
    log(f"{len(work)} tasks, {sum(map(len, inputs.values()))} new inputs: running the reference")
    valued = expected_values(run, work, inputs)
    log(f"{sum(map(len, valued.values()))} inputs have a value: running mutants")
    kills = mutant_kills(run, work, valued, opts, results, log)
    for t in work:
        kills[t.id].update(constant_kills(t, valued[t.id]))
        results[t.id].inputs, results[t.id].valued = len(inputs[t.id]), len(valued[t.id])
    picks = {tid: sorted(set().union(*k.values())) if k else [] for tid, k in kills.items()}
    allowed = {tid: set(p) for tid, p in picks.items()}
    for stack, refs in references.items():
        if stack == "python":
            continue
        log(f"checking {sum(map(len, picks.values()))} inputs against the {stack} references")
        ok = agreed(run, stack, work, refs, picks, valued)
        for tid, good in ok.items():
            allowed[tid] &= good
    out = []
    for t in tasks:
        res = results.get(t.id)
        if res is None:
            out.append(t)
            continue
        vs = valued[t.id]
        res.disagreed = len(picks[t.id]) - len(allowed[t.id])
        k = {m: s & allowed[t.id] for m, s in kills[t.id].items()}
        res.killable = sum(bool(s) for s in k.values())
        res.left = sorted(m for m, s in k.items() if not s and not m.startswith("constant"))
        near = {i for i, (x, _) in enumerate(vs) if x.tier == "near"}
        res.wide_only = sum(bool(s) and not s & near for s in k.values())
        if not opts.wide:
            k = {m: s & near for m, s in k.items()}
        chosen = greedy_cover(k, [x for x, _ in vs])
        res.added = len(chosen)
        if not chosen:
            out.append(t)
            continue
        new = provenance(t, chosen, vs, k, opts)
        if opts.later_round(t.id):
            new |= {
                "wrong_answers": len(opts.wrong.get(t.id, [])),
                "given": len(opts.given.get(t.id, [])),
            }
        meta = {**t.meta, "augment": merged_provenance(t.meta.get("augment"), new)}
        hidden = [*t.hidden_cases, *(vs[i][1] for i in chosen)]
        out.append(t.model_copy(update={"hidden_cases": hidden, "meta": meta}))
    return out, [results[t.id] for t in work]
