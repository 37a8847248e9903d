"""Grade every task's reference solution: the check a new task set must pass before training.

A reference that fails (hidden tests that do not compile, wrong expected test names, a report
adapter that reads nothing) would score every answer of that task 0: a silent zero in training.
`check_references` grades the references through the environment's own grader, the way answers
are graded (rlvr.grading.grade_items): a grader that batches (the function judge) packs up to
`batch_size` references into each sandbox exec (a few references are spread so that every
container of its pool gets one); the others (test-framework stacks, episodes) grade `workers`
tasks at once.
`rlvr envs validate --references` fails on any reference that did not pass.

`choose_tasks` picks the first N tasks or a stable hash-chosen subset; a task without a
reference is `missing` (a failure, or skipped with `skip_missing`), and `reference_file` names
the file that would give it one.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.functions.task import read_function_tasks
from rlvr.functions.translator import load_translator
from rlvr.grading import GradeItem, batches, grade_items
from rlvr.manifest import read_manifest
from rlvr.tasksets.functions import reference_name, resolve
from rlvr.types import Task

REASON_CHARS = 300
FUNCTION_LOADERS = ("rlvr.tasksets.functions:load", "rlvr.tasksets.functions:load_many")
Pick = Literal["first", "hash"]


class ReferenceResult(BaseModel):
    """How the grader judged one task's reference (`missing`: the task has none)."""

    task_id: str
    status: str
    passed: bool
    reason: str
    details: dict[str, Any] = {}
    skipped: bool = False
    reference_file: str | None = None
    """For a missing reference: the file that would give the task one, when it can be named."""


def fence_tag(env: Environment) -> str | None:
    """The fence tag of a model's answer for this environment's grader: a code grader's first
    `language` when it extracts fenced blocks, the function judge's translator's first
    LANGUAGES entry (the tag its prompts ask for); None when the grader takes the answer as it
    is (math, tool calls, terminal episodes, code graders in "whole" or "function" mode)."""
    grader = env.grader
    name = getattr(grader, "name", "")
    if name == "code":
        options = getattr(grader, "options", None)
        if getattr(options, "extract", "fenced") != "fenced":
            return None
        return str((getattr(options, "language", None) or [""])[0])
    if name == "function":
        languages = getattr(getattr(grader, "translator", None), "LANGUAGES", None) or [""]
        return str(languages[0])
    return None


def fence(code: str, tag: str | None) -> str:
    """`code` in a fenced block tagged `tag` ("" gives an untagged block, which every
    extractor takes when no block carries one of its languages); as it is for tag None."""
    if tag is None or not code:
        return code
    return f"```{tag}\n{code.rstrip()}\n```\n"


def reference_completion(env: Environment, task: Task) -> str:
    """The reference as a model would write it: fenced with the stack's own tag when the grader
    reads fenced code, else as it is."""
    return fence(task.reference or "", fence_tag(env))


def _hash_key(task_id: str) -> str:
    return hashlib.sha256(task_id.encode("utf-8")).hexdigest()


def choose_tasks(tasks: Sequence[Task], n: int | None, pick: Pick = "first") -> list[Task]:
    """The first `n` tasks, or (`pick="hash"`) the `n` whose id hashes lowest: a subset that
    spreads over the whole set and stays the same from run to run; in the set's order."""
    if n is None or n >= len(tasks):
        return list(tasks)
    if pick == "first":
        return list(tasks[:n])
    keep = {t.id for t in sorted(tasks, key=lambda t: _hash_key(t.id))[:n]}
    return [t for t in tasks if t.id in keep]


def check_references(
    env: Environment,
    workers: int = 4,
    on_progress: Callable[[int], None] | None = None,
    n_tasks: int | None = None,
    pick: Pick = "first",
    skip_missing: bool = False,
    tasks: Sequence[Task] | None = None,
) -> list[ReferenceResult]:
    """Grade the references of `tasks` (default: `choose_tasks(env.tasks(), n_tasks, pick)`).

    A task without a reference is `missing`: a failure (nothing shows its tests can pass), or,
    with `skip_missing`, a row marked `skipped`. `on_progress(n)` as n references are judged.
    """
    chosen = list(tasks) if tasks is not None else choose_tasks(env.tasks(), n_tasks, pick)
    with_ref = [t for t in chosen if t.reference]
    items = [GradeItem(t.id, reference_completion(env, t)) for t in with_ref]
    rows = _grade_spread(env, items, workers, on_progress)
    by_id = {t.id: row for t, row in zip(with_ref, rows, strict=True)}
    missing = [t.id for t in chosen if t.id not in by_id]
    files = reference_files(env, missing) if missing else {}
    out = []
    for t in chosen:
        row = by_id.get(t.id)
        if row is None:
            out.append(_missing(t.id, files.get(t.id), skip_missing))
            continue
        out.append(
            ReferenceResult(
                task_id=t.id,
                status=row["status"],
                passed=row["status"] == "scored" and bool(row["passed"]),
                reason=str(row["reason"])[:REASON_CHARS],
                details=row.get("details") or {},
            )
        )
    return out


