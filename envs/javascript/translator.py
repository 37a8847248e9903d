"""Function-task translator for JavaScript (Node.js 18, CommonJS); contract in
rlvr/functions/translator.py.

Types: int and float are `number` (an int result must be `Number.isInteger`), `list`/`tuple`
are arrays, `dict[str, V]` is a plain object, any other map a `Map` (a plain object is also
accepted as a result, its keys read back as the declared key type), `optional[T]` is `T` or
`null` (`undefined` reads as null). The answer is `solution.js`; `driver.js` evaluates it in a
function scope (so a bare `function f` works as well as `module.exports`), calls it with each
case's arguments and writes result lines straight to fd 1.
"""

from __future__ import annotations

import json
import math
import re

from rlvr.functions.render import (
    call_args,
    camel,
    commented,
    doc_prompt,
    driver_template,
    fill_driver,
    int_outside,
    safe_name,
    signature_types,
    special_float,
    with_prompt,
)
from rlvr.functions.task import Case, FunctionTask
from rlvr.functions.typelang import FType
from rlvr.graders.code.extract import extract_fenced

STACK = "javascript"
# Python's literal words in docstrings, as this stack spells them
DOC_WORDS = {"True": "true", "False": "false", "None": "null"}
LANGUAGES = ["javascript", "js", "node"]
SANDBOX = {
    "answer_file": "solution.js",
    "writable_workspace": True,
    "test_command": ["node", "driver.js"],
}
MAX_SAFE = 2**53 - 1
RESERVED = set(
    [
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
        "let",
        "static",
        "implements",
        "interface",
        "package",
        "private",
        "protected",
        "public",
        "await",
        "arguments",
        "eval",
    ]
)


def unsupported(task: FunctionTask) -> str | None:
    big = int_outside(task, -MAX_SAFE, MAX_SAFE + 1)
    return None if big is None else f"integer {big} does not fit a JavaScript number exactly"


def entry_name(task: FunctionTask) -> str:
    return safe_name(camel(task.entry_point), RESERVED)


def param_name(name: str) -> str:
    return safe_name(camel(name), RESERVED)


def type_name(t: FType) -> str:
    k = t.kind
    simple = {
        "int": "number",
        "float": "number",
        "bool": "boolean",
        "str": "string",
        "none": "null",
    }
    if k in simple:
        return simple[k]
    if k == "optional":
        return f"{type_name(t.args[0])} | null"
    if k == "list" or (k == "tuple" and t.variadic):
        return f"Array<{type_name(t.args[0])}>"
    if k == "tuple":
        return "[" + ", ".join(type_name(a) for a in t.args) + "]"
    key, val = t.args
    if key.kind == "str":
        return f"Object<string, {type_name(val)}>"
    return f"Map<{type_name(key)}, {type_name(val)}>"


def _num(value: float) -> str:
    return special_float(value, "NaN", "Infinity", "-Infinity") or repr(value)


def literal(t: FType, value: object) -> str:
    k = t.kind
    if value is None:
        return "null"
    if k == "float":
        special = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
        return _num(special.get(value, value) if isinstance(value, str) else float(value))
    if k in ("int", "bool", "str"):
        return json.dumps(value)
    if k == "optional":
        return literal(t.args[0], value)
    if k in ("list", "tuple"):
        elems = t.args if t.is_fixed_tuple else (t.args[0],) * len(value)
        return "[" + ", ".join(literal(e, v) for e, v in zip(elems, value, strict=True)) + "]"
    key, val = t.args
    if key.kind == "str":
        items = ", ".join(f"{json.dumps(a)}: {literal(val, b)}" for a, b in value.items())
        return "{" + items + "}"
    pairs = ", ".join(f"[{literal(key, a)}, {literal(val, b)}]" for a, b in value)
    return f"new Map([{pairs}])"


def _call(task: FunctionTask, args: list) -> str:
    params, _ = signature_types(task)
    return f"{entry_name(task)}({call_args(literal, params, args)})"


def signature(task: FunctionTask) -> str:
    names = ", ".join(param_name(p.name) for p in task.signature.params)
    return f"function {entry_name(task)}({names})"


def prompt(task: FunctionTask) -> str:
    params, ret = signature_types(task)

    def frame(lines: list[str]) -> str:
        lines.append("")
        for p, t in zip(task.signature.params, params, strict=True):
            lines.append(f"@param {{{type_name(t)}}} {param_name(p.name)}")
        lines.append(f"@returns {{{type_name(ret)}}}")
        return "/**\n" + commented(lines, " * ") + "\n */\n" + signature(task) + " {\n"

    def show(c: Case) -> str:
        return f"{_call(task, c.args)} // {literal(ret, c.expected)}"

    return doc_prompt(task, STACK, show, frame, DOC_WORDS, entry_name(task))


def stub(task: FunctionTask) -> str:
    name = entry_name(task)
    body = "  throw new Error('not implemented');"
    return f"{signature(task)} {{\n{body}\n}}\n\nmodule.exports = {{ {name} }};\n"


def program(task: FunctionTask, completion: str) -> str | None:
    code = extract_fenced(completion, LANGUAGES)
    if code is None:
        code = completion
    code = re.sub(r"^(\s*)export\s+(default\s+)?", r"\1", code, flags=re.M)
    name = re.escape(entry_name(task))
    return with_prompt(code, rf"(function\s*\*?\s*{name}\b|\b{name}\s*=)", prompt(task))


_DRIVER = driver_template(__file__, "function_driver.js.in")


def driver(task: FunctionTask) -> dict[str, str]:
    name = json.dumps(entry_name(task))
    return {"driver.js": fill_driver(_DRIVER, task, name, lambda text: text)}  # JSON is JS
