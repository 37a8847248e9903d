"""Function-task translator for Python 3.11 (see rlvr/functions/translator.py for the contract).

The answer is `solution.py`; `driver.py` imports it and calls the entry point with each case's
arguments, decoded from canonical JSON by the signature (tuples as tuple, maps as dict). Results
are encoded back strictly by the declared return type: `type(v) is int`, so True, 3.0 or an
int subclass with a lying `__eq__` is not an int; a float result may be an int (as in Python's
own `3 == 3.0`). The driver keeps a private copy of the stdout descriptor for its result lines
and points `sys.stdout` at stderr, so the answer's prints never interleave with them.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from rlvr.functions.render import (
    doc_text,
    driver_cases_json,
    example_lines,
    signature_types,
    type_tree,
)
from rlvr.functions.task import FunctionTask
from rlvr.functions.typelang import FType, decode
from rlvr.graders.code.extract import function_program

STACK = "python"
LANGUAGES = ["python", "py", "python3"]
SANDBOX = {
    "answer_file": "solution.py",
    "writable_workspace": True,
    "test_command": ["python3", "-I", "-S", "driver.py"],
}


def unsupported(task: FunctionTask) -> str | None:
    return None


def entry_name(task: FunctionTask) -> str:
    return task.entry_point


def type_name(t: FType) -> str:
    if t.kind == "str":
        return "str"
    if t.kind == "none":
        return "None"
    if t.kind == "optional":
        return f"{type_name(t.args[0])} | None"
    if not t.args:
        return t.kind
    inner = ", ".join(type_name(a) for a in t.args)
    return f"{t.kind}[{inner}{', ...' if t.variadic else ''}]"


def _py(value: object) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "float('nan')"
        if math.isinf(value):
            return "float('inf')" if value > 0 else "-float('inf')"
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_py(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(_py(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_py(k)}: {_py(v)}" for k, v in value.items()) + "}"
    return repr(value)


def literal(t: FType, value: object) -> str:
    return _py(decode(t, value))


def signature(task: FunctionTask) -> str:
    params, ret = signature_types(task)
    args = ", ".join(
        f"{p.name}: {type_name(t)}" for p, t in zip(task.signature.params, params, strict=True)
    )
    return f"def {task.entry_point}({args}) -> {type_name(ret)}:"


def _call(task: FunctionTask, args: list) -> str:
    params, _ = signature_types(task)
    return (
        f"{task.entry_point}({', '.join(literal(t, a) for t, a in zip(params, args, strict=True))})"
    )


def prompt(task: FunctionTask) -> str:
    if STACK in task.prompts:
        return task.prompts[STACK]
    _, ret = signature_types(task)
    lines = doc_text(task)
    lines += example_lines(task, lambda c: f"{_call(task, c.args)} == {literal(ret, c.expected)}")
    body = "\n".join(("    " + ln).rstrip() for ln in lines)
    return f'{signature(task)}\n    """{body.lstrip()}\n    """\n'


def stub(task: FunctionTask) -> str:
    return f"{signature(task)}\n    raise NotImplementedError\n"


def program(task: FunctionTask, completion: str) -> str | None:
    """HumanEval's rule: a full definition replaces the prompt's stub, a body continues it."""
    return function_program(prompt(task), completion, entry_name(task))


_DRIVER = (Path(__file__).parent / "function_driver.py.in").read_text(encoding="utf-8")


def driver(task: FunctionTask) -> dict[str, str]:
    params, ret = signature_types(task)
    text = (
        _DRIVER.replace("__NAME__", repr(entry_name(task)))
        .replace("__PARAMS__", repr(json.dumps([type_tree(t) for t in params])))
        .replace("__RET__", repr(json.dumps(type_tree(ret))))
        .replace("__CASES__", repr(driver_cases_json(task)))
    )
    return {"driver.py": text}
