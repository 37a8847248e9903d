"""What the tests of a task know: their literals and, for Python, their (arguments, expected) cases.

Hard-coding checks compare an answer against this: an answer that contains the tests' own data
(inputs it branches on, outputs it returns) learnt the tests, not the task. Literals are keyed
so that values from two sources compare equal (`[1, 2]` and `(1, 2)` are one key); Python keys
come from real values, the other stacks' keys from the literal text as written.

    >>> [c.expected for c in python_cases("assert f(1, 2) == 3", "f")]
    [3]
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from typing import Any

from rlvr.pyast import parse
from rlvr.source.lexer import Language, code_tokens, number_value, string_value

Key = tuple[str, Any]
NO_VALUE = object()
COMMON_NUMBERS = frozenset(
    {10, 12, 13, 16, 24, 26, 30, 31, 32, 48, 57, 60, 64, 65, 90, 97, 100, 122, 128, 255, 256}
    | {360, 365, 1000, 1024, 3600, 10000, 0.5, 0.1, 0.01, 0.001, 1e-6, 1e-9, 1e-12, 2.5}
)


@dataclass(frozen=True)
class Case:
    """One call the tests make: its literal arguments and the value they expect."""

    args: tuple[Any, ...] | None
    expected: Any
    public: bool = False
    source: str = ""


def _canon(v: Any) -> Any:
    if isinstance(v, list | tuple):
        return ("seq", tuple(_canon(x) for x in v))
    if isinstance(v, set | frozenset):
        return ("set", tuple(sorted((_canon(x) for x in v), key=repr)))
    if isinstance(v, dict):
        return ("map", tuple(sorted(((_canon(k), _canon(x)) for k, x in v.items()), key=repr)))
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return int(v)
    return v


def literal_key(value: Any) -> Key | None:
    """A hashable key for a literal value (None for values that are no literal)."""
    if isinstance(value, bool) or value is None:
        return ("atom", value)
    if isinstance(value, int | float):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        return ("num", _canon(value))
    if isinstance(value, str | bytes):
        return ("str", value if isinstance(value, str) else value.decode("latin-1"))
    if isinstance(value, list | tuple | set | frozenset | dict):
        try:
            return ("box", _canon(value))
        except TypeError:
            return None
    return None


def distinctive(key: Key) -> bool:
    """Could an honest answer contain this literal by chance? False for small, common values."""
    kind, v = key
    if kind == "str":
        return len(v.strip()) >= 2
    if kind == "num":
        return (
            abs(v) >= 10 and v not in COMMON_NUMBERS
            if isinstance(v, int)
            else (v not in COMMON_NUMBERS)
        )
    if kind == "box":
        return len(v[1]) >= 2
    return False


def _docstring_nodes(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def python_literals(tree: ast.AST) -> set[Key]:
    """Every constant and every literal container of a Python tree, docstrings left out."""
    skip = _docstring_nodes(tree)
    out: set[Key] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, (ast.Constant, ast.List | ast.Tuple | ast.Set | ast.Dict)):
            try:
                key = literal_key(ast.literal_eval(node))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            if key is not None:
                out.add(key)
                if key[0] == "num":
                    out.add(("num", _canon(-key[1])))  # `-5` is UnaryOp(5): both signs count
    return out


def text_literals(src: str, lang: Language) -> set[Key]:
    """String and number literals of JavaScript, Go or Rust source, as written."""
    out: set[Key] = set()
    for tok in code_tokens(src, lang):
        if tok.kind == "string":
            out.add(("str", string_value(tok.text)))
        elif tok.kind == "number":
            value = number_value(tok.text)
            if value is not None:
                out.add(("num", _canon(value)))
    return out


def _eval(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return NO_VALUE


def _call_of(node: ast.AST, names: set[str]) -> ast.Call | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
        return node
    return None


def _args(call: ast.Call) -> tuple[Any, ...] | None:
    values = tuple(_eval(a) for a in call.args)
    if call.keywords or any(v is NO_VALUE for v in values):
        return None
    return values


def _assert_case(test: ast.expr, names: set[str]) -> tuple[ast.Call, Any] | None:
    if (call := _call_of(test, names)) is not None:
        return call, True
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    if negated and (call := _call_of(test.operand, names)) is not None:  # type: ignore[attr-defined]
        return call, False
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        if not isinstance(test.ops[0], ast.Eq | ast.Is):
            return None
        left, right = test.left, test.comparators[0]
        for a, b in ((left, right), (right, left)):
            if (call := _call_of(a, names)) is not None:
                return call, _eval(b)
    return None


def python_cases(test_src: str, entry_point: str | None, public: bool = False) -> list[Case]:
    """Cases from `assert f(args) == value` (and `assert f(x)`, `assert not f(x)`) in tests."""
    try:
        tree = parse(test_src)
    except (SyntaxError, ValueError):
        return []
    names = {"candidate"} | ({entry_point} if entry_point else set())
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        found = _assert_case(node.test, names)
        if found is None:
            continue
        call, expected = found
        out.append(Case(_args(call), expected, public, ast.unparse(node)[:200]))
    return out


_DOCTEST = re.compile(r"^\s*>>>\s*(.+)\n\s*(\S[^\n]*)?$", re.M)
_ARROW = re.compile(r"(?:==>|=>|➞|->|==|\bshould return\b|\breturns?\b|=)\s*(.+?)\s*\.?\s*$")


def _split_call(text: str, entry_point: str) -> tuple[str, str] | None:
    """(call source, rest of the line) for a line starting with `entry_point(`."""
    i = text.find(entry_point + "(")
    if i < 0:
        return None
    depth, j = 0, i + len(entry_point)
    for j in range(i + len(entry_point), len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return text[i : j + 1], text[j + 1 :]
    return None


def _parse_call(src: str, entry_point: str) -> tuple[Any, ...] | None:
    try:
        node = parse(src, mode="eval").body
    except SyntaxError:
        return None
    call = _call_of(node, {entry_point})
    return _args(call) if call is not None else None


def _value(text: str) -> Any:
    try:
        return ast.literal_eval(text.strip().rstrip("."))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return NO_VALUE


def prompt_cases(prompt: str, entry_point: str | None) -> list[Case]:
    """The examples a prompt shows (`>>> f(x)` + result line, `f(x) == y`, `f(x) ➞ y`)."""
    if not entry_point:
        return []
    out = []
    for m in _DOCTEST.finditer(prompt):
        split = _split_call(m.group(1), entry_point)
        if split is None:
            continue
        args = _parse_call(split[0], entry_point)
        expected = _value(m.group(2)) if m.group(2) else None
        out.append(Case(args, expected, True, m.group(0).strip()[:200]))
    for line in prompt.splitlines():
        if ">>>" in line or (split := _split_call(line, entry_point)) is None:
            continue
        m = _ARROW.match(split[1].strip())
        if m is None:
            continue
        args = _parse_call(split[0], entry_point)
        out.append(Case(args, _value(m.group(1)), True, line.strip()[:200]))
    return out


def example_free_prompt(prompt: str, entry_point: str | None) -> str:
    """The prompt without its example lines (what an honest answer may quote from)."""
    lines, skip_next = [], False
    for line in prompt.splitlines():
        if skip_next:
            skip_next = False
            continue
        if ">>>" in line:
            skip_next = True
            continue
        if entry_point and f"{entry_point}(" in line and not line.lstrip().startswith("def "):
            continue
        lines.append(line)
    return "\n".join(lines)
