"""Trivial answers every task's tests must reject: the floor a grader has to clear.

For each code task: the empty answer, a body that does nothing (`pass`, `{}`), returning
None / null, returning each argument, raising "not implemented", and returning a constant of
the right type (the zero value of the declared or expected return type, both booleans, and the
value the tests expect most often). Everything else in the reference (imports, helpers, types)
is kept, so a trivial answer fails for what it returns, not because it no longer compiles.
A stack the audit has no syntax for ("text") gets the generic C-family bodies: empty, `return
0;` and `return <argument>;`.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from dataclasses import dataclass

from rlvr.pyast import parse
from rlvr.source.cases import NO_VALUE, prompt_cases, python_cases
from rlvr.source.functions import function_span, param_names
from rlvr.source.lexer import Language
from rlvr.types import Task

ZERO = {
    "int": "0",
    "float": "0.0",
    "str": "''",
    "bool": "False",
    "list": "[]",
    "dict": "{}",
    "tuple": "()",
    "set": "set()",
    "NoneType": "None",
    "bytes": "b''",
}
MAX_ARGS = 3


@dataclass(frozen=True)
class Trivial:
    """One trivial answer: a short name and the source to grade ("" for the empty answer)."""

    name: str
    source: str


def _annotation_type(node: ast.expr | None) -> str | None:
    if node is None:
        return None
    text = ast.unparse(node).split("[")[0].split(".")[-1].lower()
    return {
        "list": "list",
        "dict": "dict",
        "tuple": "tuple",
        "set": "set",
        "int": "int",
        "float": "float",
        "str": "str",
        "bool": "bool",
        "optional": None,
    }.get(text)


def _python_constants(fn: ast.FunctionDef, task: Task) -> list[str]:
    cases = prompt_cases(task.prompt, task.entry_point) + python_cases(
        "\n".join(t for t in (task.public_tests, task.hidden_tests) if t), task.entry_point
    )
    expected = [c.expected for c in cases if c.expected is not NO_VALUE]
    types = [t for t in [_annotation_type(fn.returns)] if t] + [type(v).__name__ for v in expected]
    out = []
    for t in dict.fromkeys(types):
        if t in ZERO:
            out.append(ZERO[t])
        if t == "bool":
            out.append("True")
    common = Counter(repr(v) for v in expected).most_common(1)
    if common and common[0][1] >= 2:
        out.append(common[0][0])
    return list(dict.fromkeys(out))


def _python(task: Task) -> list[Trivial]:
    try:
        tree = parse(task.reference or "")
    except (SyntaxError, ValueError):
        return []
    fn = next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == task.entry_point),
        None,
    )
    if fn is None:
        return []
    continuation = bool(task.reference and task.reference.startswith(task.prompt))
    args = [a.arg for a in fn.args.posonlyargs + fn.args.args][:MAX_ARGS]
    bodies = [
        ("pass", "pass"),
        ("return_none", "return None"),
        ("raise", "raise NotImplementedError"),
    ]
    bodies += [(f"return_arg:{a}", f"return {a}") for a in args]
    bodies += [(f"constant:{c}", f"return {c}") for c in _python_constants(fn, task)]
    out = [Trivial("empty", "")]
    for name, body in bodies:
        new_fn = ast.FunctionDef(
            name=fn.name,
            args=fn.args,
            body=parse(body).body,
            decorator_list=[],
            returns=fn.returns,
            type_params=[],
        )
        new_fn = ast.fix_missing_locations(ast.copy_location(new_fn, fn))
        if continuation:
            out.append(Trivial(name, ast.unparse(new_fn) + "\n"))
        else:
            mod = ast.Module([new_fn if n is fn else n for n in tree.body], [])
            out.append(Trivial(name, ast.unparse(ast.fix_missing_locations(mod)) + "\n"))
    return out


def _go_zero(returns: str) -> str:
    types = (
        [t.strip() for t in re.split(r",(?![^\[\](){}]*[\])}])", returns.strip("()"))]
        if returns
        else []
    )
    if not types:
        return "return"
    decls = "; ".join(
        f"var z{i} {t.split()[-1] if len(t.split()) > 1 else t}" for i, t in enumerate(types)
    )
    return f"{decls}; return {', '.join(f'z{i}' for i in range(len(types)))}"


def _drop_unused_go_imports(src: str) -> str:
    """Blank the imports a replaced body no longer uses (Go rejects unused imports)."""
    m = re.search(r"(?s)\bimport\s*\((.*?)\)", src) or re.search(
        r"\bimport\s+((?:\w+\s+)?\"[^\"]+\")", src
    )
    if m is None:
        return src
    rest = src[: m.start()] + src[m.end() :]

    def fix(spec: re.Match[str]) -> str:
        alias, path = (spec.group(1) or "").strip(), spec.group(2)
        name = alias or path.split("/")[-1]
        if alias == "_" or re.search(rf"\b{re.escape(name)}\.", rest):
            return spec.group(0)
        return f'_ "{path}"'

    inner = re.sub(r'(\w+\s+)?"([\w./-]+)"', fix, m.group(1))
    return src[: m.start(1)] + inner + src[m.end(1) :]


def _js_constants(tests: str, entry: str) -> list[str]:
    heads = re.findall(
        rf"\b{re.escape(entry)}\s*\([^;]*?\)\s*,\s*(\[|\{{|['\"`]|-?\d|true|false|null)", tests
    )
    kinds = {
        "[": "[]",
        "{": "{}",
        "'": "''",
        '"': "''",
        "`": "''",
        "true": "true",
        "false": "false",
        "null": "null",
    }
    out = [kinds.get(h, "0") for h in heads]
    if "true" in out or "false" in out:
        out += ["true", "false"]
    return list(dict.fromkeys(out))


def _stack_bodies(
    task: Task, lang: Language, params: list[tuple[str, str]], returns: str
) -> list[tuple[str, str]]:
    entry = task.entry_point or ""
    tests = "\n".join(t for t in (task.public_tests, task.hidden_tests) if t)
    if lang == "javascript":
        bodies = [
            ("pass", ""),
            ("return_none", "return null;"),
            ("raise", "throw new Error('not implemented');"),
        ]
        bodies += [(f"return_arg:{n}", f"return {n};") for n, _t in params[:MAX_ARGS]]
        return bodies + [(f"constant:{c}", f"return {c};") for c in _js_constants(tests, entry)]
    if lang == "text":  # any stack: C-family statements; one that does not compile fails too
        bodies = [("pass", ""), ("constant:0", "return 0;")]
        return bodies + [(f"return_arg:{n}", f"return {n};") for n, _t in params[:MAX_ARGS] if n]
    if lang == "go":
        bodies = [
            ("raise", 'panic("not implemented")'),
            (f"constant:zero {returns}", _go_zero(returns)),
        ]
        if not returns:
            bodies.append(("pass", ""))
        if returns == "bool":
            bodies += [("constant:true", "return true"), ("constant:false", "return false")]
        return (
            bodies
            + [(f"return_arg:{n}", f"return {n}") for n, t in params if t == returns][:MAX_ARGS]
        )
    bodies = [("raise", "unimplemented!()"), ("constant:default", "Default::default()")]
    if returns == "bool":
        bodies += [("constant:true", "true"), ("constant:false", "false")]
    for n, t in params[:MAX_ARGS]:
        if t == returns:
            bodies.append((f"return_arg:{n}", n))
        elif t == "&str" and returns == "String":
            bodies.append((f"return_arg:{n}", f"{n}.to_string()"))
        elif t.startswith("&[") and returns.startswith("Vec<"):
            bodies.append((f"return_arg:{n}", f"{n}.to_vec()"))
    return bodies


def _stack(task: Task, lang: Language) -> list[Trivial]:
    ref = task.reference or ""
    span = function_span(ref, lang, task.entry_point or "") if task.entry_point else None
    if span is None:
        return [Trivial("empty", "")]
    params = param_names(span.params, lang)
    out = [Trivial("empty", "")]
    for name, body in _stack_bodies(task, lang, params, span.returns):
        src = ref[: span.body_open] + "{\n    " + body + "\n}" + ref[span.body_close + 1 :]
        if lang == "go":
            src = _drop_unused_go_imports(src)
        out.append(Trivial(name, src))
    return out


def trivial_answers(task: Task, lang: Language) -> list[Trivial]:
    """The trivial answers for one code task (empty when the task has no usable reference)."""
    if lang == "python":
        return _python(task)
    return _stack(task, lang)