def _grade_spread(
    env: Environment,
    items: list[GradeItem],
    workers: int,
    on_progress: Callable[[int], None] | None,
) -> list[dict[str, Any]]:
    """`grade_items`, with few references to a batching grader spread over its whole pool.

    The function judge cuts one `grade_groups` call into ceil(n / batch_size) execs, so 8
    references would be one exec on one container, one job after another, while the other
    containers idle. When those execs are fewer than the pool's containers, one call per
    container with its share gives each an exec (8 references: 4 execs of 2). With as many
    execs as containers or more, it is one call, exactly as answers are graded (more, smaller
    execs only add round trips where the cores are busy anyway).
    """
    grader = env.grader
    pool = getattr(grader, "pool", None) if items and batches(grader) else None
    size = int(getattr(pool, "size", 0) or 0)
    batch = getattr(getattr(grader, "options", None), "batch_size", None)
    if not isinstance(batch, int) or size <= 1 or -(-len(items) // batch) >= size:
        return grade_items(env, items, workers, on_progress) if items else []
    n_parts = min(len(items), size)
    step, extra = divmod(len(items), n_parts)
    parts, at = [], 0
    for k in range(n_parts):
        parts.append(items[at : at + step + (k < extra)])
        at += step + (k < extra)
    with ThreadPoolExecutor(max_workers=n_parts) as ex:
        done = list(ex.map(lambda part: grade_items(env, part, workers, on_progress), parts))
    return [row for rows in done for row in rows]


def _missing(task_id: str, where: Path | None, skipped: bool) -> ReferenceResult:
    shown = display_path(where) if where is not None else None
    reason = "the task has no reference solution" + (f" (add {shown})" if shown else "")
    return ReferenceResult(task_id=task_id, status="missing", passed=False, reason=reason,
                           skipped=skipped, reference_file=shown)  # fmt: skip


def display_path(path: Path) -> str:
    """`path` relative to the working directory when it lies under it, else absolute."""
    try:
        return os.path.relpath(path) if path.resolve().is_relative_to(Path.cwd()) else str(path)
    except ValueError:
        return str(path)


def reference_files(env: Environment, task_ids: Sequence[str]) -> dict[str, Path]:
    """Where the reference of each task would go, for the tasks whose place can be named:
    `<references folder>/<reference_name(id)>.<ext>` for a function-task environment whose
    source sets `references` (ext: the suffix of the stack's answer file). Others are left
    out (their fix is `missing_reference_fix`)."""
    sources = _function_sources(env)
    out: dict[str, Path] = {}
    wanted = set(task_ids)
    for args in sources:
        if not args.get("references") or not wanted:
            continue
        try:
            ext = Path(load_translator(args["stack"]).SANDBOX["answer_file"]).suffix
            ids = [ft.id for ft in read_function_tasks(resolve(args["path"]))]
        except (RlvrError, KeyError, OSError, ValueError, TypeError):
            continue
        prefix = args.get("id_prefix", "")
        folder = resolve(args["references"])
        for raw in ids:
            if prefix + raw in wanted:
                out[prefix + raw] = folder / f"{reference_name(raw)}{ext}"
                wanted.discard(prefix + raw)
    return out


def _manifest(env: Environment) -> Any:
    if not env.source.endswith("env.toml"):
        return None
    try:
        return read_manifest(Path(env.source).parent)
    except RlvrError:
        return None


def _function_sources(env: Environment) -> list[dict[str, Any]]:
    """The `load` arguments of each source of a function-task environment ([] for others)."""
    manifest = _manifest(env)
    spec = manifest.tasks if manifest is not None else None
    if spec is None or spec.loader not in FUNCTION_LOADERS:
        return []
    if spec.loader.endswith(":load"):
        return [dict(spec.args)] if "path" in spec.args and "stack" in spec.args else []
    return [dict(s) for s in spec.args.get("sources") or [] if "path" in s and "stack" in s]


def missing_results(env: Environment, task_ids: Sequence[str]) -> list[ReferenceResult]:
    """`missing` rows for tasks without a reference, each naming its file where it can."""
    files = reference_files(env, task_ids)
    return [_missing(i, files.get(i), False) for i in task_ids]


def missing_reference_fix(
    env: Environment, results: Sequence[ReferenceResult], skip: bool = True
) -> str:
    """What to do about the tasks without a reference, as precisely as the environment allows
    (`skip`: also offer `--skip-missing`)."""
    named = [r.reference_file for r in results if r.reference_file]
    manifest = _manifest(env)
    tail = ", or pass --skip-missing" if skip else ""
    if named:
        more = f" (and {len(named) - 1} more like it)" if len(named) > 1 else ""
        return f"add the reference file {named[0]}{more}{tail}"
    if manifest is not None and manifest.tasks.path is not None:
        where = display_path(Path(env.source).parent / manifest.tasks.path)
        return f'add a "reference" field to the task\'s line in {where}{tail}'
    if _function_sources(env):
        return (
            'set `references = "<folder>"` in the source\'s [tasks].args (a folder under '
            "datasets/, or an absolute path) and add <folder>/<task id, `/` as `_`>.<ext> per "
            f"task (ext: that of the stack's answer file){tail}"
        )
    return f"give the tasks a reference in their task set{tail}"


def failure_hint(result: ReferenceResult) -> str:
    """The last useful lines of what the test command printed, for a failing reference."""
    d = result.details
    tests = [t for t in d.get("tests") or [] if t.get("outcome") != "passed"]
    text = str(tests[0].get("message", "")) if tests else ""
    text = text or str(d.get("stderr", "")) or str(d.get("stdout", ""))
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return " | ".join(lines[-3:])[:REASON_CHARS]
