"""Compare decoded calls with expected calls given in BFCL's possible-answer form.

Expected calls look like `[{"func": {"param": [acceptable, values, ...]}}]`. A `""` among the
acceptable values marks a parameter that may be omitted (it is never itself a value). A dict
among them whose values are all lists is again in possible-answer form (each key lists its
acceptable values); any other dict is a literal that must match key for key; a list is
compared item by item, in order. Unlike BFCL, comparison recurses to any depth.

Value rules, and why they differ from BFCL's checker:

- Types are never conflated: `true` is not `1`, `"5"` is not `5`. Numbers compare by value,
  so `5` matches `5.0` (JSON has one number type; BFCL also accepts an int for a float).
- Strings compare case-insensitively and ignoring whitespace, but every other character
  counts. BFCL also strips `,./-_*^`, which makes `"1.5"` equal `"15"` and `"-3"` equal `"3"`.
- A parameter the expected call does not list is an unexpected argument, as in BFCL.

Parallel calls match in any order through a maximum bipartite matching (BFCL matches greedily,
which can miss a valid assignment when one call fits two expectations).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rlvr.graders.toolcall.parse import ToolCall
from rlvr.graders.toolcall.schema import Function, TaskSchemaError


@dataclass(frozen=True)
class ExpectedCall:
    """One expected call: the function and, per parameter, its acceptable values."""

    name: str
    params: dict[str, list[Any]]


def _is_blank(value: Any) -> bool:
    return isinstance(value, str) and value == ""


def is_optional(alternatives: list[Any]) -> bool:
    """BFCL marks a parameter that may be omitted with `""` among its acceptable values."""
    return any(_is_blank(a) for a in alternatives)


def answer_form(cand: dict[str, Any]) -> bool:
    """A nested expected object lists acceptable values per key; otherwise it is a literal."""
    return all(isinstance(v, list) for v in cand.values())


def _check_gold(value: Any, where: str) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            for alt in item if answer_form(value) else [item]:
                _check_gold(alt, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_gold(item, f"{where}[{i}]")
    elif not (value is None or isinstance(value, str | int | float)):
        raise TaskSchemaError(f"{where}: {value!r} is not a JSON value")


def parse_expected(expected: Any, funcs: dict[str, Function]) -> list[ExpectedCall]:
    """Validate a BFCL ground-truth list against the offered functions."""
    if not isinstance(expected, list):
        raise TaskSchemaError(f"expected calls must be a list, got {_show(expected)}")
    out = []
    for i, item in enumerate(expected):
        where = f"expected[{i}]"
        if not isinstance(item, dict) or len(item) != 1:
            raise TaskSchemaError(
                f"{where}: must be one {{function name: {{param: [values]}}}} object, "
                f"got {_show(item)}"
            )
        ((name, params),) = item.items()
        if name not in funcs:
            raise TaskSchemaError(
                f"{where}: function {name!r} is not among the offered tools {sorted(funcs)}"
            )
        if not isinstance(params, dict):
            raise TaskSchemaError(f"{where}.{name}: parameters must be an object")
        for param, alts in params.items():
            if not isinstance(alts, list):
                raise TaskSchemaError(
                    f"{where}.{name}.{param}: acceptable values must be a list, "
                    f"got {_show(alts)}; write [{_show(alts)}]"
                )
            for alt in alts:
                _check_gold(alt, f"{where}.{name}.{param}")
        out.append(ExpectedCall(name=name, params=params))
    return out


def _show(value: Any, limit: int = 80) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def norm_str(text: str) -> str:
    """Case-folded with all whitespace removed; punctuation is kept."""
    return "".join(text.split()).casefold()


def _scalar_equal(value: Any, cand: Any) -> bool:
    if isinstance(cand, bool) or isinstance(value, bool):
        return type(value) is type(cand) and value == cand
    if isinstance(cand, int | float):
        return isinstance(value, int | float) and value == cand
    if isinstance(cand, str):
        return isinstance(value, str) and norm_str(value) == norm_str(cand)
    return cand is None and value is None


def _dict_diff(value: Any, cand: dict[str, Any], path: str) -> str | None:
    if not isinstance(value, dict):
        return f"{path}: got {_show(value)}, expected an object"
    alternatives = answer_form(cand)
    for key, item in value.items():
        if key not in cand:
            return f"{path}.{key}: unexpected key"
        sub, want = f"{path}.{key}", cand[key]
        diff = param_diff(item, want, sub) if alternatives else value_diff(item, want, sub)
        if diff:
            return diff
    for key, alts in cand.items():
        if key not in value and not (alternatives and is_optional(alts)):
            return f"{path}.{key}: missing"
    return None


def _list_diff(value: Any, cand: list[Any], path: str) -> str | None:
    if not isinstance(value, list):
        return f"{path}: got {_show(value)}, expected an array"
    if len(value) != len(cand):
        return f"{path}: got {len(value)} items, expected {len(cand)}"
    for i, (item, expected) in enumerate(zip(value, cand, strict=True)):
        diff = value_diff(item, expected, f"{path}[{i}]")
        if diff:
            return diff
    return None


def value_diff(value: Any, cand: Any, path: str) -> str | None:
    """None when `value` matches one expected value `cand`; else where and how it differs."""
    if isinstance(cand, dict):
        return _dict_diff(value, cand, path)
    if isinstance(cand, list):
        return _list_diff(value, cand, path)
    if _scalar_equal(value, cand):
        return None
    return f"{path}: got {_show(value)}, expected {_show(cand)}"


def param_diff(value: Any, alternatives: list[Any], path: str) -> str | None:
    """None when `value` matches one of the acceptable values."""
    choices = [a for a in alternatives if not _is_blank(a)]
    if not choices:
        return f"{path}: expected to be omitted, got {_show(value)}"
    diffs = []
    for cand in choices:
        diff = value_diff(value, cand, path)
        if diff is None:
            return None
        diffs.append(diff)
    if len(choices) == 1:
        return diffs[0]
    if not any(isinstance(c, dict | list) for c in choices):
        return f"{path}: got {_show(value)}, expected one of {_show(choices)}"
    return f"{path}: matches none of {len(choices)} acceptable values; first: {diffs[0]}"


def call_diff(call: ToolCall, exp: ExpectedCall) -> str | None:
    """None when the call's name and every argument match the expected call."""
    if call["name"] != exp.name:
        return f"called {call['name']!r}, expected {exp.name!r}"
    args = call["arguments"]
    for param, value in args.items():
        if param not in exp.params:
            return f"{exp.name}.{param}: argument not expected by the task"
        diff = param_diff(value, exp.params[param], f"{exp.name}.{param}")
        if diff:
            return diff
    for param, alts in exp.params.items():
        if param not in args and not is_optional(alts):
            return f"{exp.name}.{param}: missing"
    return None


