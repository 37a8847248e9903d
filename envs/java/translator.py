"""Function-task translator for Java 17 (JDK only); contract in rlvr/functions/translator.py.

Types: int -> `long`, float -> `double`, bool -> `boolean`, str -> `String` at the top of a
signature, boxed (`Long`, `Double`, `Boolean`) inside generics and for `optional[T]` (null is
None); `list[T]` and `tuple[T, ...]` -> `List<T>`, a fixed tuple -> `List<T>` when its elements
share a type and `List<Object>` when they do not, `dict[K, V]` -> `Map<K, V>`. The answer is
`Solution.java` holding `class Solution` whose `public static` method is the entry point in
camelCase (`hasCloseElements`); `import java.util.*;` and `import java.util.stream.*;` are added
when missing and a `package` line is dropped. Results are compared by value on the host, so a
`List` may be any list and a `Map` any map.

The driver is not rendered per task: `rlvr.FunctionDriver` (rlvr-java/ beside this file, compiled
into the image with a class-data-sharing archive) reads `rlvr-cases.json` (the method's name,
the types as `type_tree`s and each case's arguments), compiles the answer inside its own JVM and
calls it by reflection. Arguments never become Java literals, so javac's 64 KiB limit on a
method does not bound a case's size, and one JVM per job (not javac's and then java's) is what
keeps the stack near go's speed (bench/README.md).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

from rlvr.functions.pysubset import outside
from rlvr.functions.render import (
    call_args,
    camel,
    commented,
    doc_prompt,
    int_outside,
    quoted_string,
    safe_name,
    signature_types,
    special_float,
    type_tree,
    with_prompt,
)
from rlvr.functions.task import Case, FunctionTask
from rlvr.functions.typelang import FType, decode, parse_type
from rlvr.graders.code.extract import extract_fenced

STACK = "java"
# Python's literal words in docstrings, as this stack spells them
DOC_WORDS = {"True": "true", "False": "false", "None": "null"}
LANGUAGES = ["java"]
HOME = "/usr/local/share/rlvr-java"
CASES_FILE = "rlvr-cases.json"
# bench/README.md, "Java against go": C1 only and the serial collector suit a job of a second;
# the archive holds javac's and the driver's classes as loaded by a warm-up run at build time.
JVM = [
    "java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
    f"-XX:SharedArchiveFile={HOME}/rlvr-java.jsa", "-Xshare:auto", "-Xlog:all=warning:stderr",
]  # fmt: skip
SANDBOX = {
    "answer_file": "Solution.java",
    "test_command": [*JVM, "-cp", f"{HOME}/rlvr-java.jar", "rlvr.FunctionDriver", CASES_FILE,
                     "Solution.java"],
}  # fmt: skip
INT64 = 2**63
IMPORTS = ("import java.util.*;", "import java.util.stream.*;")
RESERVED = {
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
    "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
    "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long",
    "native", "new", "package", "private", "protected", "public", "return", "short", "static",
    "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try",
    "void", "volatile", "while", "true", "false", "null", "var", "yield", "record",
}  # fmt: skip
_PRIMITIVE = {"int": "long", "float": "double", "bool": "boolean", "str": "String", "none": "void"}
_BOXED = {"int": "Long", "float": "Double", "bool": "Boolean", "str": "String", "none": "Object"}


def unsupported(task: FunctionTask) -> str | None:
    big = int_outside(task, -INT64, INT64)
    return None if big is None else f"integer {big} does not fit Java's long"


def entry_name(task: FunctionTask) -> str:
    return safe_name(camel(task.entry_point), RESERVED)


def param_name(name: str) -> str:
    return safe_name(camel(name), RESERVED)


def boxed(t: FType) -> str:
    """The type inside generics and for optionals (`Long`, `List<Long>`)."""
    k = t.kind
    if k in _BOXED:
        return _BOXED[k]
    if k == "optional":
        return boxed(t.args[0])
    if k == "dict":
        return f"Map<{boxed(t.args[0])}, {boxed(t.args[1])}>"
    if k == "tuple" and not t.variadic and len(set(t.args)) > 1:
        return "List<Object>"
    return f"List<{boxed(t.args[0])}>"


def type_name(t: FType) -> str:
    """A parameter's or result's type: primitives where the value is never null."""
    return _PRIMITIVE.get(t.kind) or boxed(t)


def _java_string(s: str) -> str:
    # octal, not \\uXXXX: javac turns unicode escapes into characters before it reads strings
    return quoted_string(s, lambda c: f"\\{c:03o}")


def _java(t: FType, v: object) -> str:
    k = t.kind
    if v is None:
        return "null"
    if k == "float":
        f = float(v)  # type: ignore[arg-type]
        nan, inf, neg = "Double.NaN", "Double.POSITIVE_INFINITY", "Double.NEGATIVE_INFINITY"
        return special_float(f, nan, inf, neg) or repr(f)
    if k == "int":
        return f"{v}L"
    if k == "bool":
        return "true" if v else "false"
    if k == "str":
        return _java_string(v)  # type: ignore[arg-type]
    if k == "optional":
        return _java(t.args[0], v)
    if k in ("list", "tuple"):
        elems = t.args if t.is_fixed_tuple else (t.args[0],) * len(v)  # type: ignore[arg-type]
        items = [_java(e, x) for e, x in zip(elems, v, strict=True)]  # type: ignore[call-overload]
        # List.of refuses null elements
        return ("Arrays.asList(" if "null" in items else "List.of(") + ", ".join(items) + ")"
    kt, vt = t.args
    pairs = [f"Map.entry({_java(kt, a)}, {_java(vt, b)})" for a, b in v.items()]  # type: ignore[attr-defined]
    return "Map.ofEntries(" + ", ".join(pairs) + ")"


def literal(t: FType, value: object) -> str:
    """Java source for a canonical JSON value (shown in prompts; the driver reads JSON)."""
    return _java(t, decode(t, value))


def signature(task: FunctionTask) -> str:
    params, ret = signature_types(task)
    args = ", ".join(
        f"{type_name(t)} {param_name(p.name)}"
        for p, t in zip(task.signature.params, params, strict=True)
    )
    return f"public static {type_name(ret)} {entry_name(task)}({args})"


def _doc_safe(line: str) -> str:
    # a docstring's `*/` would close the comment, and javac reads \u escapes even in comments
    return line.replace("*/", "*\\/").replace("\\u", "\\\\u")


def prompt(task: FunctionTask) -> str:
    params, ret = signature_types(task)

    def show(c: Case) -> str:
        call = f"{entry_name(task)}({call_args(literal, params, c.args)})"
        return f"{call} returns {literal(ret, c.expected)}"

    def frame(lines: list[str]) -> str:
        doc = commented([_doc_safe(ln) for ln in lines], "     * ")
        head = "\n".join(IMPORTS) + "\n\nclass Solution {\n"
        return head + "    /**\n" + doc + "\n     */\n    " + signature(task) + " {\n"

    return doc_prompt(task, STACK, show, frame, DOC_WORDS, entry_name(task))


def stub(task: FunctionTask) -> str:
    body = '        throw new UnsupportedOperationException("not implemented");'
    head = "\n".join(IMPORTS) + "\n\nclass Solution {\n"
    return f"{head}    {signature(task)} {{\n{body}\n    }}\n}}\n"


_CLASS = re.compile(r"\bclass\s+Solution\b")
_IMPORT = re.compile(r"^\s*import\s+(static\s+)?[\w.]+(\.\*)?\s*;[ \t]*$", re.M)


def program(task: FunctionTask, completion: str) -> str | None:
    code = extract_fenced(completion, LANGUAGES)
    if code is None:
        code = completion
    code = re.sub(r"^\s*package\s+[\w.]+\s*;[ \t]*$", "", code, count=1, flags=re.M)
    name = re.escape(entry_name(task))
    defines = rf"{_CLASS.pattern}|\b{name}\s*\([^)]*\)\s*(throws\s[^{{]*)?\{{"
    code = with_prompt(code, defines, prompt(task))  # a bare body continues the prompt
    imports = [m.group(0).strip() for m in _IMPORT.finditer(code)]
    body = _IMPORT.sub("", code).strip("\n")
    if not _CLASS.search(body):  # a bare method: put it in the class
        body = "class Solution {\n" + body + "\n}"
    head = [*imports, *(i for i in IMPORTS if i not in imports)]
    return "\n".join(head) + "\n\n" + body + "\n"


def driver(task: FunctionTask) -> dict[str, str]:
    """The case file rlvr.FunctionDriver reads: name, types and arguments, no expected value."""
    params, ret = signature_types(task)
    spec = {
        "name": entry_name(task),
        "params": [type_tree(t) for t in params],
        "returns": type_tree(ret),
        "cases": [c.args for c in task.cases],
    }
    return {CASES_FILE: json.dumps(spec, separators=(",", ":"))}


def _from_python() -> Any:
    path = Path(__file__).with_name("from_python.py")  # envs/ is not a package: load by path
    key = "rlvr_from_python_" + hashlib.sha1(str(path).encode()).hexdigest()[:10]
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None
        sys.modules[key] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules[key])
    return sys.modules[key]


def reference_from_python(task: FunctionTask, python_source: str) -> str | None:
    """`Solution.java` rendered from the task's Python reference (from_python.py), or None.

    None for Python outside rlvr.functions.pysubset's subset and for what the renderer does
    not translate; every synth task renders (tests/test_synth_references_from_stack.py).
    """
    params = tuple((p.name, p.type) for p in task.signature.params)
    body = _method_body(python_source, params, task.signature.returns)
    if body is None:
        return None
    head = "\n".join(IMPORTS) + "\n\nclass Solution {\n"
    return f"{head}    {signature(task)} {{\n{body}\n    }}\n}}\n"


@functools.lru_cache(maxsize=4096)  # a set loads more than once in a process (validate, audit)
def _method_body(source: str, params: tuple[tuple[str, str], ...], returns: str) -> str | None:
    if outside(source):
        return None
    fp = _from_python()
    types = {name: fp.ty.from_ftype(parse_type(t)) for name, t in params}
    try:
        return fp.render(source, types, fp.ty.from_ftype(parse_type(returns)), param_name)
    except Exception:
        # what the renderer cannot take (fp.Unsupported, or a shape it trips on) is a task
        # without a rendered reference, never a failed load; every synth task must render
        # (tests/test_synth_references_from_stack.py), so a renderer bug cannot hide there
        return None
