"""Shared pieces of families: integer predicates, integer maps and list reductions per stack.

Every piece has a short English phrase for the docstring and an expression per stack over a
variable `x` (or a statement list for reductions). Python's `%` is a floor modulo while the other
three stacks truncate, so modulo pieces normalise into 0..m-1 everywhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rlvr.tasksets.synth.draft import Code, Stack

GO_ABS = "func absInt(x int) int {\n    if x < 0 {\n        return -x\n    }\n    return x\n}\n"


def code4(
    py: str,
    js: str,
    go: str,
    rs: str,
    *,
    go_imports: tuple[str, ...] = (),
    rs_imports: tuple[str, ...] = (),
    go_helpers: str = "",
    py_imports: tuple[str, ...] = (),
) -> dict[Stack, Code]:
    """Bodies in the four stacks, indented four spaces (leading newline and indentation fixed)."""
    return {
        "python": Code(_clean(py), py_imports),
        "javascript": Code(_clean(js)),
        "go": Code(_clean(go), go_imports, go_helpers),
        "rust": Code(_clean(rs), rs_imports),
    }


def _clean(body: str) -> str:
    lines = body.strip("\n").splitlines()
    return "\n".join(f"    {line}" if line else "" for line in lines) + "\n"


def lin(a: int, b: int, var: str = "x") -> str:
    """`a * x + b` with the signs folded: lin(3, -7) == '3 * x - 7', lin(1, 0) == 'x'."""
    if a == 1:
        head = var
    elif a == -1:
        head = f"-{var}"
    else:
        head = f"{a} * {var}"
    if b == 0:
        return head
    return f"{head} {'+' if b > 0 else '-'} {abs(b)}"


@dataclass(frozen=True)
class Piece:
    """An expression over x in each stack, with what it needs (Go helpers, imports)."""

    key: str
    phrase: str
    expr: dict[Stack, str]
    go_helpers: str = ""


def _same(key: str, phrase: str, text: str) -> Piece:
    return Piece(key, phrase, dict.fromkeys(("python", "javascript", "go", "rust"), text))


def draw_pred(r: random.Random) -> Piece:
    """A predicate on an int x, such as 'greater than 3' or 'divisible by 4'."""
    kind = r.choice(["gt", "lt", "even", "odd", "mult", "between", "ne"])
    if kind == "gt":
        k = r.randint(-5, 10)
        return _same(f"gt{k}", f"greater than {k}", f"x > {k}")
    if kind == "lt":
        k = r.randint(-5, 10)
        return _same(f"lt{k}", f"less than {k}", f"x < {k}")
    if kind == "even":
        return _same("even", "even", "x % 2 == 0")
    if kind == "odd":
        return _same("odd", "odd", "x % 2 != 0")
    if kind == "mult":
        m = r.randint(3, 7)
        return _same(f"mult{m}", f"divisible by {m}", f"x % {m} == 0")
    if kind == "ne":
        k = r.randint(-3, 5)
        return _same(f"ne{k}", f"not equal to {k}", f"x != {k}")
    lo = r.randint(-6, 4)
    hi = lo + r.randint(2, 9)
    expr = f"{lo} <= x && x <= {hi}"
    return Piece(
        f"in{lo}_{hi}",
        f"between {lo} and {hi} inclusive",
        {"python": f"{lo} <= x <= {hi}", "javascript": expr, "go": expr, "rust": expr},
    )


def draw_map(r: random.Random) -> Piece:
    """A map on an int x, such as 'x * x' or '2 * x + 1'."""
    kind = r.choice(["lin", "lin", "square", "abs", "mod", "neg"])
    if kind == "lin":
        a, b = r.choice([-3, -2, 2, 3, 4, 5]), r.randint(-9, 9)
        text = lin(a, b)
        return _same(f"lin{a}_{b}", text, text)
    if kind == "square":
        return _same("square", "x * x", "x * x")
    if kind == "neg":
        return _same("neg", "0 - x", "0 - x")
    if kind == "abs":
        return Piece(
            "abs",
            "the absolute value of x",
            {"python": "abs(x)", "javascript": "Math.abs(x)", "go": "absInt(x)", "rust": "x.abs()"},
            GO_ABS,
        )
    m = r.randint(3, 9)
    norm = f"((x % {m}) + {m}) % {m}"
    return Piece(
        f"mod{m}",
        f"x modulo {m} (a value from 0 to {m - 1})",
        {"python": f"x % {m}", "javascript": norm, "go": norm, "rust": norm},
    )


REDUCE_PHRASE = {
    "sum": "the sum of the results (0 if there are none)",
    "count": "how many elements there are",
    "sumsq": "the sum of the squares of the results (0 if there are none)",
    "max": "the largest result (0 if there are none)",
    "min": "the smallest result (0 if there are none)",
}


def loop_body(xs: str, pred: Piece | None, mapping: Piece | None, reduce: str | None) -> Code4:
    """A loop over the int list `xs`: keep elements passing `pred`, map them, then reduce.

    With `reduce=None` the body returns the list of mapped kept elements.
    """
    bodies = {}
    for stack in STACK_ORDER:
        cond = pred.expr[stack] if pred else None
        value = mapping.expr[stack] if mapping else "x"
        bodies[stack] = _LOOPS[stack](xs, cond, value, reduce)
    helpers = "".join(sorted({p.go_helpers for p in (pred, mapping) if p and p.go_helpers}))
    return code4(*(bodies[s] for s in STACK_ORDER), go_helpers=helpers)


Code4 = dict[Stack, Code]
STACK_ORDER: tuple[Stack, ...] = ("python", "javascript", "go", "rust")


def _update(reduce: str, acc: str, y: str) -> str | None:
    return {"sum": f"{acc} + {y}", "count": f"{acc} + 1", "sumsq": f"{acc} + {y} * {y}"}.get(reduce)


def _fold_lines(reduce: str | None, y: str, neg: str, orop: str, setseen: str) -> list[str]:
    if reduce is None:
        return []
    upd = _update(reduce, "acc", y)
    if upd is not None:
        return [f"acc = {upd}"]
    cmp = ">" if reduce == "max" else "<"
    return [f"if {neg}seen {orop} {y} {cmp} acc {{", f"    acc = {y}", "}", setseen]


def _py_loop(xs: str, cond: str | None, value: str, reduce: str | None) -> str:
    lines = ["out = []"] if reduce is None else ["acc = 0"]
    if reduce in ("max", "min"):
        lines.append("seen = False")
    lines.append(f"for x in {xs}:")
    ind = "    "
    if cond:
        lines.append(f"    if {cond}:")
        ind = "        "
    inner = [f"y = {value}"]
    if reduce is None:
        inner.append("out.append(y)")
    elif reduce in ("max", "min"):
        cmp = ">" if reduce == "max" else "<"
        inner += [f"if not seen or y {cmp} acc:", "    acc = y", "seen = True"]
    else:
        inner.append(f"acc = {_update(reduce, 'acc', 'y')}")
    lines += [ind + line for line in inner]
    lines.append("return out" if reduce is None else "return acc")
    return "\n".join(lines)


def _brace_loop(
    header: str, start: list[str], decl: str, push: str, ret: str, cond: str | None, reduce
) -> str:
    lines = [*start, header]
    ind = "    "
    if cond:
        lines.append(f"    if {cond} {{")
        ind = "        "
    inner = [] if reduce == "count" else [decl]
    if reduce is None:
        inner.append(push)
    else:
        inner += _fold_lines(reduce, "y", "!", "||", "seen = true")
    lines += [ind + line for line in inner]
    if cond:
        lines.append("    }")
    lines += ["}", ret]
    return "\n".join(lines)


def _js_loop(xs: str, cond: str | None, value: str, reduce: str | None) -> str:
    start = ["const out = [];"] if reduce is None else ["let acc = 0;"]
    if reduce in ("max", "min"):
        start.append("let seen = false;")
    body = _brace_loop(
        f"for (const x of {xs}) {{",
        start,
        f"const y = {value};",
        "out.push(y);",
        "return out;" if reduce is None else "return acc;",
        cond,
        reduce,
    )
    return "\n".join(_js_line(line) for line in body.splitlines())


def _js_line(line: str) -> str:
    """Brace-style lines made JavaScript: parenthesised conditions, terminated assignments."""
    text = line.strip()
    indent = line[: len(line) - len(line.lstrip())]
    if text.startswith("if ") and text.endswith(" {"):
        return f"{indent}if ({text[3:-2]}) {{"
    if text.startswith(("acc =", "seen =")):
        return line + ";"
    return line


def _go_loop(xs: str, cond: str | None, value: str, reduce: str | None) -> str:
    start = ["out := []int{}"] if reduce is None else ["acc := 0"]
    if reduce in ("max", "min"):
        start.append("seen := false")
    return _brace_loop(
        f"for _, x := range {xs} {{",
        start,
        f"y := {value}",
        "out = append(out, y)",
        "return out" if reduce is None else "return acc",
        cond,
        reduce,
    )


def _rs_loop(xs: str, cond: str | None, value: str, reduce: str | None) -> str:
    start = ["let mut out: Vec<i64> = Vec::new();"] if reduce is None else ["let mut acc: i64 = 0;"]
    if reduce in ("max", "min"):
        start.append("let mut seen = false;")
    body = _brace_loop(
        f"for &x in {xs}.iter() {{",
        start,
        f"let y: i64 = {value};",
        "out.push(y);",
        "out" if reduce is None else "acc",
        cond,
        reduce,
    )
    return "\n".join(
        line + ";" if line.strip().startswith(("acc =", "seen =")) else line
        for line in body.splitlines()
    )


_LOOPS = {"python": _py_loop, "javascript": _js_loop, "go": _go_loop, "rust": _rs_loop}