def same_json(a: Any, b: Any) -> bool:
    """Exact JSON equality that keeps booleans apart from numbers."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


def gold_excuses(fn: Function, exp: ExpectedCall, param: str, value: Any) -> bool:
    """True when the task itself lists `value` for `param` although it breaks the schema.

    A few BFCL tasks expect a value the offered schema forbids (a variable name such as
    `"data['sales']"` for an array, strings for an integer array). The task's explicit
    expectation wins for exactly that value, compared exactly; nothing else is excused.
    """
    validator = fn.param_validators.get(param)
    for cand in exp.params.get(param, []):
        if _is_blank(cand) or isinstance(cand, dict):
            continue
        if same_json(value, cand) and (validator is None or not validator.is_valid(cand)):
            return True
    return False


def max_matching(ok: list[list[bool]], n_expected: int) -> list[int | None]:
    """For each expected call, the index of the call matched to it (Kuhn's algorithm)."""
    owner: list[int | None] = [None] * n_expected

    def place(i: int, seen: set[int]) -> bool:
        for j in range(n_expected):
            if ok[i][j] and j not in seen:
                seen.add(j)
                if owner[j] is None or place(owner[j], seen):  # type: ignore[arg-type]
                    owner[j] = i
                    return True
        return False

    for i in range(len(ok)):
        place(i, set())
    return owner
