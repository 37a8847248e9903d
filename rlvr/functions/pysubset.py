"""The small Python subset that Python references are written in, for stacks that render them.

A stack folder may render its references from a task's Python reference
(`reference_from_python`, rlvr/functions/translator.py) instead of shipping a file per task.
That is only practical while the Python stays small and regular, so the subset is written down
here and checked: `tests/test_synth_references_from_stack.py` fails when a synth family starts
writing anything outside it, and a renderer may rely on it.

The subset is one `def` with annotated parameters and result; `for` over a list, a string,
`range(...)`, `enumerate(...)`, `d.items()`, `d.values()` or `s.split()`; `while`, `if`/`else`,
`return`, assignments (chained `a = b = 0`, tuple `a, b = b, a + b`, `+=`); arithmetic
`+ - * // %` (Python's floor semantics), unary `-` and `not`, `and`/`or` (also on non-booleans:
`out or str(n)`), chained comparisons (`2 <= x <= 11`), `in`/`not in`, `is None`, conditional
expressions, indexing (negative constants too) and slices, tuple/list/dict literals, list and
dict comprehensions and generator expressions (one `for`, optional `if`), and the builtins and
methods below; `survey` counts what a set of references uses.
"""

from __future__ import annotations

import ast
from collections import Counter

NODES = frozenset(
    [
        "Module",
        "FunctionDef",
        "arguments",
        "arg",
        "Return",
        "Assign",
        "AugAssign",
        "For",
        "While",
        "If",
        "Expr",
        "Name",
        "Load",
        "Store",
        "Constant",
        "BinOp",
        "UnaryOp",
        "BoolOp",
        "Compare",
        "Call",
        "Attribute",
        "Subscript",
        "Slice",
        "Tuple",
        "List",
        "Dict",
        "IfExp",
        "ListComp",
        "DictComp",
        "GeneratorExp",
        "comprehension",
        "Lambda",
        "keyword",
        "Add",
        "Sub",
        "Mult",
        "FloorDiv",
        "Mod",
        "BitOr",
        "USub",
        "Not",
        "And",
        "Or",
        "Eq",
        "NotEq",
        "Lt",
        "LtE",
        "Gt",
        "GtE",
        "In",
        "NotIn",
        "Is",
    ]
)  # BitOr only in annotations (`str | None`), Lambda only as `sorted`'s key
BUILTINS = frozenset(
    [
        "abs",
        "chr",
        "dict",
        "enumerate",
        "len",
        "max",
        "min",
        "ord",
        "range",
        "reversed",
        "set",
        "sorted",
        "str",
        "sum",
    ]
)
METHODS = frozenset(
    [
        "add",
        "append",
        "count",
        "get",
        "isalpha",
        "items",
        "join",
        "lower",
        "replace",
        "split",
        "startswith",
        "upper",
        "values",
    ]
)


def usage(source: str) -> Counter[str]:
    """Every node type, builtin (`abs()`) and method (`.join()`) the source uses, counted."""
    seen: Counter[str] = Counter()
    for node in ast.walk(ast.parse(source)):
        seen[type(node).__name__] += 1
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                seen[f"{node.func.id}()"] += 1
            elif isinstance(node.func, ast.Attribute):
                seen[f".{node.func.attr}()"] += 1
    return seen


def outside(source: str) -> list[str]:
    """What the source uses outside the subset (empty: a renderer may take it)."""
    allowed = NODES | {f"{b}()" for b in BUILTINS} | {f".{m}()" for m in METHODS}
    return sorted(k for k in usage(source) if k not in allowed)


def survey(sources: dict[str, str]) -> tuple[Counter[str], dict[str, list[str]]]:
    """Usage summed over many references (task id -> source), and each one's use outside."""
    total: Counter[str] = Counter()
    bad: dict[str, list[str]] = {}
    for task_id, source in sources.items():
        total.update(usage(source))
        if extra := outside(source):
            bad[task_id] = extra
    return total, bad
