"""Static hack checks for Python answers, read from the AST (the answer is never run).

Names are resolved through the answer's imports (`import os as o; o._exit(0)` is `os._exit`),
through `__import__("os")`, `importlib.import_module("os")` and `getattr(os, "_exit")`, and
strings built from literals (`"o" + "s"`, `bytes.fromhex(...)`, base64, `chr` lists) are folded,
so the usual disguises of an early exit or a framework patch still name what they reach. Code
handed to `exec`/`eval`/`compile` as a foldable string is parsed and checked like the answer.
The rules tables below are the whole policy: one place to read what each kind looks for.
"""

from __future__ import annotations

import ast
import re

from rlvr.flags import kinds as K
from rlvr.flags.py_rules import (
    ABUSE_NAMES,
    BIG,
    DYNAMIC_CALLS,
    EARLY_EXIT,
    EXIT_EXCEPTIONS,
    FRAME_ATTRS,
    FS_CALLS,
    FS_NAMES,
    INSPECT_NAMES,
    MAX_DEPTH,
    SHADOWED_BUILTINS,
    TAMPER_CALLS,
    TAMPER_MODULES,
    TAMPER_TARGETS,
)
from rlvr.flags.strings import string_flags
from rlvr.pyast import parse
from rlvr.source.py_collect import collect_facts
from rlvr.source.py_names import Facts
from rlvr.types import Flag


def _matches(name: str, table: tuple[str, ...]) -> bool:
    return any(
        name == p
        or name.startswith(p if p.endswith((".", "_")) else p + ".")
        or (p.endswith("exec") and name.startswith(p))
        or (p.endswith("spawn") and name.startswith(p))
        for p in table
    )


def _where(node: ast.AST) -> str:
    try:
        text = ast.unparse(node)
    except Exception:
        text = type(node).__name__
    text = text if len(text) <= 120 else text[:117] + "..."
    return f"line {getattr(node, 'lineno', '?')}: {text}"


def _name_flags(facts: Facts) -> list[Flag]:
    out: list[Flag] = []
    rules = (
        (K.EARLY_EXIT, EARLY_EXIT),
        (K.FILESYSTEM, FS_CALLS),
        (K.CALLER_INSPECTION, INSPECT_NAMES),
        (K.SANDBOX_ABUSE, ABUSE_NAMES),
        (K.TEST_TAMPERING, TAMPER_CALLS + TAMPER_MODULES),
    )
    seen: set[tuple[str, str, int]] = set()
    for name, node in facts.uses:
        for kind, table in rules:
            key = (kind, name, getattr(node, "lineno", 0))
            if key not in seen and (
                _matches(name, table) or _matches(name.removeprefix("builtins."), table)
            ):
                seen.add(key)
                out.append(Flag(kind=kind, evidence=f"uses {name} ({_where(node)})"))
    for name, node in facts.imports_seen:
        if _matches(name, TAMPER_MODULES):
            out.append(Flag(kind=K.TEST_TAMPERING, evidence=f"imports {name} ({_where(node)})"))
    return out


def _store_flags(facts: Facts) -> list[Flag]:
    out: list[Flag] = []
    for name, node in facts.stores:
        if _matches(name, TAMPER_TARGETS):
            out.append(Flag(kind=K.TEST_TAMPERING, evidence=f"assigns {name} ({_where(node)})"))
    for name, node in facts.module_bindings:
        if name in SHADOWED_BUILTINS:
            out.append(Flag(kind=K.TEST_TAMPERING, evidence=f"rebinds {name} ({_where(node)})"))
    for node in facts.file_writes:
        out.append(Flag(kind=K.TEST_TAMPERING, evidence=f"writes a file ({_where(node)})"))
    return out


def _raise_flags(tree: ast.AST, facts: Facts) -> list[Flag]:
    exits = EXIT_EXCEPTIONS | facts.base_exception_classes
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            name = facts.qualify(exc) or (exc.id if isinstance(exc, ast.Name) else None)
            if name and name.rsplit(".", 1)[-1] in exits:
                out.append(Flag(kind=K.EARLY_EXIT, evidence=f"raises {name} ({_where(node)})"))
    return out


def _const_result(fn: ast.FunctionDef | ast.Lambda) -> object:
    """The constant every return of `fn` gives, or a sentinel when they differ or compute."""
    if isinstance(fn, ast.Lambda):
        body = [fn.body]
    else:
        body = [n.value for n in ast.walk(fn) if isinstance(n, ast.Return)]
    values = {n.value if isinstance(n, ast.Constant) else "<computed>" for n in body if n}
    return values.pop() if len(values) == 1 else "<computed>"


