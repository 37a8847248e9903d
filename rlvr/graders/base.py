"""The grader contract: extract an answer, decide, return one verdict per answer.

A grader never raises on model output. Wrong or unusable output is `scored` with reward 0 and a
reason; a broken gold or grader bug is `grader_error`; a bound hit is `timeout`; a dead sandbox
is `infra_error`. Graders take a whole group so that per-task work (parsing the gold, starting a
container) happens once per group, not once per sample.

A verdict is a function of (task, answer) alone, so `Environment.grade` sends each distinct
answer of a group once and shares its verdict with the identical copies. A grader that is not
deterministic (it samples a judge model, or depends on an answer's position) says so with a
class attribute `deterministic = False` and then sees every copy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from rlvr.errors import ManifestError
from rlvr.named import Registry
from rlvr.types import Task, Verdict


@runtime_checkable
class Grader(Protocol):
    """Grades the G answers to one task."""

    name: str

    def extract(self, completion: str) -> Any:
        """Pull the answer out of a completion (None when there is none)."""
        ...

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        """One verdict per answer, in order; never raises on bad answers."""
        ...


GraderFactory = Callable[..., Grader]
GRADERS: Registry[Grader] = Registry("grader", what="kind")


def is_deterministic(grader: Any) -> bool:
    """Whether identical answers to one task may share one verdict (graders are, unless they
    set `deterministic = False`)."""
    return getattr(grader, "deterministic", True) is not False


def register_grader(kind: str) -> Callable[[GraderFactory], GraderFactory]:
    """Make a grader kind available to manifests as `grader.kind = "<kind>"`.

    A kind can be registered once (`rlvr.named.Registry`): a second factory under a taken kind
    is refused rather than silently replacing the first, which would change how every
    environment using it grades.
    """
    return GRADERS.register(kind)


def grader_kinds() -> dict[str, GraderFactory]:
    """All known grader kinds (the package `rlvr.graders` registers the built-ins on import)."""
    return dict(GRADERS)


def make_grader(kind: str, options: dict[str, Any] | None = None) -> Grader:
    """Build a grader of `kind` from manifest options."""
    kinds = grader_kinds()
    if kind not in kinds:
        raise ManifestError(
            f"unknown grader kind {kind!r}",
            f"use one of {sorted(kinds)} or register one with rlvr.graders.register_grader",
        )
    return kinds[kind](**(options or {}))
