"""Function-task translator for Rust 1.63 (edition 2021, std only); contract in
rlvr/functions/translator.py.

Types: int -> `i64`, float -> `f64`, bool, str -> `String`, `list[T]` and `tuple[T, ...]` ->
`Vec<T>`, `dict[K, V]` -> `HashMap<K, V>` (no float keys: f64 is not `Hash`),
`optional[T]` -> `Option<T>`, fixed tuples -> Rust tuples. Parameters are owned values. The
answer is `solution.rs`; `main.rs` pulls it in with `include!` (so a private `fn` works, and
any `fn main` or crate attribute the answer wrote is renamed or dropped first), calls the entry
point with typed literals of each case's arguments under `catch_unwind`, and encodes results
through a small trait (also implemented for other integer widths, which read back as `int`).
`@@RLVR-READY` is printed before `rustc` runs, so a compile error is the answer's.
"""

from __future__ import annotations

import re

from rlvr.functions.render import (
    call_args,
    commented,
    doc_prompt,
    driver_template,
    int_outside,
    quoted_string,
    safe_name,
    signature_types,
    special_float,
    with_prompt,
)
from rlvr.functions.task import Case, FunctionTask
from rlvr.functions.typelang import FType, decode
from rlvr.graders.code.extract import extract_fenced

STACK = "rust"
# Python's literal words in docstrings, as this stack spells them
DOC_WORDS = {"True": "true", "False": "false"}  # None is Option's own
LANGUAGES = ["rust", "rs"]
RUN = (
    "echo @@RLVR-READY; rustc --edition 2021 -C opt-level=0 -C debuginfo=0 "
    '-o "$TMPDIR/rlvr-driver" main.rs && exec "$TMPDIR/rlvr-driver"'
)
SANDBOX = {
    "answer_file": "solution.rs",
    "writable_workspace": True,
    "test_command": ["sh", "-c", RUN],
}
INT64 = 2**63
RESERVED = set(
    [
        "as",
        "break",
        "const",
        "continue",
        "crate",
        "else",
        "enum",
        "extern",
        "false",
        "fn",
        "for",
        "if",
        "impl",
        "in",
        "let",
        "loop",
        "match",
        "mod",
        "move",
        "mut",
        "pub",
        "ref",
        "return",
        "self",
        "static",
        "struct",
        "super",
        "trait",
        "true",
        "type",
        "unsafe",
        "use",
        "where",
        "while",
        "async",
        "await",
        "dyn",
        "abstract",
        "become",
        "box",
        "do",
        "final",
        "macro",
        "override",
        "priv",
        "typeof",
        "unsized",
        "virtual",
        "yield",
        "try",
    ]
)


def unsupported(task: FunctionTask) -> str | None:
    params, ret = signature_types(task)
    for t in [*params, ret]:
        for sub in t.walk():
            if sub.kind == "dict" and sub.args[0].kind == "float":
                return "a map with float keys (f64 is not Hash in Rust)"
    big = int_outside(task, -INT64, INT64)
    return None if big is None else f"integer {big} does not fit i64"


def entry_name(task: FunctionTask) -> str:
    name = task.entry_point
    return f"r#{name}" if name in RESERVED else name


def param_name(name: str) -> str:
    return safe_name(name, RESERVED)


def type_name(t: FType) -> str:
    k = t.kind
    simple = {"int": "i64", "float": "f64", "bool": "bool", "str": "String", "none": "()"}
    if k in simple:
        return simple[k]
    if k == "optional":
        return f"Option<{type_name(t.args[0])}>"
    if k == "list" or (k == "tuple" and t.variadic):
        return f"Vec<{type_name(t.args[0])}>"
    if k == "tuple":
        inner = ", ".join(type_name(a) for a in t.args)
        return f"({inner},)" if len(t.args) == 1 else f"({inner})"
    return f"HashMap<{type_name(t.args[0])}, {type_name(t.args[1])}>"


