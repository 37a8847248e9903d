"""Function-task translator for Ruby (Debian bookworm's ruby 3.1); contract in
rlvr/functions/translator.py.

Types: int is Integer (arbitrary precision, so no task is out of range), float is Float, bool
is true/false, str is String (UTF-8), list and tuple are Array, dict is Hash, optional[T] is T
or nil. The answer is `solution.rb`, a top-level `def` in snake_case; `driver.rb` prints
@@RLVR-READY, `load`s it, calls the method with each case's arguments decoded from JSON and
writes result lines to a private copy of fd 1 (fd 1 itself is pointed at stderr).
References are rendered from the Python ones by from_python.py beside this file.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import re
import sys
from pathlib import Path

from rlvr.functions.render import (
    call_args,
    commented,
    doc_prompt,
    driver_template,
    fill_driver,
    safe_name,
    signature_types,
    special_float,
    with_prompt,
)
from rlvr.functions.task import Case, FunctionTask
from rlvr.functions.typelang import FType
from rlvr.graders.code.extract import extract_fenced

STACK = "ruby"
LANGUAGES = ["ruby", "rb"]
ANSWER_FILE = "solution.rb"
DOC_WORDS = {"True": "true", "False": "false", "None": "nil"}
SANDBOX = {
    "answer_file": ANSWER_FILE,
    "writable_workspace": True,
    # interpreted: driver.rb prints @@RLVR-READY itself, before it loads the answer
    "test_command": ["ruby", "--disable-gems", "driver.rb"],
    "env": {"HOME": "{scratch}"},
}
DONE = True
RESERVED = {
    "alias", "and", "begin", "break", "case", "class", "def", "defined?", "do", "else",
    "elsif", "end", "ensure", "false", "for", "if", "in", "module", "next", "nil", "not",
    "or", "redo", "rescue", "retry", "return", "self", "super", "then", "true", "undef",
    "unless", "until", "when", "while", "yield", "BEGIN", "END", "__FILE__", "__LINE__",
    "__method__", "__dir__", "p", "puts", "print", "exit", "raise", "loop", "lambda", "proc",
}  # fmt: skip


def _sibling(name: str):
    path = Path(__file__).with_name(f"{name}.py")  # not a package: load by path
    key = f"rlvr_ruby_{name}_" + hashlib.sha1(str(path).encode()).hexdigest()[:10]
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None
        sys.modules[key] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[key])
    return sys.modules[key]


def unsupported(task: FunctionTask) -> str | None:
    return None


def ruby_name(name: str) -> str:
    """A Python name as a Ruby local/method name (lower-case first letter, not reserved)."""
    if name[:1].isupper():
        name = "v_" + name
    return safe_name(name, RESERVED)


def entry_name(task: FunctionTask) -> str:
    return ruby_name(task.entry_point)


def type_name(t: FType) -> str:
    k = t.kind
    simple = {"int": "Integer", "float": "Float", "bool": "Boolean", "str": "String", "none": "nil"}
    if k in simple:
        return simple[k]
    if k == "optional":
        return f"{type_name(t.args[0])}, nil"
    if k == "list" or (k == "tuple" and t.variadic):
        return f"Array<{type_name(t.args[0])}>"
    if k == "tuple":
        return "Array(" + ", ".join(type_name(a) for a in t.args) + ")"
    key, val = t.args
    return f"Hash{{{type_name(key)} => {type_name(val)}}}"


def ruby_string(s: str) -> str:
    """A double-quoted Ruby literal (JSON's escapes are Ruby's; `#` would interpolate)."""
    return json.dumps(s, ensure_ascii=False).replace("#", "\\#")


def _num(value: float) -> str:
    special = special_float(value, "Float::NAN", "Float::INFINITY", "-Float::INFINITY")
    return special or repr(value)


def literal(t: FType, value: object) -> str:
    k = t.kind
    if value is None:
        return "nil"
    if k == "float":
        special = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
        return _num(special.get(value, value) if isinstance(value, str) else float(value))
    if k == "bool":
        return "true" if value else "false"
    if k == "int":
        return str(value)
    if k == "str":
        return ruby_string(value)
    if k == "optional":
        return literal(t.args[0], value)
    if k in ("list", "tuple"):
        elems = t.args if t.is_fixed_tuple else (t.args[0],) * len(value)
        return "[" + ", ".join(literal(e, v) for e, v in zip(elems, value, strict=True)) + "]"
    key, val = t.args
    pairs = value.items() if isinstance(value, dict) else value
    if not pairs:
        return "{}"
    return "{ " + ", ".join(f"{literal(key, a)} => {literal(val, b)}" for a, b in pairs) + " }"


def signature(task: FunctionTask) -> str:
    names = ", ".join(ruby_name(p.name) for p in task.signature.params)
    return f"def {entry_name(task)}({names})"


def _call(task: FunctionTask, args: list) -> str:
    params, _ = signature_types(task)
    return f"{entry_name(task)}({call_args(literal, params, args)})"


def prompt(task: FunctionTask) -> str:
    params, ret = signature_types(task)

    def frame(lines: list[str]) -> str:
        lines.append("")
        for p, t in zip(task.signature.params, params, strict=True):
            lines.append(f"@param {ruby_name(p.name)} [{type_name(t)}]")
        lines.append(f"@return [{type_name(ret)}]")
        return commented(lines, "# ") + "\n" + signature(task) + "\n"

    def show(c: Case) -> str:
        return f"{_call(task, c.args)} # => {literal(ret, c.expected)}"

    return doc_prompt(task, STACK, show, frame, DOC_WORDS, entry_name(task))


def stub(task: FunctionTask) -> str:
    return f"{signature(task)}\n  raise NotImplementedError, 'not implemented'\nend\n"


def program(task: FunctionTask, completion: str) -> str | None:
    code = extract_fenced(completion, LANGUAGES)
    if code is None:
        return None
    name = re.escape(entry_name(task))
    return with_prompt(code, rf"\bdef\s+(self\.)?{name}\b", prompt(task))


_DRIVER = driver_template(__file__, "function_driver.rb.in")


def _ruby_single(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def driver(task: FunctionTask) -> dict[str, str]:
    return {"driver.rb": fill_driver(_DRIVER, task, _ruby_single(entry_name(task)), _ruby_single)}


def reference_from_python(task: FunctionTask, python_source: str) -> str | None:
    """`solution.rb` rendered from the task's Python reference (from_python.py), or None."""
    params = tuple((p.name, p.type) for p in task.signature.params)
    return _sibling("from_python").render(
        python_source, task.entry_point, params, task.signature.returns, entry_name(task)
    )
