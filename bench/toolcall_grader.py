"""Bench the tool-call grader on BFCL's four Python categories, against BFCL's own checker.

1. Acceptance: every ground truth rendered as a model would write it (Hermes blocks and one
   plain JSON array; first acceptable value per parameter, `""`-optional parameters left out
   unless the schema requires them) must be accepted. BFCL's checker sees the same calls.
2. Agreement: each answer is perturbed (wrong value, missing required argument, wrong type,
   unknown function, extra call) and graded by rlvr and by bfcl_eval's `ast_checker` on the
   decoded call list; every disagreement is listed with the side that is right and why.
   Four probes aim where the two differ or should not: punctuation dropped from a string,
   true/false for 1/0, a string upper-cased, parallel calls reversed.
3. Throughput of both checkers.

Run: python bench/toolcall_grader.py [--limit N]   (needs bfcl-eval and its soundfile import)
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from rlvr.graders.toolcall import ToolCallGrader
from rlvr.graders.toolcall.match import param_diff
from rlvr.graders.toolcall.parse import ToolCall, format_hermes
from rlvr.tasksets import bfcl
from rlvr.types import Task

CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple")
BFCL_MODEL = "gorilla-openfunctions-v2"  # a config whose function names keep their dots
BFCL_PUNCT = re.compile(r"[,./\-_*^]")
console = Console(width=180)


def bfcl_checker() -> Callable[[Task, list[ToolCall]], tuple[bool, str]]:
    """BFCL's ast_checker on a decoded call list `[{name: args}]`, as its runner passes it."""
    from bfcl_eval.constants.enums import Language
    from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker

    def run(task: Task, calls: list[ToolCall]) -> tuple[bool, str]:
        output = [{c["name"]: copy.deepcopy(c["arguments"])} for c in calls]
        try:
            result = ast_checker(
                copy.deepcopy(task.tools),
                output,
                copy.deepcopy(task.gold),
                Language.PYTHON,
                task.meta["category"],
                BFCL_MODEL,
            )
        except Exception as e:  # BFCL's checker crashes on some inputs; count it as a reject
            return False, f"crash: {type(e).__name__}: {e}"
        return bool(result["valid"]), str(result.get("error_type", ""))

    return run


def _schema(task: Task, name: str) -> dict[str, Any]:
    return next(t["parameters"] for t in task.tools if t["name"] == name)


def _alts(task: Task, name: str, param: str) -> list[Any]:
    for call in task.gold:
        if name in call and param in call[name]:
            return call[name][param]
    return []


def _changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + (1 if isinstance(value, int) else 1.5)
    if isinstance(value, str):
        return "not " + value
    if isinstance(value, list) and value:
        return [*value, value[-1]]
    return None


def wrong_value(task: Task, calls: list[ToolCall]) -> list[ToolCall] | None:
    """The first argument whose value can be changed to one the task does not accept."""
    for param, value in calls[0]["arguments"].items():
        new = _changed(value)
        alts = _alts(task, calls[0]["name"], param)
        if new is not None and param_diff(new, alts, param) is not None:
            out = copy.deepcopy(calls)
            out[0]["arguments"][param] = new
            return out
    return None


def missing_required(task: Task, calls: list[ToolCall]) -> list[ToolCall] | None:
    required = _schema(task, calls[0]["name"]).get("required", [])
    for param in calls[0]["arguments"]:
        if param in required:
            out = copy.deepcopy(calls)
            del out[0]["arguments"][param]
            return out
    return None


def _retyped(value: Any) -> Any:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return [value]
    return json.dumps(value)


def wrong_type(task: Task, calls: list[ToolCall]) -> list[ToolCall] | None:
    if not calls[0]["arguments"]:
        return None
    out = copy.deepcopy(calls)
    param = next(iter(out[0]["arguments"]))
    out[0]["arguments"][param] = _retyped(out[0]["arguments"][param])
    return out


def unknown_function(task: Task, calls: list[ToolCall]) -> list[ToolCall] | None:
    out = copy.deepcopy(calls)
    out[0]["name"] = calls[0]["name"] + "_v2"
    return out


def extra_call(task: Task, calls: list[ToolCall]) -> list[ToolCall] | None:
    return [*copy.deepcopy(calls), copy.deepcopy(calls[0])]


def punctuation(task: Task, calls: list[ToolCall]) -> list[ToolCall] | None:
    """Drop BFCL's normalised punctuation from the first string argument that has some."""
    for i, call in enumerate(calls):
        for param, value in call["arguments"].items():
            if isinstance(value, str) and BFCL_PUNCT.search(value.strip()):
                out = copy.deepcopy(calls)
                out[i]["arguments"][param] = BFCL_PUNCT.sub("", value)
                return out
    return None


def reordered(task: Task, calls: list[ToolCall]) -> list[ToolCall] | None:
    """Parallel calls in reverse order: both checkers should still accept."""
    return list(reversed(copy.deepcopy(calls))) if len(calls) > 1 else None


