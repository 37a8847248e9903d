"""Berkeley Function Calling Leaderboard (BFCL) tasks, read from the installed `bfcl-eval`.

The data ships inside the `bfcl-eval` package (`bfcl_eval/data/BFCL_v<N>_<category>.json`,
JSON lines despite the name, and `data/possible_answer/` with the same names). It is located
through the package's import spec and never copied into this repository; the package itself is
not imported (its import pulls in every model client it supports).

Each Task keeps BFCL's originals: `tools` are BFCL's function schemas (non-standard types such
as `dict` and `float` are converted only when validating) and `gold` is BFCL's ground truth
(`[]` for the irrelevance categories, where no call should be made). `reference` is one
answer the grader must accept (see `reference_calls`), for warm starts and grader audits.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError
from rlvr.graders.toolcall.match import answer_form, is_optional
from rlvr.graders.toolcall.parse import ToolCall, format_hermes
from rlvr.types import Task

CATEGORIES = (
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
    "live_irrelevance",
)
"""Single-turn Python-typed categories; Java/JavaScript and multi-turn sets need other graders."""

NO_CALL_CATEGORIES = ("irrelevance", "live_irrelevance")


def data_dir() -> Path:
    """The `data` folder of the installed bfcl-eval package."""
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or not spec.submodule_search_locations:
        raise RlvrError(
            "BFCL task sets need the bfcl-eval package, which is not installed",
            "pip install 'rlvr[bfcl]' (bfcl-eval; also in the dev extra)",
        )
    folder = Path(next(iter(spec.submodule_search_locations))) / "data"
    if not folder.is_dir():
        raise RlvrError(
            f"the installed bfcl-eval has no data folder at {folder}",
            "reinstall it with `pip install --force-reinstall bfcl-eval`",
        )
    return folder


def _data_file(folder: Path, category: str) -> Path:
    """The newest `BFCL_v<N>_<category>.json`; `parallel` must not match `live_parallel`."""
    pattern = re.compile(rf"BFCL_v(\d+)_{re.escape(category)}\.json")
    versions = {}
    for path in folder.glob("BFCL_v*.json"):
        m = pattern.fullmatch(path.name)
        if m:
            versions[int(m.group(1))] = path
    if not versions:
        raise RlvrError(
            f"bfcl-eval data folder {folder} has no file for category {category!r}",
            "upgrade bfcl-eval, or pick another category",
        )
    return versions[max(versions)]


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise RlvrError(
                    f"{path}:{lineno}: not valid JSON ({e.msg})",
                    "reinstall bfcl-eval; the packaged data is damaged",
                ) from None
    return rows


def _prompt(question: list[list[dict[str, Any]]]) -> str:
    """All messages of all turns, in order, joined by blank lines."""
    parts = [str(m.get("content", "")) for turn in question for m in turn]
    return "\n\n".join(p for p in parts if p)


NO_CALL_REFERENCE = "None of the offered functions fits this request, so I make no call."


def _render(value: Any, schema: dict[str, Any] | None) -> Any:
    """One concrete value from a possible answer: first choices, optional keys left out."""
    schema = schema if isinstance(schema, dict) else {}
    if isinstance(value, dict) and answer_form(value):
        props, required = schema.get("properties", {}), schema.get("required", [])
        out = {}
        for key, alts in value.items():
            choices = [a for a in alts if a != ""]
            if choices and not (is_optional(alts) and key not in required):
                out[key] = _render(choices[0], props.get(key))
        return out
    if isinstance(value, dict):
        return {k: _render(v, schema.get("properties", {}).get(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_render(v, schema.get("items")) for v in value]
    return value


def reference_calls(tools: list[dict[str, Any]], gold: list[dict[str, Any]]) -> list[ToolCall]:
    """The calls a model would write for `gold`: the first acceptable value of each parameter;
    a parameter marked optional (`""`) is left out unless the schema requires it."""
    schemas = {t["name"]: t.get("parameters", {}) for t in tools}
    calls = []
    for expected in gold:
        ((name, params),) = expected.items()
        calls.append(ToolCall(name=name, arguments=_render(params, schemas.get(name))))
    return calls


def load(category: str = "simple_python") -> list[Task]:
    """The BFCL tasks of one category, with BFCL's ids, function schemas and ground truth."""
    if category not in CATEGORIES:
        raise RlvrError(
            f"unknown BFCL category {category!r}",
            f"use one of {', '.join(CATEGORIES)}",
        )
    folder = data_dir()
    questions_path = _data_file(folder, category)
    gold: dict[str, Any] = {}
    if category not in NO_CALL_CATEGORIES:
        answers_path = _data_file(folder / "possible_answer", category)
        gold = {row["id"]: row["ground_truth"] for row in _read_jsonl(answers_path)}
    tasks = []
    for row in _read_jsonl(questions_path):
        if category in NO_CALL_CATEGORIES:
            expected: list[Any] = []
        elif row["id"] in gold:
            expected = gold[row["id"]]
        else:
            raise RlvrError(
                f"{questions_path}: task {row['id']!r} has no possible answer in "
                f"{folder / 'possible_answer'}",
                "reinstall bfcl-eval; the packaged data is incomplete",
            )
        tasks.append(
            Task(
                id=row["id"],
                prompt=_prompt(row["question"]),
                tools=row["function"],
                gold=expected,
                reference=format_hermes(reference_calls(row["function"], expected))
                if expected
                else NO_CALL_REFERENCE,
                meta={"category": category, "source": f"bfcl-eval {questions_path.name}"},
            )
        )
    return tasks
