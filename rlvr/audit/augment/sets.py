"""Case files that augmentation writes, the environments that judge them, and the runner.

One case file serves one environment per stack (`humaneval/functions.jsonl` is read by
`humaneval`, `humaneval-javascript`, `humaneval-go` and `humaneval-rust`), so augmenting it
needs every one of them: Python's reference gives the values, the others must agree. The
runner calls each environment's own function grader (its image, limits and warm pool), so
nothing of a task's code runs on the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rlvr.audit.augment.augment import Runner
from rlvr.discovery import discover
from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.functions.judge import DriverOutput
from rlvr.functions.task import FunctionTask
from rlvr.manifest import read_manifest
from rlvr.registry import load_env
from rlvr.tasksets.functions import resolve


@dataclass(frozen=True)
class CaseSet:
    """A function-task file (under datasets/), its environment per stack, and tasks whose
    arguments obey a contract their types do not state, left as they are (id -> why)."""

    path: str
    envs: dict[str, str]
    skip: dict[str, str] = field(default_factory=dict)

    @property
    def file(self) -> Path:
        return resolve(self.path)


GRAMMAR = "groups of balanced parentheses, a grammar the str type does not state"
CASE_SETS = {
    "humaneval": CaseSet(
        "humaneval/functions.jsonl",
        {
            "python": "humaneval",
            "javascript": "humaneval-javascript",
            "go": "humaneval-go",
            "rust": "humaneval-rust",
        },
        {
            "HumanEval/1": GRAMMAR,
            "HumanEval/6": GRAMMAR,
            "HumanEval/129": "the grid is N x N and holds 1..N*N once each, which mutated lists "
            "break",
            "HumanEval/59": "n is not a prime, which mutated ints need not respect",
            "HumanEval/94": "the list holds a prime (the answer is the largest one's digit sum)",
            "HumanEval/135": "the array holds no duplicate values, which mutated lists may",
            "HumanEval/160": "len(operator) == len(operand) - 1, which mutated lists break",
        },
    ),
}


def case_set(env_name: str) -> CaseSet:
    """The case set an environment reads (any of its stacks' environments names it). An
    environment of another stack (one a user added, humaneval-ruby say) that reads a known
    set's file joins that set as one more stack, which must agree with the rest."""
    for s in CASE_SETS.values():
        if env_name in s.envs.values():
            return s
    src = discover().get(env_name)
    folder = getattr(src, "folder", None)
    args = read_manifest(folder).tasks.args if folder is not None else {}
    for s in CASE_SETS.values():
        if args.get("path") == s.path and args.get("stack") and args["stack"] not in s.envs:
            return CaseSet(s.path, {**s.envs, str(args["stack"]): env_name}, s.skip)
    names = sorted(n for s in CASE_SETS.values() for n in s.envs.values())
    raise RlvrError(
        f"no augmentable case file is known for environment {env_name!r}",
        f"use one of {names} (synth's generator appends its own near-miss cases: "
        "datasets/synth/build.py)",
    )


def load_stacks(s: CaseSet, stacks: Sequence[str] | None = None) -> dict[str, Environment]:
    """The set's environments by stack (all of them unless `stacks` names some)."""
    return {k: load_env(v) for k, v in s.envs.items() if stacks is None or k in stacks}


def stack_references(envs: dict[str, Environment]) -> dict[str, dict[str, str]]:
    """stack -> task id -> that stack's reference, for the tasks its environment judges by
    function cases (a task its translator cannot express is absent)."""
    return {
        stack: {
            t.id: t.reference
            for t in env.tasks()
            if t.reference and t.meta.get("judge") == "function"
        }
        for stack, env in envs.items()
    }


def runner(envs: dict[str, Environment]) -> Runner:
    """Run (task, answer file) pairs through a stack environment's function grader."""

    def run(stack: str, jobs: Sequence[tuple[FunctionTask, str]]) -> list[DriverOutput | None]:
        grader = envs[stack].grader
        if not hasattr(grader, "driver_outputs"):
            raise RlvrError(f"{envs[stack].name}: its grader is not the function judge")
        return grader.driver_outputs(list(jobs)) if jobs else []

    return run


def carry_over(fresh: list[FunctionTask], shipped: list[FunctionTask]) -> list[FunctionTask]:
    """Rebuilt tasks with the added cases and provenance of the shipped file, for a task
    whose original cases did not change (a changed one must be augmented again)."""
    old = {t.id: t for t in shipped}
    out = []
    for t in fresh:
        prev = old.get(t.id)
        aug = prev.meta.get("augment") if prev else None
        if prev is None or aug is None:
            out.append(t)
            continue
        n = aug["original_hidden"]
        same = [c.model_dump() for c in prev.cases[: len(prev.public_cases) + n]] == [
            c.model_dump() for c in t.cases
        ]
        if not same:
            out.append(t)
            continue
        hidden = [*t.hidden_cases, *prev.hidden_cases[n:]]
        out.append(
            t.model_copy(update={"hidden_cases": hidden, "meta": {**t.meta, "augment": aug}})
        )
    return out
