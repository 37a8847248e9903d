"""Specification-gap audit of an environment's grader: do its tests tell right from wrong?

For every task: the reference solution must pass; trivial answers must fail (empty, `pass`,
returning None or an argument, raising, a constant of the right type); mutants of the reference
(rlvr.audit.source.mutate, mutate_text) must fail. The share of mutants the tests kill is the
task's mutation score; a task whose tests let a mutant survive is a specification gap, shown
with the surviving mutant's diff. Math tasks swap mutants for perturbed golds (and check that the
gold's equivalent forms pass); tool-call tasks for schema-violating arguments.

Each task is graded as one group by the environment's own grader (so code runs in its sandbox
pool; a batching grader gets it as sub-groups of its batch size, so progress shows per batch),
tasks in parallel. Candidates are fenced with the stack's own tag. A mutant that does not
compile ("no test report") is stillborn and a masked verdict (infra or grader error) is not
counted either way. A code environment none of whose tasks has a reference is refused (there
is nothing to mutate); a task without one is a gap that says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

from pydantic import BaseModel, Field

from rlvr.audit.source.mutate import python_mutants, unified_diff
from rlvr.audit.source.mutate_text import text_mutants
from rlvr.audit.specgap.candidates import Candidate, math_candidates, toolcall_candidates
from rlvr.audit.specgap.cheats import terminal_cheats
from rlvr.audit.specgap.checks import audit_checks
from rlvr.audit.specgap.original import killed_by_original
from rlvr.audit.specgap.trivial import trivial_answers
from rlvr.env import Environment, distinct_answers, first_occurrences, share_verdicts
from rlvr.errors import RlvrError
from rlvr.flags.languages import GENERIC, env_language
from rlvr.grading import batches
from rlvr.references import fence, fence_tag, missing_reference_fix, missing_results
from rlvr.types import Task, Verdict

REASON_CHARS = 200


class GapOptions(BaseModel):
    """How much of the environment to audit and how hard."""

    max_mutants: int = Field(40, ge=0, description="Mutants graded per task (a seeded sample).")
    seed: int = Field(0, description="Seed of the mutant sample.")
    workers: int = Field(2, ge=1, description="Tasks audited at once.")


class Graded(BaseModel):
    """One graded candidate, as the report shows it."""

    name: str
    passed: bool | None
    reason: str = ""
    operator: str = ""
    diff: str = ""


class TaskAudit(BaseModel):
    """The audit of one task: one JSONL line of DIR/tasks.jsonl."""

    task_id: str
    reference_passed: bool | None
    reference_reason: str = ""
    gold_unreadable: str = ""
    mutants: int = 0
    mutants_killed: int = 0
    mutants_killed_original: int = Field(0, description="Killed by the pre-augmentation cases.")
    mutants_stillborn: int = 0
    mutants_masked: int = 0
    mutation_score: float | None = None
    trivial_failed: bool | None = None
    trivials: list[Graded] = Field(default_factory=list)
    equivalents: int = 0
    equivalents_passed: int = 0
    equivalents_failed: list[Graded] = Field(default_factory=list)
    surviving: list[Graded] = Field(default_factory=list)
    gap: bool = False
    reasons: list[str] = Field(default_factory=list)
    duration_s: float = 0.0


def _fence(code: str, env: Environment, lang: str) -> str:
    """A candidate as a model would write it: in a block with the stack's own fence tag (a code
    grader's first language, a function judge's translator's first LANGUAGES entry), so the
    grader's extractor takes it whatever the stack. A stack the audit only knows as "text" gets
    an untagged block, never a ```text one (an extractor looking for its own tags reads an
    untagged block, not a foreign tag). As it is when the grader takes answers whole."""
    tag = fence_tag(env)
    if tag is None and getattr(env.grader, "name", "") == "code":
        return code  # "whole" or "function" extraction: the answer as written
    if tag is None:
        tag = "" if lang == GENERIC else lang
    return fence(code, tag)


def code_candidates(env: Environment, task: Task, lang: str, opts: GapOptions) -> list[Candidate]:
    """Reference, trivial answers and mutants of one code task, as completions."""
    ref = task.reference or ""
    out = [Candidate("reference", "reference", _fence(ref, env, lang))] if ref else []
    out += [
        Candidate("trivial", t.name, _fence(t.source, env, lang))
        for t in trivial_answers(task, lang)
    ]  # type: ignore[arg-type]
    if not ref or opts.max_mutants == 0:
        return out
    seed = opts.seed + sum(map(ord, task.id))
    if lang == "python":
        first = len(task.prompt.splitlines()) + 1 if ref.startswith(task.prompt) else 1
        mutants = python_mutants(ref, first, opts.max_mutants, seed)
    else:
        mutants = text_mutants(ref, lang, opts.max_mutants, seed)  # type: ignore[arg-type]
    out += [
        Candidate(
            "mutant",
            m.description,
            _fence(m.source, env, lang),
            m.operator,
            unified_diff(ref, m.source),
        )
        for m in mutants
    ]
    return out


def candidates(env: Environment, task: Task, opts: GapOptions) -> list[Candidate]:
    """What to grade for one task, by the kind of grader the environment uses."""
    lang = audit_language(env)
    if lang == "terminal":
        ref = [Candidate("reference", "reference", task.reference)] if task.reference else []
        return ref + terminal_cheats(task)
    if lang == "math":
        cands = math_candidates(task)
        return [c for c in cands if c.role != "mutant"] + [c for c in cands if c.role == "mutant"][
            : opts.max_mutants
        ]
    if lang == "toolcall":
        cands = toolcall_candidates(task)
        return [c for c in cands if c.role != "mutant"] + [c for c in cands if c.role == "mutant"][
            : opts.max_mutants
        ]
    return code_candidates(env, task, lang, opts)


def audit_language(env: Environment) -> str:
    """What the audit reads answers as: a terminal environment's answers are agents' actions."""
    return "terminal" if getattr(env.grader, "name", "") == "terminal" else env_language(env)


def stillborn(v: Verdict) -> bool:
    """A mutant that never ran: no report, or only the runner's own pseudo-tests (a build that
    failed shows as `(exit status 3)`, never as a test name)."""
    if v.cause == "no_test_ran":
        return True
    pseudo = bool(v.tests) and all(t.name.startswith(("(", "<")) for t in v.tests)
    return pseudo and v.details.get("exit_code") not in (0, None)


def _graded(c: Candidate, v: Verdict) -> Graded:
    passed = v.passed if v.is_scored else None
    return Graded(
        name=c.name, passed=passed, reason=v.reason[:REASON_CHARS], operator=c.operator, diff=c.diff
    )


def summarize(
    task: Task, cands: list[Candidate], verdicts: list[Verdict], duration: float
) -> TaskAudit:
    """Fold the verdicts of one task's candidates into its audit line."""
    audit = TaskAudit(task_id=task.id, reference_passed=None, duration_s=round(duration, 3))
    for c, v in zip(cands, verdicts, strict=True):
        g = _graded(c, v)
        if (v.details or {}).get("gold_unreadable") and not audit.gold_unreadable:
            audit.gold_unreadable = v.reason[:REASON_CHARS]
        if c.role == "reference":
            audit.reference_passed, audit.reference_reason = g.passed, g.reason
        elif c.role == "trivial":
            audit.trivials.append(g)
        elif c.role == "equivalent":
            audit.equivalents += 1
            audit.equivalents_passed += g.passed is True
            if g.passed is False:
                audit.equivalents_failed.append(g)
        elif not v.is_scored:
            audit.mutants_masked += 1
        elif stillborn(v):
            audit.mutants_stillborn += 1
        else:
            audit.mutants += 1
            audit.mutants_killed += not v.passed
            audit.mutants_killed_original += not v.passed and killed_by_original(task, v)
            if v.passed:
                audit.surviving.append(g)
    if audit.mutants:
        audit.mutation_score = round(audit.mutants_killed / audit.mutants, 4)
    scored = [t for t in audit.trivials if t.passed is not None]
    audit.trivial_failed = all(t.passed is False for t in scored) if scored else None
    _reasons(audit)
    return audit


def _reasons(audit: TaskAudit) -> None:
    if audit.gold_unreadable:
        audit.reasons.append(
            f"gold cannot be read (its groups would be masked): {audit.gold_unreadable}"
        )
    if audit.reference_passed is False:
        audit.reasons.append(f"reference fails: {audit.reference_reason}")
    for t in audit.trivials:
        if t.passed:
            audit.reasons.append(f"trivial answer passes: {t.name}")
        elif t.passed is None:  # masked instead of scored 0: a group it is in would be dropped
            audit.reasons.append(f"trivial answer masked: {t.name}: {t.reason[:120]}")
    if audit.surviving:
        audit.reasons.append(f"{len(audit.surviving)} of {audit.mutants} mutants survive")
    if audit.equivalents_failed:
        names = [g.name for g in audit.equivalents_failed]
        audit.reasons.append(f"equivalent forms rejected: {names}")
    audit.gap = bool(audit.reasons)


def audit_task(
    env: Environment,
    task: Task,
    opts: GapOptions,
    cands: list[Candidate] | None = None,
    on_graded: Callable[[int], Any] | None = None,
) -> TaskAudit:
    """Grade one task's candidates and summarise them; `on_graded(n)` as n are judged."""
    start = time.monotonic()
    cands = candidates(env, task, opts) if cands is None else cands
    verdicts = grade_candidates(env, task, [c.completion for c in cands], on_graded)
    audit = summarize(task, cands, verdicts, time.monotonic() - start)
    if not task.reference and env_language(env) not in NO_REFERENCE_NEEDED:
        audit.reasons.insert(0, NO_REFERENCE)
        audit.gap = True
    return audit


NO_REFERENCE = "no reference solution: only trivial answers were checked (no mutants)"
NO_REFERENCE_NEEDED = ("math", "toolcall")  # judged against a gold or calls, not a program


def grade_candidates(
    env: Environment,
    task: Task,
    completions: list[str],
    on_graded: Callable[[int], Any] | None = None,
) -> list[Verdict]:
    """The verdicts of one task's candidates, as one group would get them (identical ones
    graded once). A grader that batches (the function judge) gets them as sub-groups of its
    batch size in one `grade_groups` call: the same execs, and progress as each one ends."""
    if not completions:
        return []
    size = getattr(getattr(env.grader, "options", None), "batch_size", None)
    if on_graded is None or not batches(env.grader) or not isinstance(size, int):
        verdicts = env.grade(task, completions)
        if on_graded is not None:
            on_graded(len(completions))
        return verdicts
    owner = first_occurrences(completions)
    distinct = distinct_answers(completions, owner)
    parts = [distinct[i : i + size] for i in range(0, len(distinct), size)]
    rows = env.grade_groups([(task, p) for p in parts], on_graded)
    if len(distinct) < len(completions):
        on_graded(len(completions) - len(distinct))  # the copies, judged with their originals
    return share_verdicts([v for row in rows for v in row], owner)


class GapSummary(BaseModel):
    """The whole audit: figures over all tasks."""

    env: str
    language: str = Field("", description="The syntax the audit read the stack in.")
    checks: list[str] = Field(default_factory=list, description="The checks that ran.")
    note: str = ""
    tasks: int
    reference_failed: int
    trivial_passed: int
    mutants: int
    mutants_killed: int
    mutants_stillborn: int
    mutants_masked: int
    equivalents: int
    equivalents_passed: int
    mutation_score: float | None
    mutation_score_original: float | None = Field(None, description="Before augmentation.")
    mean_task_score: float | None
    tasks_with_survivors: int
    duration_s: float
    golds_unreadable: int = 0
    tasks_without_reference: int = 0


def summary(env_name: str, audits: list[TaskAudit], duration: float, lang: str = "") -> GapSummary:
    """Overall figures: the pooled mutation score and the mean of the per-task scores."""
    total = sum(a.mutants for a in audits)
    killed = sum(a.mutants_killed for a in audits)
    before = sum(a.mutants_killed_original for a in audits)
    scores = [a.mutation_score for a in audits if a.mutation_score is not None]
    checks, note = audit_checks(lang) if lang else ([], "")
    return GapSummary(
        env=env_name,
        language=lang,
        checks=checks,
        note=note,
        tasks=len(audits),
        reference_failed=sum(a.reference_passed is False for a in audits),
        trivial_passed=sum(a.trivial_failed is False for a in audits),
        mutants=total,
        mutants_killed=killed,
        mutants_stillborn=sum(a.mutants_stillborn for a in audits),
        mutants_masked=sum(a.mutants_masked for a in audits),
        equivalents=sum(a.equivalents for a in audits),
        equivalents_passed=sum(a.equivalents_passed for a in audits),
        mutation_score=round(killed / total, 4) if total else None,
        mutation_score_original=round(before / total, 4) if total else None,
        mean_task_score=round(sum(scores) / len(scores), 4) if scores else None,
        tasks_with_survivors=sum(bool(a.surviving) for a in audits),
        duration_s=round(duration, 2),
        golds_unreadable=sum(bool(a.gold_unreadable) for a in audits),
        tasks_without_reference=sum(NO_REFERENCE in a.reasons for a in audits),
    )


def audit_env(
    env: Environment,
    tasks: list[Task],
    opts: GapOptions,
    on_done: Callable[[TaskAudit], Any] | None = None,
    on_graded: Callable[[int], Any] | None = None,
    on_planned: Callable[[int], Any] | None = None,
) -> tuple[list[TaskAudit], GapSummary]:
    """Audit `tasks` of `env` in parallel; results in task order.

    Raises when none of `tasks` of a code environment has a reference (nothing to mutate and
    nothing that shows the tests can pass). `on_planned(n)` once the n answers to grade are
    known, `on_graded(k)` as k of them are judged, `on_done(audit)` per finished task.
    """
    start = time.monotonic()
    require_references(env, tasks)
    plans = {t.id: candidates(env, t, opts) for t in tasks}
    if on_planned:
        on_planned(sum(len(c) for c in plans.values()))
    results: dict[str, TaskAudit] = {}
    with ThreadPoolExecutor(max_workers=opts.workers) as pool:
        futures = {pool.submit(audit_task, env, t, opts, plans[t.id], on_graded): t for t in tasks}
        for fut in as_completed(futures):
            audit = fut.result()
            results[audit.task_id] = audit
            if on_done:
                on_done(audit)
    audits = [results[t.id] for t in tasks]
    lang = audit_language(env)
    return audits, summary(env.name, audits, time.monotonic() - start, lang)


def require_references(env: Environment, tasks: list[Task]) -> None:
    """Raise, naming the file to add, when no task of a code environment has a reference."""
    if not tasks or env_language(env) in NO_REFERENCE_NEEDED or any(t.reference for t in tasks):
        return
    raise RlvrError(
        f"{env.name}: none of the {len(tasks)} tasks to audit has a reference solution; the "
        "audit needs one per task (it must pass, and its mutants must fail)",
        missing_reference_fix(env, missing_results(env, [t.id for t in tasks]), skip=False),
    )
