"""Audit candidates for math and tool-call tasks: forms that must pass and faults that must fail.

Math: the gold's own equivalent forms (boxed, `x = g`, `a/b` for `\\frac{a}{b}`, a decimal for
a terminating fraction, `\\sqrt{k^2 n}` for `k\\sqrt{n}`, a set in another order, thousands
separators) must pass; perturbed golds (each number one up or down, the sign flipped, a pair
reversed, a fraction turned over, a set missing an element) must fail. Tool calls: the
reference calls must pass; the same calls with schema-violating arguments (a wrong type, a
required argument dropped, an unknown key, a value outside an enum, an unknown function) must
fail, as must any call at all on a task where no call fits.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rlvr.graders.toolcall.parse import parse_calls
from rlvr.types import Task

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")
FRAC = re.compile(r"^(-?)\\frac\{(-?\d+)\}\{(\d+)\}$")
ROOT = re.compile(r"^(-?\d*)\\sqrt\{(\d+)\}$")


@dataclass(frozen=True)
class Candidate:
    """One answer the audit grades: its role, a short name, the completion, and a diff to show."""

    role: str  # "reference" | "trivial" | "mutant" | "equivalent"
    name: str
    completion: str
    operator: str = ""
    diff: str = ""


def _boxed(value: str) -> str:
    return f"The answer is $\\boxed{{{value}}}$."


def equivalent_forms(gold: str) -> list[tuple[str, str]]:
    """(name, answer) pairs equal in value to `gold` that a grader should accept."""
    g = gold.strip()
    out = [("boxed", _boxed(g)), ("answer_line", f"Answer: {g}")]
    if re.fullmatch(r"-?\d+", g):
        n = int(g)
        out += [
            ("decimal", _boxed(f"{n}.0")),
            ("fraction", _boxed(f"\\frac{{{2 * n}}}{{2}}")),
            ("equation", _boxed(f"x = {n}")),
        ]
        if abs(n) >= 1000:
            out.append(("thousands", _boxed(f"{n:,}")))
    elif m := FRAC.match(g):
        sign, a, b = m.group(1), int(m.group(2)), int(m.group(3))
        value = Fraction(int(f"{sign}1") * a, b)
        out += [
            ("slash", _boxed(f"{sign}{a}/{b}")),
            ("scaled", _boxed(f"{sign}\\frac{{{2 * a}}}{{{2 * b}}}")),
            ("dfrac", _boxed(f"{sign}\\dfrac{{{a}}}{{{b}}}")),
        ]
        den = value.denominator
        while den % 2 == 0:
            den //= 2
        while den % 5 == 0:
            den //= 5
        if den == 1:
            out.append(("decimal", _boxed(str(float(value)))))
    elif m := ROOT.match(g):
        k = int(m.group(1)) if m.group(1) not in ("", "-") else (-1 if m.group(1) == "-" else 1)
        n = int(m.group(2))
        if k > 0:
            out.append(("one_root", _boxed(f"\\sqrt{{{k * k * n}}}")))
        out.append(("spaced", _boxed(f"{m.group(1)} \\sqrt{{{n}}}".strip())))
    elif g.startswith("\\{") and g.endswith("\\}"):
        items = [s.strip() for s in g[2:-2].split(",")]
        if len(items) > 1:
            out.append(("reordered", _boxed("\\{" + ", ".join(reversed(items)) + "\\}")))
    elif g.startswith("(") and g.endswith(")"):
        out.append(("tight", _boxed(g.replace(", ", ","))))
    return out


def perturbed_golds(gold: str) -> list[tuple[str, str]]:
    """(description, answer) pairs that differ from `gold` and a grader must reject."""
    g = gold.strip()
    out: list[tuple[str, str]] = []
    for m in NUMBER.finditer(g):
        text = m.group(0)
        value = Fraction(text)
        for delta in (1, -1):
            new = value + delta
            shown = str(new) if new.denominator == 1 else str(float(new))
            out.append((f"{text} -> {shown}", g[: m.start()] + shown + g[m.end() :]))
    if NUMBER.fullmatch(g) and g not in ("0", "0.0"):
        out.append(("sign flipped", g[1:] if g.startswith("-") else "-" + g))
    if (m := FRAC.match(g)) and m.group(2).lstrip("-") != m.group(3):
        out.append(("fraction turned over", f"{m.group(1)}\\frac{{{m.group(3)}}}{{{m.group(2)}}}"))
    if m := ROOT.match(g):
        out.append(("root dropped", m.group(1) or "1"))
    if g.startswith("(") and g.endswith(")"):
        items = [s.strip() for s in g[1:-1].split(",")]
        if len(items) == 2 and items[0] != items[1]:
            out.append(("pair reversed", f"({items[1]}, {items[0]})"))
    if g.startswith("\\{") and g.endswith("\\}"):
        items = [s.strip() for s in g[2:-2].split(",")]
        if len(items) > 1:
            out.append(("element dropped", "\\{" + ", ".join(items[1:]) + "\\}"))
    seen, unique = {g}, []
    for desc, ans in out:
        if ans not in seen:
            seen.add(ans)
            unique.append((desc, ans))
    return unique


def math_candidates(task: Task) -> list[Candidate]:
    """Reference, equivalent forms, perturbed golds and trivial answers of one math task."""
    gold = str(task.gold or "")
    out = [Candidate("reference", "reference", task.reference)] if task.reference else []
    out += [Candidate("equivalent", name, ans) for name, ans in equivalent_forms(gold)]
    out += [
        Candidate("mutant", desc, _boxed(ans), "perturbed_gold", f"- {gold}\n+ {ans}")
        for desc, ans in perturbed_golds(gold)
    ]
    for name, ans in (
        ("empty", ""),
        ("zero", _boxed("0")),
        ("one", _boxed("1")),
        ("no_answer", "I am not sure."),
    ):
        if ans and gold.strip() in ("0", "1") and ans.endswith(f"{{{gold.strip()}}}$."):
            continue
        out.append(Candidate("trivial", name, ans))
    return out


def _wrong_type(value: Any) -> Any:
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, int | float):
        return f"{value}"
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return {"items": value}
    return 12345


def _call_text(calls: list[dict[str, Any]]) -> str:
    return "\n".join(f"<tool_call>{json.dumps(c)}</tool_call>" for c in calls)


def _schemas(task: Task) -> dict[str, dict[str, Any]]:
    out = {}
    for spec in task.tools or []:
        fn = spec.get("function", spec)
        out[fn["name"]] = fn.get("parameters") or {}
    return out


def _call_variants(
    call: dict[str, Any], schema: dict[str, Any]
) -> list[tuple[dict[str, Any], str, str]]:
    """(changed call, operator, description) for each way to break one call's schema."""
    args = call.get("arguments", {})
    props, required = schema.get("properties", {}), schema.get("required", [])
    out = []
    for key, value in args.items():
        wrong = {**call, "arguments": {**args, key: _wrong_type(value)}}
        out.append((wrong, "wrong_type", f"{key} of the wrong type"))
        if (props.get(key) or {}).get("enum"):
            unlisted = {**call, "arguments": {**args, key: "not-a-listed-value"}}
            out.append((unlisted, "enum", f"{key} outside its enum"))
    for key in required:
        if key in args:
            dropped = {**call, "arguments": {k: v for k, v in args.items() if k != key}}
            out.append((dropped, "missing_required", f"required {key} dropped"))
    extra = {**call, "arguments": {**args, "unexpected_argument": 1}}
    out.append((extra, "unknown_key", "unknown key added"))
    out.append(
        ({**call, "name": call["name"] + "_unknown"}, "unknown_function", "unknown function name")
    )
    return out