def uppercase(task: Task, calls: list[ToolCall]) -> list[ToolCall] | None:
    """The first string argument in upper case: both checkers compare case-insensitively."""
    for i, call in enumerate(calls):
        for param, value in call["arguments"].items():
            if isinstance(value, str) and value.upper() != value:
                out = copy.deepcopy(calls)
                out[i]["arguments"][param] = value.upper()
                return out
    return None


def _bool_swap(value: Any) -> tuple[Any, bool]:
    if type(value) is int and value in (0, 1):
        return bool(value), True
    if isinstance(value, dict):
        for key, item in value.items():
            new, done = _bool_swap(item)
            if done:
                return {**value, key: new}, True
    if isinstance(value, list):
        for i, item in enumerate(value):
            new, done = _bool_swap(item)
            if done:
                return [*value[:i], new, *value[i + 1 :]], True
    return value, False


def bool_for_int(task: Task, calls: list[ToolCall]) -> list[ToolCall] | None:
    """The first integer 0 or 1 (at any depth) written as false or true."""
    for i, call in enumerate(calls):
        new, done = _bool_swap(call["arguments"])
        if done:
            out = copy.deepcopy(calls)
            out[i]["arguments"] = new
            return out
    return None


PERTURBATIONS = {
    "wrong_value": wrong_value,
    "missing_required": missing_required,
    "wrong_type": wrong_type,
    "unknown_function": unknown_function,
    "extra_call": extra_call,
}
PROBES = {
    "punctuation": punctuation,
    "bool_for_int": bool_for_int,
    "uppercase": uppercase,
    "reordered": reordered,
}


@dataclass
class Row:
    """One graded answer: which task, which perturbation, both verdicts."""

    category: str
    task_id: str
    perturbation: str
    calls: list[ToolCall]
    original: list[ToolCall]
    rlvr_ok: bool
    rlvr_reason: str
    bfcl_ok: bool
    bfcl_reason: str


def _first_changed(row: Row) -> tuple[Any, Any]:
    for a, b in zip(row.original, row.calls, strict=False):
        for key, value in a["arguments"].items():
            if json.dumps(b["arguments"].get(key)) != json.dumps(value):
                return value, b["arguments"].get(key)
    return None, None


RULES = {
    "enum": ("rlvr", "the value is outside the schema's enum; BFCL never checks enum"),
    "format": ("rlvr", "the value breaks the schema's format: date; BFCL never checks format"),
    "variable": (
        "rlvr",
        "BFCL accepts any value of the possible answer's type in place of the declared type "
        "(its 'variable' rule), so a string passes for a number",
    ),
    "punct-meaning": (
        "rlvr",
        "BFCL's normaliser strips ,./-_*^ so a changed number, date, path or formula still "
        "matches (as '1.5' matches '15')",
    ),
    "punct-format": (
        "debatable",
        "only separating punctuation went ('Boston, MA' -> 'Boston MA'); BFCL's leniency is "
        "defensible here, rlvr counts every character but case and whitespace",
    ),
    "bool-int": (
        "rlvr",
        "true/false replaced 1/0; BFCL compares nested values with Python ==, where True == 1",
    ),
    "greedy": (
        "rlvr",
        "a valid assignment of calls to expectations exists, but BFCL's greedy matcher hands "
        "the first fitting call to an expectation that had another choice",
    ),
    "unexplained": ("?", "not explained by a known rule; inspect it"),
}
_MEANINGFUL = re.compile(r"\d[,./\-_*^]|[,./\-_*^]\d|[*^]|/\w|\w_\w")


def _first_changed(row: Row) -> tuple[Any, Any]:
    for a, b in zip(row.original, row.calls, strict=False):
        for key, value in a["arguments"].items():
            if json.dumps(b["arguments"].get(key)) != json.dumps(value):
                return value, b["arguments"].get(key)
    return None, None


def judge(row: Row) -> tuple[str, str]:
    """The rule that explains a disagreement, and the change that triggered it."""
    old, new = _first_changed(row)
    change = f"{json.dumps(old)[:40]} -> {json.dumps(new)[:40]}"
    if not row.rlvr_ok and "is not one of" in row.rlvr_reason:
        return "enum", change
    if not row.rlvr_ok and "is not a 'date'" in row.rlvr_reason:
        return "format", change
    if row.perturbation == "wrong_type" and row.bfcl_ok:
        return "variable", change
    if row.perturbation == "punctuation" and row.bfcl_ok:
        return ("punct-meaning" if _MEANINGFUL.search(str(old)) else "punct-format"), change
    if row.perturbation == "bool_for_int" and row.bfcl_ok:
        return "bool-int", change
    if row.perturbation == "reordered" and row.rlvr_ok and "cannot_find_match" in row.bfcl_reason:
        return "greedy", "call order reversed"
    return "unexplained", f"{change}; rlvr: {row.rlvr_reason[:60]}; bfcl: {row.bfcl_reason}"


def _grade(
    grader: ToolCallGrader, task: Task, answers: list[str], clock: dict[str, float]
) -> list[Any]:
    start = time.perf_counter()
    verdicts = grader.grade_group(task, answers)
    clock["rlvr"] += time.perf_counter() - start
    clock["rlvr_n"] += len(answers)
    return verdicts