def _rs_string(s: str) -> str:
    return quoted_string(s, lambda c: f"\\u{{{c:x}}}")


def _rs(t: FType, v: object) -> str:
    k = t.kind
    if k == "float":
        f = float(v)  # type: ignore[arg-type]
        special = special_float(f, "f64::NAN", "f64::INFINITY", "f64::NEG_INFINITY")
        if special:
            return special
        return repr(f) + "f64" if "e" in repr(f) or "." in repr(f) else repr(f) + ".0"
    if k == "int":
        return str(v)
    if k == "bool":
        return "true" if v else "false"
    if k == "str":
        return f"String::from({_rs_string(v)})"  # type: ignore[arg-type]
    if k == "none":
        return "()"
    if k == "optional":
        return "None" if v is None else f"Some({_rs(t.args[0], v)})"
    if t.is_fixed_tuple:
        inner = ", ".join(_rs(a, x) for a, x in zip(t.args, v, strict=True))  # type: ignore[call-overload]
        return f"({inner},)" if len(t.args) == 1 else f"({inner})"
    if k in ("list", "tuple"):
        return "vec![" + ", ".join(_rs(t.args[0], x) for x in v) + "]"  # type: ignore[attr-defined]
    if not v:
        return "std::collections::HashMap::new()"
    kt, vt = t.args
    pairs = ", ".join(f"({_rs(kt, a)}, {_rs(vt, b)})" for a, b in v.items())  # type: ignore[attr-defined]
    return f"std::collections::HashMap::from([{pairs}])"


def literal(t: FType, value: object) -> str:
    return _rs(t, decode(t, value))


def signature(task: FunctionTask) -> str:
    params, ret = signature_types(task)
    args = ", ".join(
        f"{param_name(p.name)}: {type_name(t)}"
        for p, t in zip(task.signature.params, params, strict=True)
    )
    tail = "" if ret.kind == "none" else f" -> {type_name(ret)}"
    return f"fn {entry_name(task)}({args}){tail}"


def _uses(task: FunctionTask) -> str:
    params, ret = signature_types(task)
    maps = any(s.kind == "dict" for t in [*params, ret] for s in t.walk())
    return "use std::collections::HashMap;\n\n" if maps else ""


def prompt(task: FunctionTask) -> str:
    params, ret = signature_types(task)

    def show(c: Case) -> str:
        call = f"{entry_name(task)}({call_args(literal, params, c.args)})"
        return f"{call} == {literal(ret, c.expected)}"

    def frame(lines: list[str]) -> str:
        return _uses(task) + commented(lines, "/// ") + "\n" + signature(task) + " {\n"

    return doc_prompt(task, STACK, show, frame, DOC_WORDS)


def stub(task: FunctionTask) -> str:
    return f"{_uses(task)}{signature(task)} {{\n    unimplemented!()\n}}\n"


def program(task: FunctionTask, completion: str) -> str | None:
    code = extract_fenced(completion, LANGUAGES)
    if code is None:
        code = completion
    code = with_prompt(code, rf"\bfn\s+{re.escape(entry_name(task))}\s*[<(]", prompt(task))
    code = re.sub(r"^\s*#!\[[^\n]*\]\s*$", "", code, flags=re.M)
    return re.sub(r"\bfn\s+main\s*\(", "fn rlvr_answer_main(", code)


_HELPERS = driver_template(__file__, "function_driver.rs.in")


def driver(task: FunctionTask) -> dict[str, str]:
    params, _ = signature_types(task)
    calls = []
    for i, c in enumerate(task.cases):
        args = call_args(literal, params, c.args)
        calls.append(f"    rlvr_driver::case({i}, Box::new(|| {entry_name(task)}({args})));")
    main = "\nfn main() {\n" + "\n".join(calls) + "\n}\n"
    head = (
        "#![allow(unused_imports, dead_code, unused_variables, unused_mut, unused_assignments,"
        ' non_snake_case)]\ninclude!("solution.rs");\n'
    )
    return {"main.rs": head + _HELPERS + main}