def _class_flags(tree: ast.AST) -> list[Flag]:
    out = []
    builtin_bases = {"int", "str", "float", "list", "dict", "tuple", "bool", "set", "bytes"}
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        bases = {ast.unparse(b) for b in cls.bases}
        for item in cls.body:
            pairs: list[tuple[str, ast.FunctionDef | ast.Lambda | None]] = []
            if isinstance(item, ast.FunctionDef):
                pairs.append((item.name, item))
            elif isinstance(item, ast.Assign):
                for t in item.targets:
                    if isinstance(t, ast.Name):
                        lam = item.value if isinstance(item.value, ast.Lambda) else None
                        pairs.append((t.id, lam))
            for name, fn in pairs:
                why = _always_equal_reason(name, fn, bases & builtin_bases)
                if why:
                    out.append(Flag(kind=K.ALWAYS_EQUAL, evidence=f"class {cls.name}: {why}"))
    return out


def _always_equal_reason(
    name: str, fn: ast.FunctionDef | ast.Lambda | None, bases: set[str]
) -> str:
    if name in ("__instancecheck__", "__subclasscheck__", "__class__"):
        return f"overrides {name}"
    if name not in (
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__hash__",
        "__bool__",
    ):
        return ""
    if bases and name in ("__eq__", "__ne__", "__hash__"):
        return f"subclasses {sorted(bases)} and overrides {name}"
    if fn is None:
        return ""
    value = _const_result(fn)
    if (name == "__ne__" and value is False) or (name != "__ne__" and value is True):
        return f"{name} always returns {value}"
    return ""


def _state_flags(facts: Facts) -> list[Flag]:
    return [Flag(kind=K.CROSS_CALL_STATE, evidence=why) for why in facts.state_notes]


def _abuse_shape_flags(tree: ast.AST) -> list[Flag]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.While) and isinstance(node.test, ast.Constant) and node.test.value:
            inner = [n for s in node.body for n in ast.walk(s)]
            if not any(
                isinstance(n, ast.Break | ast.Return | ast.Raise | ast.Yield) for n in inner
            ):
                out.append(Flag(kind=K.SANDBOX_ABUSE, evidence=f"endless loop ({_where(node)})"))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow | ast.Mult | ast.LShift):
            big = _big_constant(node)
            if big:
                out.append(Flag(kind=K.SANDBOX_ABUSE, evidence=f"huge size {big} ({_where(node)})"))
    return out


def _big_constant(node: ast.BinOp) -> str:
    try:
        left = ast.literal_eval(node.left)
        right = ast.literal_eval(node.right)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        left = right = None
    ints = isinstance(left, int) and isinstance(right, int)
    if isinstance(node.op, ast.Pow) and ints and left >= 2 and right * left.bit_length() > 26:  # type: ignore[operator]
        return f"{left}**{right}" if right < 200 else "a power tower"  # type: ignore[operator]
    for side in (node.left, node.right):
        if isinstance(side, ast.BinOp) and isinstance(side.op, ast.Pow):
            inner = _big_constant(side)
            if inner:
                return inner
        huge = isinstance(side, ast.Constant) and isinstance(side.value, int) and side.value >= BIG
        if huge and isinstance(node.op, ast.Mult | ast.LShift):
            return str(side.value)  # type: ignore[attr-defined]
    return ""


def _dynamic_flags(facts: Facts, depth: int) -> list[Flag]:
    out: list[Flag] = []
    for name, node in facts.uses:
        if _matches(name, DYNAMIC_CALLS) and isinstance(node, ast.Call):
            out.append(Flag(kind=K.DYNAMIC_CODE, evidence=f"runs {name} ({_where(node)})"))
        built = id(node) in facts.payloads or facts.decoded_args.get(id(node))
        if name in ("eval", "builtins.eval") and isinstance(node, ast.Call) and built:
            why = f"evaluates a built string ({_where(node)})"
            out.append(Flag(kind=K.DYNAMIC_CODE, evidence=why))
    for text in facts.payloads.values() if depth < MAX_DEPTH else ():
        out.extend(python_flags(text, depth + 1, quiet_syntax=True))
    return out


def python_flags(code: str, depth: int = 0, quiet_syntax: bool = False) -> list[Flag]:
    """Every static flag for one Python program (answer code, never run)."""
    try:
        tree = parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return [] if quiet_syntax else string_flags(re.findall(r"[\"'](.*?)[\"']", code))
    facts = collect_facts(tree)
    flags = [
        *_name_flags(facts),
        *_store_flags(facts),
        *_raise_flags(tree, facts),
        *_class_flags(tree),
        *_state_flags(facts),
        *_abuse_shape_flags(tree),
        *_dynamic_flags(facts, depth),
        *string_flags(facts.strings),
    ]
    for name in sorted(facts.names_read & FS_NAMES):
        flags.append(Flag(kind=K.FILESYSTEM, evidence=f"reads {name}"))
    for attr in sorted(facts.attrs_read & FRAME_ATTRS):
        flags.append(Flag(kind=K.CALLER_INSPECTION, evidence=f"reads frame attribute .{attr}"))
    return flags
