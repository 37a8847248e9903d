"""Whole reference files per stack: signature line around a family's body, imports, helpers.

The names and types follow the stack translators' conventions (python and rust keep
snake_case, javascript uses camelCase, go PascalCase; go `int` and multiple results for a
returned tuple, rust `i64` and owned parameters). Bodies are written to compile whether rust
parameters are owned or borrowed.
"""

from __future__ import annotations

from rlvr.functions.typelang import FType, parse_type
from rlvr.tasksets.synth.draft import Draft, Stack, python_source


def camel(name: str, upper: bool = False) -> str:
    """snake_case -> camelCase (or PascalCase)."""
    parts = name.split("_")
    head = parts[0].capitalize() if upper else parts[0]
    return head + "".join(p.capitalize() for p in parts[1:])


def go_type(t: FType) -> str:
    """The Go type of a type-language type."""
    simple = {"int": "int", "float": "float64", "bool": "bool", "str": "string"}
    if t.kind in simple:
        return simple[t.kind]
    if t.kind == "list":
        return f"[]{go_type(t.args[0])}"
    if t.kind == "dict":
        return f"map[{go_type(t.args[0])}]{go_type(t.args[1])}"
    if t.kind == "optional":
        return f"*{go_type(t.args[0])}"
    if t.kind == "tuple" and len(set(t.args)) == 1:
        return f"[{len(t.args)}]{go_type(t.args[0])}"
    raise ValueError(f"no Go type for {t}")


def rust_type(t: FType) -> str:
    """The Rust type (parameters are owned values, as the rust translator declares them)."""
    simple = {"int": "i64", "float": "f64", "bool": "bool", "str": "String"}
    if t.kind in simple:
        return simple[t.kind]
    if t.kind == "list":
        return f"Vec<{rust_type(t.args[0])}>"
    if t.kind == "dict":
        return f"HashMap<{rust_type(t.args[0])}, {rust_type(t.args[1])}>"
    if t.kind == "optional":
        return f"Option<{rust_type(t.args[0])}>"
    if t.kind == "tuple":
        return "(" + ", ".join(rust_type(a) for a in t.args) + ")"
    raise ValueError(f"no Rust type for {t}")


def reference_file(draft: Draft, stack: Stack) -> str:
    """The complete answer file of `stack` for this draft."""
    return _RENDER[stack](draft)


def _js(draft: Draft) -> str:
    name = camel(draft.name)
    params = ", ".join(camel(n) for n, _ in draft.params)
    body = draft.code["javascript"].body.rstrip()
    return f"function {name}({params}) {{\n{body}\n}}\n\nmodule.exports = {{ {name} }};\n"


def _go(draft: Draft) -> str:
    code = draft.code["go"]
    params = ", ".join(f"{n} {go_type(parse_type(t))}" for n, t in draft.params)
    head = "package solution\n\n"
    if code.imports:
        head += "import (\n" + "".join(f'\t"{i}"\n' for i in code.imports) + ")\n\n"
    helpers = f"{code.helpers.rstrip()}\n\n" if code.helpers else ""
    rt = parse_type(draft.returns)
    ret = go_type(rt)
    if rt.is_fixed_tuple:  # a tuple result is Go's multiple results
        ret = "(" + ", ".join(go_type(a) for a in rt.args) + ")"
    sig = f"func {camel(draft.name, upper=True)}({params}) {ret}"
    return f"{head}{helpers}{sig} {{\n{code.body.rstrip()}\n}}\n"


def _rust(draft: Draft) -> str:
    code = draft.code["rust"]
    params = ", ".join(f"{n}: {rust_type(parse_type(t))}" for n, t in draft.params)
    head = "".join(f"{line}\n" for line in code.imports)
    head += "\n" if head else ""
    ret = rust_type(parse_type(draft.returns))
    return f"{head}fn {draft.name}({params}) -> {ret} {{\n{code.body.rstrip()}\n}}\n"


_RENDER = {"python": python_source, "javascript": _js, "go": _go, "rust": _rust}
