"""Which mutants the cases a task had before augmentation kill (the "before" mutation score).

`rlvr cases augment` appends hidden cases and records how many were original
(`meta["augment"]["original_hidden"]` of the function form); the driver runs public cases first,
then hidden ones in file order, so a mutant's failing case numbers say whether an original case
caught it. One grading run then gives the score before and after augmentation.
"""

from __future__ import annotations

from rlvr.types import Task, Verdict


def original_cases(task: Task) -> int | None:
    """How many of the task's cases (public first) are original; None when all are."""
    form = task.meta.get("function") or {}
    aug = (form.get("meta") or {}).get("augment")
    if not aug:
        return None
    return len(form.get("public_cases") or []) + int(aug["original_hidden"])


def killed_by_original(task: Task, verdict: Verdict) -> bool:
    """Whether a failing mutant fails one of the task's original cases (True for a task
    without added cases, or a verdict without per-case outcomes)."""
    n = original_cases(task)
    cases = (verdict.details or {}).get("cases")
    if n is None or not isinstance(cases, list):
        return not verdict.passed
    return any(c.get("outcome") != "passed" and c.get("case", n) < n for c in cases)