def _bfcl(check: Callable, task: Task, calls: list[ToolCall], clock: dict[str, float]) -> Any:
    start = time.perf_counter()
    result = check(task, calls)
    clock["bfcl"] += time.perf_counter() - start
    clock["bfcl_n"] += 1
    return result


def run_category(
    category: str, limit: int | None, check: Callable, clock: dict[str, float]
) -> tuple[dict[str, int], list[Row]]:
    grader = ToolCallGrader()
    tasks = bfcl.load(category)[:limit]
    accept = Counter(tasks=len(tasks))
    rows: list[Row] = []
    for task in tasks:
        calls = bfcl.reference_calls(task.tools, task.gold)
        hermes, plain = grader_answers(calls)
        v_hermes, v_plain = _grade(grader, task, [hermes, plain], clock)
        accept["hermes"] += v_hermes.passed
        accept["json"] += v_plain.passed
        accept["bfcl"] += _bfcl(check, task, calls, clock)[0]
        for name, perturb in {**PERTURBATIONS, **PROBES}.items():
            changed = perturb(task, calls)
            if changed is None:
                continue
            (verdict,) = _grade(grader, task, [format_hermes(changed)], clock)
            ok, err = _bfcl(check, task, changed, clock)
            rows.append(
                Row(
                    category, task.id, name, changed, calls, verdict.passed, verdict.reason, ok, err
                )
            )
    return dict(accept), rows


def grader_answers(calls: list[ToolCall]) -> tuple[str, str]:
    """The two renderings: Hermes blocks, and one plain JSON array."""
    return format_hermes(calls), json.dumps([dict(c) for c in calls])


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "-"


def print_acceptance(results: dict[str, dict[str, int]]) -> None:
    table = Table(title="Rendered ground truth accepted")
    for col in ("category", "tasks", "rlvr Hermes", "rlvr JSON", "BFCL checker"):
        table.add_column(col, justify="left" if col == "category" else "right")
    for category, acc in results.items():
        n = acc["tasks"]
        table.add_row(
            category, str(n), _pct(acc["hermes"], n), _pct(acc["json"], n), _pct(acc["bfcl"], n)
        )
    console.print(table)


def print_agreement(rows: list[Row]) -> None:
    table = Table(title="Perturbed answers: rejected by each checker, and agreement")
    for col in ("perturbation", "answers", "rlvr rejects", "BFCL rejects", "agree"):
        table.add_column(col, justify="left" if col == "perturbation" else "right")
    for name in [*PERTURBATIONS, *PROBES]:
        sub = [r for r in rows if r.perturbation == name]
        agree = sum(r.rlvr_ok == r.bfcl_ok for r in sub)
        table.add_row(
            name,
            str(len(sub)),
            _pct(sum(not r.rlvr_ok for r in sub), len(sub)),
            _pct(sum(not r.bfcl_ok for r in sub), len(sub)),
            _pct(agree, len(sub)),
        )
    main = [r for r in rows if r.perturbation in PERTURBATIONS]
    agree = sum(r.rlvr_ok == r.bfcl_ok for r in main)
    table.add_row("five perturbations", str(len(main)), "", "", _pct(agree, len(main)))
    console.print(table)


def print_disagreements(rows: list[Row]) -> None:
    table = Table(title="Disagreements (one per line; rules explained below)")
    for col in ("category", "id", "perturbation", "rlvr", "BFCL", "right", "rule", "change"):
        table.add_column(col, no_wrap=col != "change", overflow="ellipsis")
    by_rule: Counter[str] = Counter()
    for r in rows:
        if r.rlvr_ok == r.bfcl_ok:
            continue
        rule, change = judge(r)
        by_rule[rule] += 1
        rl = "accept" if r.rlvr_ok else "reject"
        bf = "accept" if r.bfcl_ok else "reject"
        table.add_row(r.category, r.task_id, r.perturbation, rl, bf, RULES[rule][0], rule, change)
    console.print(table)
    legend = Table(title="Rules: which side is right, and why")
    for col in ("rule", "count", "right", "why"):
        legend.add_column(col, overflow="fold")
    for rule, n in by_rule.most_common():
        legend.add_row(rule, str(n), *RULES[rule])
    console.print(legend)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="tasks per category")
    args = parser.parse_args()
    check = bfcl_checker()
    clock: dict[str, float] = Counter()
    acceptance, rows = {}, []
    for category in CATEGORIES:
        acceptance[category], cat_rows = run_category(category, args.limit, check, clock)
        rows.extend(cat_rows)
    print_acceptance(acceptance)
    print_agreement(rows)
    print_disagreements(rows)
    console.print(
        f"Throughput: rlvr {clock['rlvr_n'] / clock['rlvr']:.0f} answers/s "
        f"({clock['rlvr_n']} answers: parse + schema + values, validators built once per task); "
        f"BFCL ast_checker {clock['bfcl_n'] / clock['bfcl']:.0f} answers/s on pre-decoded calls"
    )


if __name__ == "__main__":
    main()
