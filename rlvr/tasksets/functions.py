"""Tasks of a function-task file rendered for one stack, and what that stack leaves out.

An environment points its `[tasks]` at this loader with the file and the stack:

    [tasks]
    loader = "rlvr.tasksets.functions:load"
    args = { path = "humaneval/functions.jsonl", stack = "go", references = "humaneval/go" }

(on one line in TOML; `not_converted = "humaneval/not_converted.json"` adds the source's
problems that never became function tasks to the coverage notes; `id_prefix = "go-"` puts a
prefix before every id, so one file serves stacks whose environments had their own ids).
Paths are relative to the bundled `datasets/` folder (or absolute). Every task the stack's
translator can express becomes a `Task` whose prompt is the translator's rendering (or the
source's own prompt for that stack), whose `reference` is the stack's reference (from the task
file, or `references/<id>.<ext>` files, or else rendered from the task's Python reference by
the translator's optional `reference_from_python`) and whose `meta["function"]`
holds the language-neutral task for the function grader. `describe()` lists the rest, with the
translator's reason, for `rlvr envs show`.
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path
from typing import Any

from rlvr.bundled import bundled, source_folder
from rlvr.functions.task import FunctionTask, read_function_tasks
from rlvr.functions.translator import FROM_PYTHON, load_translator
from rlvr.types import Task


def datasets_dir() -> Path:
    """The bundled `datasets/` folder: the installed copy, or the source tree's."""
    return bundled("datasets") or source_folder("datasets")


def resolve(path: str) -> Path:
    p = Path(path)
    return p if p.is_absolute() else datasets_dir() / p


def reference_name(task_id: str) -> str:
    """File stem of a task's reference: `HumanEval/12` -> `HumanEval_12`."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", task_id)


def read_references(folder: str | None, ids: list[str]) -> dict[str, str]:
    """Reference files `<folder>/<reference_name(id)>.*` by task id (missing ones left out)."""
    if folder is None:
        return {}
    root = resolve(folder)
    if not root.is_dir():
        return {}
    by_stem = {p.stem: p for p in root.iterdir() if p.is_file()}
    return {
        i: by_stem[reference_name(i)].read_text("utf-8")
        for i in ids
        if reference_name(i) in by_stem
    }


def stack_reference(ftask: FunctionTask, translator: Any) -> str | None:
    """The task's stored reference for the stack, or one the translator renders from Python.

    A stack folder that ships `reference_from_python` gets references for every task that has
    a Python one (the synth set's) without a file per task; None when neither exists.
    """
    stored = ftask.references.get(translator.STACK)
    if stored is not None:
        return stored
    render = getattr(translator, FROM_PYTHON, None)
    source = ftask.references.get("python")
    return render(ftask, source) if render is not None and source is not None else None


def to_task(ftask: FunctionTask, translator: Any, reference: str | None = None) -> Task:
    """The stack's `Task` for a function task (the translator must support it)."""
    stack = translator.STACK
    return Task(
        id=ftask.id,
        prompt=translator.prompt(ftask),
        reference=reference or stack_reference(ftask, translator),
        entry_point=translator.entry_name(ftask),
        meta={
            "function": ftask.model_dump(mode="json", exclude_defaults=True),
            "judge": "function",
            "stack": stack,
            "difficulty": ftask.difficulty,
            "tags": list(ftask.tags),
            "n_cases": len(ftask.cases),
        },
    )


def _split(path: str, stack: str) -> tuple[Any, list[FunctionTask], list[dict[str, str]]]:
    translator = load_translator(stack)
    kept, left = [], []
    for ft in read_function_tasks(resolve(path)):
        why = translator.unsupported(ft)
        if ft.stacks and stack not in ft.stacks:
            why = ft.meta.get("stacks_reason") or f"limited to stacks {ft.stacks}"
        if why:
            left.append({"id": ft.id, "reason": why})
        else:
            kept.append(ft)
    return translator, kept, left


def _not_converted(path: str | None) -> list[dict[str, str]]:
    """Source problems that never became function tasks: {id: reason} JSON beside the set."""
    if path is None or not resolve(path).is_file():
        return []
    data = json.loads(resolve(path).read_text("utf-8"))
    return [{"id": k, "reason": f"not convertible: {v}"} for k, v in data.items()]


def _natural(text: str) -> list:
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def load(
    path: str,
    stack: str,
    references: str | None = None,
    not_converted: str | None = None,
    id_prefix: str = "",
) -> list[Task]:
    """Every task of `path` that `stack` can express, rendered for it.

    `id_prefix` goes before every task id (`go-` turns `fizzbuzz` into `go-fizzbuzz`): one
    file serves several stacks whose environments had their own ids; reference files keep the
    file's ids.
    """
    translator, kept, _ = _split(path, stack)
    refs = read_references(references, [ft.id for ft in kept])
    return [to_task(_renamed(ft, id_prefix), translator, refs.get(ft.id)) for ft in kept]


def _renamed(ft: FunctionTask, id_prefix: str) -> FunctionTask:
    return ft.model_copy(update={"id": id_prefix + ft.id}) if id_prefix else ft


def describe(
    path: str,
    stack: str,
    references: str | None = None,
    not_converted: str | None = None,
    id_prefix: str = "",
) -> dict[str, Any]:
    """Coverage for `rlvr envs show`: kept, untranslated (with reasons), missing references."""
    translator, kept, left = _split(path, stack)
    left = [{**d, "id": id_prefix + d["id"]} for d in left]
    left = sorted([*left, *_not_converted(not_converted)], key=lambda d: _natural(d["id"]))
    refs = read_references(references, [ft.id for ft in kept])
    no_ref = [
        id_prefix + ft.id
        for ft in kept
        if ft.id not in refs and stack_reference(ft, translator) is None
    ]
    return {
        "judge": f"function (driver in the sandbox, host-side comparison; stack {stack})",
        "n_source_tasks": len(kept) + len(left),
        "n_untranslated": len(left),
        "n_translated": len(kept),
        "untranslated": left,
        "missing_references": no_ref,
    }


def describe_load_many(sources: list[dict[str, Any]]) -> dict[str, Any]:
    """`describe` of each source of `load_many`, under the source's path."""
    out: dict[str, Any] = {}
    for source in sources:
        args = {k: v for k, v in source.items() if k != "split"}
        keep = set(inspect.signature(describe).parameters)
        out[str(args.get("path"))] = describe(**{k: v for k, v in args.items() if k in keep})
    return out


def load_many(sources: list[dict[str, Any]]) -> list[Task]:
    """The tasks of several function-task files, in order (a synth set, then HumanEval).

    Each source is `load`'s keyword arguments plus an optional `split` ("train" or "test") that
    pins every task of that source to one side: a benchmark mixed into a training set stays
    held out whatever the hash of its ids says.
    """
    tasks: list[Task] = []
    for source in sources:
        args = dict(source)
        side = args.pop("split", None)
        if side not in (None, "train", "test"):
            raise ValueError(f"source {args.get('path')!r}: split must be 'train' or 'test'")
        for task in load(**args):
            tasks.append(
                task
                if side is None
                else task.model_copy(update={"meta": {**task.meta, "split": side}})
            )
    return tasks