def _schema_mutants(
    calls: list[dict[str, Any]], schemas: dict[str, dict[str, Any]]
) -> list[Candidate]:
    out = []
    for i, call in enumerate(calls):
        for new_call, op, desc in _call_variants(call, schemas.get(call["name"], {})):
            new = [*calls[:i], new_call, *calls[i + 1 :]]
            diff = f"- {json.dumps(call)}\n+ {json.dumps(new_call)}"
            name = f"call {i + 1} {call['name']}: {desc}"
            out.append(Candidate("mutant", name, _call_text(new), op, diff))
    return out


def toolcall_candidates(task: Task) -> list[Candidate]:
    """Reference, schema-violating mutants and trivial answers of one tool-call task."""
    ref = task.reference or ""
    out = [Candidate("reference", "reference", ref)] if ref else []
    calls = [dict(c) for c in (parse_calls(ref).calls or [])]
    schemas = _schemas(task)
    if task.gold == []:
        for name, schema in list(schemas.items())[:3]:
            args = {k: 1 for k in schema.get("required", [])}
            call = {"name": name, "arguments": args}
            out.append(
                Candidate(
                    "mutant",
                    f"calls {name} although no tool fits",
                    _call_text([call]),
                    "call_when_none_fits",
                    f"+ {json.dumps(call)}",
                )
            )
        return out
    out += _schema_mutants(calls, schemas)
    out.append(Candidate("trivial", "empty", ""))
    out.append(Candidate("trivial", "no_call", "I cannot help with that."))
    for name, schema in schemas.items():
        if schema.get("required"):
            out.append(
                Candidate(
                    "trivial", f"no_arguments:{name}", _call_text([{"name": name, "arguments": {}}])
                )
            )
    return out
