"""Function-task translator for Go 1.19; contract in rlvr/functions/translator.py.

Types: int -> `int`, float -> `float64`, bool, str -> `string`, `list[T]` -> `[]T`,
`dict[K, V]` -> `map[K]V`, `optional[T]` -> `*T`; a tuple returned at the top level becomes
Go's multiple results (`(int, int)`), a fixed tuple elsewhere must be homogeneous and becomes an
array (`[2]int`), `tuple[T, ...]` a slice. The answer is `solution/solution.go` in `package
solution` (any package clause the answer wrote is replaced), so the function is exported
(`PairSum`) and the answer's own `main` or helpers never clash with the driver's. `main.go` calls
it with typed literals of each case's arguments, recovers panics per case and encodes results
by reflection; a nil slice or map reads as empty.

The run prints `@@RLVR-READY` before compiling: a compile error is the answer's (it is built
alone first, then against the driver, whose only failure with a correct signature would be a
translator bug that reference validation catches).
"""

from __future__ import annotations

import re

from rlvr.functions.render import (
    call_args,
    camel,
    commented,
    doc_prompt,
    driver_template,
    int_outside,
    pascal,
    quoted_string,
    safe_name,
    signature_types,
    special_float,
    with_prompt,
)
from rlvr.functions.task import Case, FunctionTask
from rlvr.functions.typelang import FType, decode
from rlvr.graders.code.extract import extract_fenced

STACK = "go"
# Python's literal words in docstrings, as this stack spells them
DOC_WORDS = {"True": "true", "False": "false", "None": "nil"}
LANGUAGES = ["go", "golang"]
RUN = (
    'echo @@RLVR-READY; go build ./solution && go build -o "$TMPDIR/rlvr-driver" . '
    '&& exec "$TMPDIR/rlvr-driver"'
)
SANDBOX = {
    "answer_file": "solution/solution.go",
    "writable_workspace": True,
    "test_command": ["sh", "-c", RUN],
    "env": {
        "GOCACHE": "{scratch}/gocache", "GOPATH": "{scratch}/gopath", "GOFLAGS": "-mod=mod",
        "GOPROXY": "off", "GOSUMDB": "off", "GOTOOLCHAIN": "local", "GO111MODULE": "on",
        "CGO_ENABLED": "0",
    },
}  # fmt: skip
INT64 = 2**63
RESERVED = set(
    [
        "break",
        "case",
        "chan",
        "const",
        "continue",
        "default",
        "defer",
        "else",
        "fallthrough",
        "for",
        "func",
        "go",
        "goto",
        "if",
        "import",
        "interface",
        "map",
        "package",
        "range",
        "return",
        "select",
        "struct",
        "switch",
        "type",
        "var",
        "len",
        "cap",
        "append",
        "make",
        "new",
        "copy",
        "delete",
        "panic",
        "recover",
        "print",
        "println",
        "string",
        "int",
        "bool",
        "byte",
        "rune",
        "error",
        "float64",
        "nil",
        "true",
        "false",
    ]
)


def _nested_tuple(t: FType, top: bool) -> str | None:
    for i, sub in enumerate(t.walk()):
        if sub.kind == "none":
            return "a none type has no Go value"
        if sub.is_fixed_tuple and not (top and i == 0) and len(set(sub.args)) > 1:
            return f"{sub} mixes element types inside another type (Go has no tuple type)"
    return None


def unsupported(task: FunctionTask) -> str | None:
    params, ret = signature_types(task)
    for t in params:
        why = _nested_tuple(t, top=False)
        if why:
            return why
    why = _nested_tuple(ret, top=True)
    if why:
        return why
    big = int_outside(task, -INT64, INT64)
    return None if big is None else f"integer {big} does not fit Go's int (64-bit)"


def entry_name(task: FunctionTask) -> str:
    return pascal(task.entry_point)


def param_name(name: str) -> str:
    return safe_name(camel(name), RESERVED)


def type_name(t: FType) -> str:
    k = t.kind
    simple = {"int": "int", "float": "float64", "bool": "bool", "str": "string"}
    if k in simple:
        return simple[k]
    if k == "optional":
        return "*" + type_name(t.args[0])
    if k == "list" or (k == "tuple" and t.variadic):
        return "[]" + type_name(t.args[0])
    if k == "tuple":
        return f"[{len(t.args)}]{type_name(t.args[0])}"
    return f"map[{type_name(t.args[0])}]{type_name(t.args[1])}"


