"""Integer arithmetic and loops over numbers: formulas, digits, divisors, recurrences."""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import code4, lin
from rlvr.tasksets.synth.values import ints

N = (("n", "int"),)
X = (("x", "int"),)


def _poly(a: int, b: int, c: int) -> str:
    """a * x * x + b * x + c with signs folded."""
    head = {1: "x * x", -1: "-x * x"}.get(a, f"{a} * x * x")
    tail = lin(b, c) if b else (str(c) if c else "")
    if not tail:
        return head
    if tail.startswith("-"):
        return f"{head} - {tail[1:]}"
    return f"{head} + {tail}"


@family("formula", ("easy", "medium"), "arithmetic")
def formula(r: random.Random, level: Difficulty) -> Draft:
    """easy: a * x + b; medium: a * x * x + b * x + c."""
    if level == "easy":
        a, b = r.choice([-4, -3, -2, 2, 3, 4, 5, 6, 7]), r.randint(-20, 20)
        text, key = lin(a, b), f"lin{a},{b}"
    else:
        a, b, c = r.choice([1, 2, 3, -1, -2]), r.randint(-9, 9), r.randint(-20, 20)
        text, key = _poly(a, b, c), f"poly{a},{b},{c}"
    js = f"return {text};"
    return Draft(
        "formula",
        level,
        "evaluate",
        X,
        "int",
        f"Return {text}.",
        code4(f"return {text}", js, f"return {text}", text),
        key,
        (ints(-60, 60),),
    )


DIGIT_OPS = {
    "sum": ("the sum of the decimal digits of n", "0", None, "acc + d"),
    "even": ("how many decimal digits of n are even", "0", "d % 2 == 0", "acc + 1"),
    "odd": ("how many decimal digits of n are odd", "0", "d % 2 == 1", "acc + 1"),
    "max": ("the largest decimal digit of n", "0", "d > acc", "d"),
    "sumsq": ("the sum of the squares of the decimal digits of n", "0", None, "acc + d * d"),
}


@family("digits", ("medium",), "arithmetic", "loops")
def digits(r: random.Random, level: Difficulty) -> Draft:
    """An operation over the decimal digits of |n| (0 has the single digit 0)."""
    op = r.choice([*DIGIT_OPS, "count"])
    if op == "count":
        k = r.randint(0, 9)
        phrase, init, cond, upd = (
            f"how many decimal digits of n equal {k}",
            "0",
            f"d == {k}",
            "acc + 1",
        )
    else:
        phrase, init, cond, upd = DIGIT_OPS[op]
        k = None
    py_step = f"if {cond}:\n        acc = {upd}" if cond else f"acc = {upd}"
    js_step = f"if ({cond}) {{\n        acc = {upd};\n    }}" if cond else f"acc = {upd};"
    br_step = f"if {cond} {{\n        acc = {upd}\n    }}" if cond else f"acc = {upd}"
    rs_step = f"if {cond} {{\n        acc = {upd};\n    }}" if cond else f"acc = {upd};"
    py = f"""
n = abs(n)
acc = {init}
while True:
    d = n % 10
    {py_step}
    n = n // 10
    if n == 0:
        return acc
"""
    js = f"""
n = Math.abs(n);
let acc = {init};
while (true) {{
    const d = n % 10;
    {js_step}
    n = Math.floor(n / 10);
    if (n === 0) {{
        return acc;
    }}
}}
"""
    go = f"""
if n < 0 {{
    n = -n
}}
acc := {init}
for {{
    d := n % 10
    {br_step}
    n = n / 10
    if n == 0 {{
        return acc
    }}
}}
"""
    rs = f"""
let mut n = n.abs();
let mut acc: i64 = {init};
loop {{
    let d = n % 10;
    {rs_step}
    n = n / 10;
    if n == 0 {{
        return acc;
    }}
}}
"""
    doc = f"Return {phrase}; the sign of n is ignored and 0 has the single digit 0."
    return Draft(
        "digits",
        level,
        "digit_stat",
        N,
        "int",
        doc,
        code4(py, js, go, rs),
        f"{op}{k if k is not None else ''}",
        (ints(-99999, 99999, (0, 7, -7, 10, -40)),),
    )


@family("multiples", ("easy", "medium"), "arithmetic", "loops")
def multiples(r: random.Random, level: Difficulty) -> Draft:
    """Sum of the integers 1..n divisible by a (easy) or by a or b (medium)."""
    a = r.randint(2, 9)
    b = r.choice([k for k in range(2, 12) if k % a and a % k]) if level == "medium" else None
    cond = f"i % {a} == 0" if b is None else f"i % {a} == 0 || i % {b} == 0"
    what = f"divisible by {a}" if b is None else f"divisible by {a} or by {b}"
    py = f"""
acc = 0
for i in range(1, n + 1):
    if {cond.replace("||", "or")}:
        acc += i
return acc
"""
    js = f"""
let acc = 0;
for (let i = 1; i <= n; i++) {{
    if ({cond}) {{
        acc += i;
    }}
}}
return acc;
"""
    go = f"""
acc := 0
for i := 1; i <= n; i++ {{
    if {cond} {{
        acc += i
    }}
}}
return acc
"""
    rs = f"""
let mut acc: i64 = 0;
for i in 1..=n {{
    if {cond} {{
        acc += i;
    }}
}}
acc
"""
    return Draft(
        "multiples",
        level,
        "sum_multiples",
        N,
        "int",
        f"Return the sum of the integers from 1 to n inclusive that are {what} (0 if n < 1).",
        code4(py, js, go, rs),
        f"{a},{b}",
        (ints(-5, 300, (0, 1, -1, a, 2 * a)),),
    )


