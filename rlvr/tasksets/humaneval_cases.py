"""Extract HumanEval's `check()` into argument/expected cases (MultiPL-E style).

Each `assert` in `check(candidate)` is rewritten before `check` runs, once, on the host at build
time (this is HumanEval's own trusted test code, never model output):

    assert candidate(A) == E [, msg]           -> case (A, E)            also `E == candidate(A)`
    assert abs(candidate(A) - E) < T           -> case (A, E, abs_tol=T)  also `<=`, math.fabs
    assert candidate(A) is True/False/None     -> case (A, that constant)
    assert candidate(A)  /  assert not candidate(A)  -> case (A, True / False)
    assert <no candidate in it>                -> kept as is

Loops and random inputs run as written (the module `random` is seeded), so a loop of 100 random
calls becomes 100 cases. Any other use of `candidate` (a property such as `abs(poly(xs,
candidate(xs))) < 1e-4`, a call outside an assert) makes the problem inexpressible as cases:
`CaseError` says which line. Every recorded case is also run through the canonical solution,
which must agree with the expected value, so a case that HumanEval's own reference fails is
never kept.
"""

from __future__ import annotations

import ast
import copy
import random
from dataclasses import dataclass
from typing import Any

CANDIDATE = "candidate"
RECORD = "__rlvr_record"


class CaseError(ValueError):
    """The test cannot be turned into argument/expected cases; the message says why."""


@dataclass
class RawCase:
    """One recorded call: Python values of the arguments and the expected result."""

    args: tuple
    expected: Any
    abs_tol: float | None
    output: Any  # what the canonical solution returned (for type inference)


def _is_candidate_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == CANDIDATE
        and not node.keywords
        and not any(isinstance(a, ast.Starred) for a in node.args)
    )


def _mentions_candidate(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == CANDIDATE for n in ast.walk(node))


def _abs_diff(node: ast.AST) -> tuple[ast.Call, ast.AST] | None:
    """`abs(candidate(A) - E)` or `abs(E - candidate(A))` (also math.fabs) -> (call, E)."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords):
        return None
    f = node.func
    is_abs = (isinstance(f, ast.Name) and f.id in ("abs",)) or (
        isinstance(f, ast.Attribute) and f.attr == "fabs"
    )
    diff = node.args[0]
    if not is_abs or not (isinstance(diff, ast.BinOp) and isinstance(diff.op, ast.Sub)):
        return None
    if _is_candidate_call(diff.left) and not _mentions_candidate(diff.right):
        return diff.left, diff.right  # type: ignore[return-value]
    if _is_candidate_call(diff.right) and not _mentions_candidate(diff.left):
        return diff.right, diff.left  # type: ignore[return-value]
    return None


def _unwrap(node: ast.AST) -> ast.AST:
    """`tuple(x)` / `list(x)` -> x: a conversion on both sides compares the elements."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("tuple", "list")
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.args[0]
    return node


def _classify(test: ast.AST) -> tuple[ast.Call, ast.AST, ast.AST | None] | None:
    """(candidate call, expected expression, tolerance expression or None) of an assert test."""
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and _is_candidate_call(_unwrap(test.left))
        and _unwrap(test.left) is not test.left
    ):  # tuple(candidate(A)) == tuple(E): the call's own type is what the test does not check
        return _unwrap(test.left), _unwrap(test.comparators[0]), None  # type: ignore[return-value]
    if _is_candidate_call(test):
        return test, ast.Constant(True), None  # type: ignore[return-value]
    if (
        isinstance(test, ast.UnaryOp)
        and isinstance(test.op, ast.Not)
        and _is_candidate_call(test.operand)
    ):
        return test.operand, ast.Constant(False), None  # type: ignore[return-value]
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, ast.Eq | ast.Is):
        if isinstance(op, ast.Is) and not (
            isinstance(right, ast.Constant) and right.value in (True, False, None)
        ):
            return None
        if _is_candidate_call(left) and not _mentions_candidate(right):
            return left, right, None  # type: ignore[return-value]
        if _is_candidate_call(right) and not _mentions_candidate(left):
            return right, left, None  # type: ignore[return-value]
        return None
    if isinstance(op, ast.Lt | ast.LtE) and not _mentions_candidate(right):
        pair = _abs_diff(left)
        if pair is not None:
            return pair[0], pair[1], right
    return None


def _thunk(expr: ast.AST) -> ast.Lambda:
    return ast.Lambda(
        args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=expr,
    )


class _Rewrite(ast.NodeTransformer):
    """Asserts on `candidate` become record calls; any other use of it is an error."""

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        if not _mentions_candidate(node.test):
            return node
        found = _classify(node.test)
        if found is None:
            raise CaseError(f"line {node.lineno}: `{ast.unparse(node.test)[:120]}` is not a plain "
                            "comparison of one call with a value")  # fmt: skip
        call, expected, tol = found
        args = ast.Tuple(elts=list(call.args), ctx=ast.Load())
        record = ast.Call(
            func=ast.Name(id=RECORD, ctx=ast.Load()),
            args=[_thunk(args), _thunk(expected), tol or ast.Constant(None)],
            keywords=[],
        )
        return ast.copy_location(ast.Expr(value=record), node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == CANDIDATE and isinstance(node.ctx, ast.Load):
            raise CaseError(f"line {node.lineno}: `candidate` is used outside a plain assert")
        return node


def _agrees(out: Any, expected: Any, tol: float | None) -> bool:
    try:
        if tol is not None:
            return bool(abs(out - expected) < tol)
        return bool(out == expected)
    except Exception:
        return False


def extract_cases(prompt: str, solution: str, test: str, entry_point: str) -> list[RawCase]:
    """Run HumanEval's `check` with its asserts turned into recordings (see module docstring)."""
    tree = ast.parse(test)
    checks = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "check"]
    if len(checks) != 1 or [a.arg for a in checks[0].args.args] != [CANDIDATE]:
        raise CaseError("the test has no `def check(candidate)`")
    checks[0].args.args[0].arg = "__rlvr_unused"
    checks[0].body = [_Rewrite().visit(stmt) for stmt in checks[0].body]
    ast.fix_missing_locations(tree)
    ns: dict[str, Any] = {"__name__": "__rlvr_humaneval__"}
    exec(compile(prompt + solution, "<reference>", "exec"), ns)
    fn = ns[entry_point]
    cases: list[RawCase] = []

    def record(args_thunk: Any, expected_thunk: Any, tol: Any) -> None:
        args = args_thunk()
        saved = copy.deepcopy(args)
        try:
            out = fn(*copy.deepcopy(args))
        except Exception as e:
            raise CaseError(f"the canonical solution raises {e!r} for {saved!r}") from None
        expected = expected_thunk()
        if not _agrees(out, expected, tol):
            raise CaseError(f"the canonical solution returns {out!r} for {saved!r}, the test "
                            f"expects {expected!r}")  # fmt: skip
        cases.append(RawCase(saved, expected, float(tol) if tol is not None else None, out))

    ns[RECORD] = record
    state = random.getstate()
    random.seed(20240601)
    try:
        exec(compile(tree, "<check>", "exec"), ns)
        ns["check"](fn)
    finally:
        random.setstate(state)
    if not cases:
        raise CaseError("check() holds no assert on candidate")
    return cases
