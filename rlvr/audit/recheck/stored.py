"""Re-check stored answers for hack flags: `rlvr audit hacks` as a library call.

Input is either loose completions (`{"task_id", "completion"}` lines, as for `rlvr grade`) or a
store of scored groups (rlvr.store.GroupStore lines, each with its training `step`). Every answer
gets the static flags; answers that come with a verdict also get the flags of what the sandbox
saw and of the public/hidden gap; `dynamic=True` grades loose completions first and, for
Python tasks, runs the perturbed-input comparison with the reference. Counting flags per kind
and per step shows when reward hacking starts during a training run.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlvr.audit.recheck.dynamic import differential_flags, gap_flags
from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.flags.hacks import flag_answer
from rlvr.flags.languages import env_language
from rlvr.flags.sandbox import verdict_flags
from rlvr.types import Flag, ScoredGroup, Verdict


@dataclass
class Answer:
    """One answer to re-check, with where it came from."""

    task_id: str
    completion: str
    step: int | None = None
    index: int = 0
    verdict: Verdict | None = None
    error: str | None = None


def read_answers(path: Path) -> list[Answer]:
    """Answers from a completions file or a GroupStore file (told apart line by line)."""
    out: list[Answer] = []
    text = path.read_text(encoding="utf-8") if str(path) != "-" else sys.stdin.read()
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            out.append(Answer("", "", error=f"line {lineno}: not valid JSON ({e.msg})"))
            continue
        if isinstance(obj, dict) and "samples" in obj and "verdicts" in obj:
            try:
                group = ScoredGroup.model_validate(obj)
            except ValueError as e:
                out.append(
                    Answer(
                        str(obj.get("task_id", "")),
                        "",
                        error=f"line {lineno}: not a scored group: {e}",
                    )
                )
                continue
            for s, v in zip(group.samples, group.verdicts, strict=True):
                out.append(Answer(group.task_id, s.text, group.step, s.index, v))
        elif (
            isinstance(obj, dict)
            and isinstance(obj.get("task_id"), str)
            and isinstance(obj.get("completion"), str)
        ):
            out.append(
                Answer(
                    obj["task_id"],
                    obj["completion"],
                    obj.get("step"),
                    int(obj.get("index", 0) or 0),
                )
            )
        else:
            out.append(
                Answer(
                    "", "", error=f"line {lineno}: needs task_id and completion, or a scored group"
                )
            )
    return out


def _row(a: Answer, flags: list[Flag], verdict: Verdict | None) -> dict[str, Any]:
    return {
        "task_id": a.task_id,
        "step": a.step,
        "index": a.index,
        "flags": [f.model_dump() for f in flags],
        "reward": verdict.reward if verdict else None,
        "passed": verdict.passed if verdict else None,
    }


def _check_group(
    env: Environment, lang: str, answers: list[Answer], dynamic: bool
) -> list[dict[str, Any]]:
    task = env.task(answers[0].task_id)
    verdicts: list[Verdict | None] = [a.verdict for a in answers]
    if dynamic and lang not in ("math", "toolcall") and any(v is None for v in verdicts):
        graded = env.grade(task, [a.completion for a in answers])
        verdicts = [v or g for v, g in zip(verdicts, graded, strict=True)]
    spec = getattr(env.grader, "spec", None)
    public_file = getattr(getattr(spec, "test_files", None), "public", None)
    extra: list[list[Flag]] = [[] for _ in answers]
    if dynamic and lang == "python":
        extra = differential_flags(env, task, [a.completion for a in answers])
    rows = []
    for a, v, more in zip(answers, verdicts, extra, strict=True):
        patterns = env.audit.patterns if env.audit is not None else ()
        flags = flag_answer(task, a.completion, lang, patterns)
        if v is not None:
            flags += verdict_flags(v) + gap_flags(task, v, public_file)
        rows.append(_row(a, flags + more, v))
    return rows


def recheck(
    env: Environment,
    answers: list[Answer],
    dynamic: bool = False,
    workers: int = 2,
    on_done: Callable[[int], Any] | None = None,
) -> list[dict[str, Any]]:
    """One row per answer (input order): task_id, step, index, flags, reward, passed."""
    lang = env_language(env)
    rows: list[dict[str, Any] | None] = [None] * len(answers)
    groups: dict[tuple[str, int | None], list[int]] = defaultdict(list)
    for i, a in enumerate(answers):
        if a.error:
            rows[i] = {
                "task_id": a.task_id or None,
                "step": a.step,
                "index": a.index,
                "flags": [],
                "error": a.error,
            }
        else:
            groups[(a.task_id, a.step)].append(i)

    def run(idxs: list[int]) -> list[dict[str, Any]]:
        try:
            return _check_group(env, lang, [answers[i] for i in idxs], dynamic)
        except RlvrError as e:
            return [{**_row(answers[i], [], None), "error": e.message} for i in idxs]

    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(run, idxs): idxs for idxs in groups.values()}
        for fut in as_completed(futures):
            for i, row in zip(futures[fut], fut.result(), strict=True):
                rows[i] = row
            if on_done:
                on_done(len(futures[fut]))
    return [r for r in rows if r is not None]


def flag_counts(rows: list[dict[str, Any]]) -> dict[int | None, Counter[str]]:
    """Per step: how many answers carry each kind (an answer counts once per kind), plus
    `answers` and `flagged` totals."""
    out: dict[int | None, Counter[str]] = defaultdict(Counter)
    for r in rows:
        c = out[r.get("step")]
        c["answers"] += 1
        kinds = {f["kind"] for f in r.get("flags", [])}
        c["flagged"] += bool(kinds)
        for k in kinds:
            c[k] += 1
    return dict(sorted(out.items(), key=lambda kv: (kv[0] is None, kv[0] or 0)))