@family("divisors", ("medium",), "arithmetic", "loops")
def divisors(r: random.Random, level: Difficulty) -> Draft:
    """Count or sum the positive divisors of n greater than k; 0 for n < 1."""
    op, k = r.choice(["count", "sum"]), r.randint(0, 6)
    upd = "acc + 1" if op == "count" else "acc + d"
    what = "how many positive divisors" if op == "count" else "the sum of the positive divisors"
    cond = f"n % d == 0 && d > {k}"
    py = f"""
acc = 0
for d in range(1, n + 1):
    if {cond.replace("&&", "and")}:
        acc = {upd}
return acc
"""
    js = f"""
let acc = 0;
for (let d = 1; d <= n; d++) {{
    if ({cond}) {{
        acc = {upd};
    }}
}}
return acc;
"""
    go = f"""
acc := 0
for d := 1; d <= n; d++ {{
    if {cond} {{
        acc = {upd}
    }}
}}
return acc
"""
    rs = f"""
let mut acc: i64 = 0;
for d in 1..=n {{
    if {cond} {{
        acc = {upd};
    }}
}}
acc
"""
    return Draft(
        "divisors",
        level,
        "divisor_stat",
        N,
        "int",
        f"Return {what} of n that are greater than {k} (0 if n < 1).",
        code4(py, js, go, rs),
        f"{op}{k}",
        (ints(-4, 400, (0, 1, -1, 12, 36, 97)),),
    )


def _times(k: int, var: str) -> str:
    return var if k == 1 else f"{k} * {var}"


@family("recurrence", ("hard",), "arithmetic", "loops", weight={"hard": 2})
def recurrence(r: random.Random, level: Difficulty) -> Draft:
    """a(0) = c0, a(1) = c1, a(i) = p * a(i-1) + q * a(i-2); return a(n) for 0 <= n <= 25."""
    c0, c1, p, q = r.randint(-3, 5), r.randint(-3, 5), r.choice([1, 2]), r.choice([1, -1, 2, -2])
    sign = "+" if q > 0 else "-"
    step = f"{_times(p, 'b')} {sign} {_times(abs(q), 'a')}"
    rule = f"{_times(p, 'a(i-1)')} {sign} {_times(abs(q), 'a(i-2)')}"
    py = f"""
a, b = {c0}, {c1}
for _ in range(n):
    a, b = b, {step}
return a
"""
    js = f"""
let a = {c0};
let b = {c1};
for (let i = 0; i < n; i++) {{
    const c = {step};
    a = b;
    b = c;
}}
return a;
"""
    go = f"""
a, b := {c0}, {c1}
for i := 0; i < n; i++ {{
    a, b = b, {step}
}}
return a
"""
    rs = f"""
let mut a: i64 = {c0};
let mut b: i64 = {c1};
for _ in 0..n {{
    let c = {step};
    a = b;
    b = c;
}}
a
"""
    doc = f"With a(0) = {c0}, a(1) = {c1} and a(i) = {rule} for i >= 2, return a(n) (n >= 0)."
    return Draft(
        "recurrence",
        level,
        "sequence_term",
        N,
        "int",
        doc,
        code4(py, js, go, rs),
        f"{c0},{c1},{p},{q}",
        (ints(0, 25, (0, 1, 2)),),
    )


@family("divide_out", ("medium",), "arithmetic", "loops")
def divide_out(r: random.Random, level: Difficulty) -> Draft:
    """How many times n is divisible by k in a row (0 for n = 0)."""
    k = r.randint(2, 10)
    py = f"""
if n == 0:
    return 0
c = 0
while n % {k} == 0:
    n = n // {k}
    c += 1
return c
"""
    js = f"""
if (n === 0) {{
    return 0;
}}
let c = 0;
while (n % {k} === 0) {{
    n = n / {k};
    c += 1;
}}
return c;
"""
    go = f"""
if n == 0 {{
    return 0
}}
c := 0
for n%{k} == 0 {{
    n = n / {k}
    c++
}}
return c
"""
    rs = f"""
if n == 0 {{
    return 0;
}}
let mut n = n;
let mut c: i64 = 0;
while n % {k} == 0 {{
    n = n / {k};
    c += 1;
}}
c
"""
    return Draft(
        "divide_out",
        level,
        "times_divisible",
        N,
        "int",
        f"Return how many times in a row n can be divided by {k} with no remainder (0 for n = 0).",
        code4(py, js, go, rs),
        str(k),
        (ints(-5000, 5000, (0, 1, -1, k, k**3, -(k**2))),),
    )