def result_types(ret: FType) -> str:
    if ret.is_fixed_tuple:
        return "(" + ", ".join(type_name(a) for a in ret.args) + ")"
    return type_name(ret)


def _go_string(s: str) -> str:
    return quoted_string(s, lambda c: f"\\x{c:02x}")


def _go(t: FType, v: object, shown: bool = False) -> str:
    """Go source for a decoded value; `shown` (prompts) writes optionals as their value."""
    k = t.kind
    if k == "float":
        f = float(v)  # type: ignore[arg-type]
        return special_float(f, "math.NaN()", "math.Inf(1)", "math.Inf(-1)") or repr(f)
    if k == "int":
        return str(v)
    if k == "bool":
        return "true" if v else "false"
    if k == "str":
        return _go_string(v)  # type: ignore[arg-type]
    if k == "optional":
        if v is None:
            return "nil"
        inner = _go(t.args[0], v, shown)
        return inner if shown else f"rlvrPtr({inner})"
    if k in ("list", "tuple"):
        elem = t.args[0]
        return type_name(t) + "{" + ", ".join(_go(elem, x, shown) for x in v) + "}"  # type: ignore[attr-defined]
    kt, vt = t.args
    items = ", ".join(f"{_go(kt, a, shown)}: {_go(vt, b, shown)}" for a, b in v.items())  # type: ignore[attr-defined]
    return type_name(t) + "{" + items + "}"


def literal(t: FType, value: object) -> str:
    """Go source for a canonical JSON value (optional values use the driver's `rlvrPtr`)."""
    return _go(t, decode(t, value))


def signature(task: FunctionTask) -> str:
    params, ret = signature_types(task)
    args = ", ".join(
        f"{param_name(p.name)} {type_name(t)}"
        for p, t in zip(task.signature.params, params, strict=True)
    )
    return f"func {entry_name(task)}({args}) {result_types(ret)}"


def _shown(ret: FType, expected: object) -> str:
    value = decode(ret, expected)
    if ret.is_fixed_tuple:
        return ", ".join(_go(a, x, True) for a, x in zip(ret.args, value, strict=True))
    return _go(ret, value, True)


def prompt(task: FunctionTask) -> str:
    params, ret = signature_types(task)

    def show(c: Case) -> str:
        call = f"{entry_name(task)}({call_args(literal, params, c.args)})"
        return f"{call} returns {_shown(ret, c.expected)}"

    def frame(lines: list[str]) -> str:
        return "package solution\n\n" + commented(lines, "// ") + "\n" + signature(task) + " {\n"

    return doc_prompt(task, STACK, show, frame, DOC_WORDS, entry_name(task))


def stub(task: FunctionTask) -> str:
    return f'package solution\n\n{signature(task)} {{\n\tpanic("not implemented")\n}}\n'


def program(task: FunctionTask, completion: str) -> str | None:
    code = extract_fenced(completion, LANGUAGES)
    if code is None:
        code = completion
    code = with_prompt(code, rf"\bfunc\s+{re.escape(entry_name(task))}\s*\(", prompt(task))
    code = re.sub(r"^\s*package\s+\w+\s*;?[ \t]*$", "", code, count=1, flags=re.M)
    return "package solution\n\n" + code.lstrip("\n")


_HELPERS = driver_template(__file__, "function_driver.go.in")


def _case_call(task: FunctionTask, i: int, args: list) -> str:
    params, ret = signature_types(task)
    call = f"sol.{entry_name(task)}({call_args(literal, params, args)})"
    if ret.is_fixed_tuple:
        names = ", ".join(f"r{j}" for j in range(len(ret.args)))
        body = f"{names} := {call}; return []interface{{}}{{{names}}}"
        return f"\trlvrCase({i}, true, func() []interface{{}} {{ {body} }})"
    return f"\trlvrCase({i}, false, func() []interface{{}} {{ return []interface{{}}{{{call}}} }})"


def driver(task: FunctionTask) -> dict[str, str]:
    imports = ["encoding/json", "fmt", "math", "os", "reflect", "strconv", "strings"]
    head = "package main\n\nimport (\n" + "".join(f'\t"{m}"\n' for m in imports)
    head += '\tsol "rlvrjob/solution"\n)\n'
    calls = "\n".join(_case_call(task, i, c.args) for i, c in enumerate(task.cases))
    main = f"\nfunc main() {{\n{calls}\n}}\n"
    return {"go.mod": "module rlvrjob\n\ngo 1.19\n", "main.go": head + _HELPERS + main}
