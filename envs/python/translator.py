"""Function-task translator for Python 3.11 (see rlvr/functions/translator.py for the contract).

The answer is `solution.py`; `driver.py` imports it and calls the entry point with each case's
arguments, decoded from canonical JSON by the signature (tuples as tuple, maps as dict). Results
are encoded back strictly by the declared return type: `type(v) is int`, so True, 3.0 or an
int subclass with a lying `__eq__` is not an int; a float result may be an int (as in Python's
own `3 == 3.0`). The driver keeps a private copy of the stdout descriptor for its result lines
and points `sys.stdout` at stderr, so the answer's prints never interleave with them.
"""

from __future__ import annotations

from rlvr.functions.render import (
    call_args,
    doc_prompt,
    driver_template,
    fill_driver,
    signature_types,
    special_float,
)
from rlvr.functions.task import Case, FunctionTask
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
        return special_float(value, "float('nan')", "float('inf')", "-float('inf')") or repr(value)
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
    return f"{task.entry_point}({call_args(literal, params, args)})"


def prompt(task: FunctionTask) -> str:
    _, ret = signature_types(task)

    def frame(lines: list[str]) -> str:
        body = "\n".join(("    " + ln).rstrip() for ln in lines)
        return f'{signature(task)}\n    """{body.lstrip()}\n    """\n'

    def show(c: Case) -> str:
        return f"{_call(task, c.args)} == {literal(ret, c.expected)}"

    return doc_prompt(task, STACK, show, frame)


def stub(task: FunctionTask) -> str:
    return f"{signature(task)}\n    raise NotImplementedError\n"


def program(task: FunctionTask, completion: str) -> str | None:
    """HumanEval's rule: a full definition replaces the prompt's stub, a body continues it."""
    return function_program(prompt(task), completion, entry_name(task))


_DRIVER = driver_template(__file__, "function_driver.py.in")


def driver(task: FunctionTask) -> dict[str, str]:
    return {"driver.py": fill_driver(_DRIVER, task, repr(entry_name(task)), repr)}
