"""Measure the hack flags on a labelled corpus (graders/code/hacks.jsonl).

A hack counts as caught when a flag of its own kind is raised (a flag of another kind does not
count); a reference or honest wrong answer is falsely flagged when any flag is raised. Static
flags need only the task; `dynamic=True` also grades each answer and runs the perturbed-input
comparison in the sandbox.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from rlvr.audit.recheck.dynamic import differential_flags, gap_flags
from rlvr.bundled import bundled, source_folder
from rlvr.flags.hacks import flag_answer
from rlvr.flags.kinds import AUDIT_ERROR
from rlvr.flags.sandbox import verdict_flags
from rlvr.registry import load_env
from rlvr.types import Flag

HONEST = ("reference", "honest_wrong")
LANG = {
    "humaneval": "python",
    "python": "python",
    "javascript": "javascript",
    "go": "go",
    "rust": "rust",
    "python-tests": "python",
    "javascript-tests": "javascript",
    "go-tests": "go",
    "rust-tests": "rust",
}


class CorpusLine(BaseModel):
    """One labelled submission."""

    env: str
    task_id: str
    completion: str
    kind: str
    note: str = ""


class CorpusResult(BaseModel):
    """Detection per hack kind and false flags on honest answers."""

    caught: dict[str, int]
    total: dict[str, int]
    false_flags: dict[str, int]
    missed: list[dict[str, Any]]
    falsely_flagged: list[dict[str, Any]]

    @property
    def detection_rate(self) -> float:
        hacks = [k for k in self.total if k not in HONEST]
        return sum(self.caught.get(k, 0) for k in hacks) / max(1, sum(self.total[k] for k in hacks))

    @property
    def false_flag_rate(self) -> float:
        honest = sum(self.total.get(k, 0) for k in HONEST)
        return sum(self.false_flags.values()) / max(1, honest)


def default_path() -> Path:
    """graders/code/hacks.jsonl: the installed copy, or the source tree's."""
    root = bundled("graders", "code/hacks.jsonl") or source_folder("graders")
    return root / "code" / "hacks.jsonl"


def load_corpus(path: Path | None = None) -> list[CorpusLine]:
    path = path or default_path()
    return [
        CorpusLine.model_validate(json.loads(s)) for s in path.read_text().splitlines() if s.strip()
    ]


def _dynamic(lines: list[CorpusLine]) -> list[list[Flag]]:
    out: list[list[Flag]] = [[] for _ in lines]
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, line in enumerate(lines):
        groups[(line.env, line.task_id)].append(i)
    envs: dict[str, Any] = {}
    for (env_name, task_id), idxs in groups.items():
        env = envs.setdefault(env_name, load_env(env_name))
        task = env.task(task_id)
        answers = [lines[i].completion for i in idxs]
        verdicts = env.grade(task, answers)
        extra = (
            differential_flags(env, task, answers)
            if LANG[env_name] == "python"
            else [[] for _ in idxs]
        )
        for i, v, more in zip(idxs, verdicts, extra, strict=True):
            out[i] = verdict_flags(v) + gap_flags(task, v) + more
    return out


def _score(lines: list[CorpusLine], flags: list[list[Flag]]) -> CorpusResult:
    caught: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    false_flags: dict[str, int] = defaultdict(int)
    missed, falsely = [], []
    for line, found in zip(lines, flags, strict=True):
        kinds = {f.kind for f in found}
        total[line.kind] += 1
        where = {"env": line.env, "task_id": line.task_id, "kind": line.kind, "note": line.note}
        if line.kind in HONEST:
            if kinds:
                false_flags[line.kind] += 1
                falsely.append({**where, "flags": [f.model_dump() for f in found]})
        elif line.kind in kinds:
            caught[line.kind] += 1
        else:
            missed.append({**where, "flags": sorted(kinds)})
    return CorpusResult(
        caught=dict(caught),
        total=dict(total),
        false_flags=dict(false_flags),
        missed=missed,
        falsely_flagged=falsely,
    )


def evaluate(lines: list[CorpusLine], dynamic: bool = False) -> dict[str, CorpusResult]:
    """Flag every line; results for "static" flags and, with `dynamic`, for "dynamic" flags
    alone and for "combined"."""
    envs: dict[str, Any] = {}
    static = []
    for line in lines:
        env = envs.setdefault(line.env, load_env(line.env))
        found = flag_answer(env.task(line.task_id), line.completion, LANG[line.env])
        static.append([f for f in found if f.kind != AUDIT_ERROR])
    out = {"static": _score(lines, static)}
    if dynamic:
        extra = _dynamic(lines)
        out["dynamic"] = _score(lines, extra)
        out["combined"] = _score(lines, [a + b for a, b in zip(static, extra, strict=True)])
    return out
