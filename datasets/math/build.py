"""Build datasets/math/tasks.jsonl: seeded, reproducible arithmetic and algebra with exact answers,
and datasets/math/columns.jsonl, the `math-columns` environment's two-digit column arithmetic.

Run `python datasets/math/build.py` to regenerate; the same seed always gives the same files.
Hand-written tasks live in handwritten.jsonl and are appended unchanged.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20261130


def tex(q: Fraction) -> str:
    """An exact rational as the LaTeX a textbook answer key would print."""
    if q.denominator == 1:
        return str(q.numerator)
    sign = "-" if q < 0 else ""
    return f"{sign}\\frac{{{abs(q.numerator)}}}{{{q.denominator}}}"


def easy_add(r: random.Random) -> tuple[str, str, str]:
    a, b = r.randint(0, 9), r.randint(0, 9)
    return f"What is {a} + {b}?", str(a + b), f"{a} + {b} = {a + b}."


def easy_sub(r: random.Random) -> tuple[str, str, str]:
    a = r.randint(0, 9)
    b = r.randint(0, a)
    return f"What is {a} - {b}?", str(a - b), f"{a} - {b} = {a - b}."


def easy_mul(r: random.Random) -> tuple[str, str, str]:
    a, b = r.randint(1, 9), r.randint(1, 9)
    return f"What is {a} \\times {b}?", str(a * b), f"{a} \\times {b} = {a * b}."


def add_no_carry(r: random.Random) -> tuple[str, str, str]:
    """Two-digit sums whose digit sums stay below 10: a held-out sum is a new pair, its digit
    facts are not, so a model can answer it by the column rule instead of recall."""
    ta = r.randint(1, 8)
    tb = r.randint(1, 9 - ta)
    ua = r.randint(0, 9)
    ub = r.randint(0, 9 - ua)
    a, b = 10 * ta + ua, 10 * tb + ub
    return f"What is {a} + {b}?", str(a + b), f"{a} + {b} = {a + b}."


def sub_no_borrow(r: random.Random) -> tuple[str, str, str]:
    """Two-digit differences with no borrow (each digit of b at most a's): the column rule."""
    ta, ua = r.randint(1, 9), r.randint(0, 9)
    tb, ub = r.randint(1, ta), r.randint(0, ua)
    a, b = 10 * ta + ua, 10 * tb + ub
    return f"What is {a} - {b}?", str(a - b), f"{a} - {b} = {a - b}."


def multi_digit(r: random.Random) -> tuple[str, str, str]:
    a, b, c = r.randint(10, 999), r.randint(10, 999), r.randint(2, 30)
    value = a + b * c
    return (
        f"Compute {a} + {b} \\cdot {c}.",
        str(value),
        f"Multiply first: {b} \\cdot {c} = {b * c}; then {a} + {b * c} = {value}.",
    )


def fraction_sum(r: random.Random) -> tuple[str, str, str]:
    p, q = Fraction(r.randint(1, 9), r.randint(2, 12)), Fraction(r.randint(1, 9), r.randint(2, 12))
    s = p + q
    return (
        f"Compute $\\frac{{{p.numerator}}}{{{p.denominator}}} + "
        f"\\frac{{{q.numerator}}}{{{q.denominator}}}$ and give the answer as a reduced fraction.",
        tex(s),
        f"With a common denominator the sum is {tex(s)}.",
    )


def linear_equation(r: random.Random) -> tuple[str, str, str]:
    a = r.choice([n for n in range(-9, 10) if n not in (0,)])
    x = Fraction(r.randint(-20, 20), r.choice([1, 1, 1, 2, 3]))
    b = r.randint(-30, 30)
    c = a * x + b
    return (
        f"Solve for $x$: ${a}x + {b} = {tex(c)}$.",
        tex(x),
        f"Subtract {b} and divide by {a}: $x = {tex(x)}$.",
    )


def quadratic_roots(r: random.Random) -> tuple[str, str, str]:
    p, q = r.randint(-9, 9), r.randint(-9, 9)
    while q == p:
        q = r.randint(-9, 9)
    b, c = -(p + q), p * q
    lo, hi = sorted((p, q))
    return (
        f"Find all real solutions of $x^2 + ({b})x + ({c}) = 0$. "
        "Give them as a set, e.g. \\{1, 2\\}.",
        f"\\{{{lo}, {hi}\\}}",
        f"It factors as $(x - ({p}))(x - ({q})) = 0$.",
    )


def percentage(r: random.Random) -> tuple[str, str, str]:
    pct, base = r.choice([5, 10, 12, 15, 20, 25, 30, 40, 50, 75]), r.randint(2, 80) * 4
    value = Fraction(pct * base, 100)
    return (
        f"What is {pct}\\% of {base}?",
        tex(value),
        f"{pct}/100 \\cdot {base} = {tex(value)}.",
    )


def gcd_lcm(r: random.Random) -> tuple[str, str, str]:
    a, b = r.randint(2, 60) * r.randint(1, 6), r.randint(2, 60) * r.randint(1, 6)
    if r.random() < 0.5:
        return f"What is the greatest common divisor of {a} and {b}?", str(math.gcd(a, b)), ""
    return f"What is the least common multiple of {a} and {b}?", str(math.lcm(a, b)), ""


def power(r: random.Random) -> tuple[str, str, str]:
    base, exp = r.randint(2, 9), r.randint(2, 8)
    return f"Compute ${base}^{{{exp}}}$.", str(base**exp), f"${base}^{{{exp}}} = {base**exp}$."


def linear_system(r: random.Random) -> tuple[str, str, str]:
    x, y = r.randint(-9, 9), r.randint(-9, 9)
    a, b, c, d = (r.randint(1, 6) for _ in range(4))
    while a * d - b * c == 0:
        d = r.randint(1, 7)
    return (
        f"Solve the system ${a}x + {b}y = {a * x + b * y}$ and ${c}x + {d}y = {c * x + d * y}$. "
        "Give the answer as an ordered pair $(x, y)$.",
        f"({x}, {y})",
        f"Elimination gives $x = {x}$ and $y = {y}$.",
    )


def sqrt_simplify(r: random.Random) -> tuple[str, str, str]:
    k, m = r.randint(2, 9), r.choice([2, 3, 5, 6, 7])
    return (
        f"Simplify $\\sqrt{{{k * k * m}}}$.",
        f"{k}\\sqrt{{{m}}}",
        f"$\\sqrt{{{k * k * m}}} = \\sqrt{{{k * k}}}\\sqrt{{{m}}} = {k}\\sqrt{{{m}}}$.",
    )


FAMILIES: dict[str, tuple[str, int, Callable[[random.Random], tuple[str, str, str]]]] = {
    "add1": ("easy", 60, easy_add),
    "sub1": ("easy", 40, easy_sub),
    "mul1": ("easy", 40, easy_mul),
    "arith": ("medium", 50, multi_digit),
    "frac": ("medium", 50, fraction_sum),
    "linear": ("medium", 50, linear_equation),
    "quadratic": ("hard", 40, quadratic_roots),
    "percent": ("medium", 40, percentage),
    "gcdlcm": ("medium", 40, gcd_lcm),
    "power": ("medium", 30, power),
    "system": ("hard", 40, linear_system),
    "sqrt": ("hard", 30, sqrt_simplify),
}
# math-columns: 1,300 of the 1,980 no-carry sums and 2,475 no-borrow differences, so that the
# train split (70%) holds enough pairs for the column rule to be learnable from it
COLUMN_FAMILIES: dict[str, tuple[str, int, Callable[[random.Random], tuple[str, str, str]]]] = {
    "add2": ("easy", 700, add_no_carry),
    "sub2": ("easy", 600, sub_no_borrow),
}
COLUMN_SEED = 20261201


def generate(
    families: dict[str, tuple[str, int, Callable[[random.Random], tuple[str, str, str]]]],
    seed: int,
    prefix: str,
) -> list[dict]:
    """`count` distinct prompts per family, in order, ids `<prefix>/<family>-NNN`."""
    r = random.Random(seed)
    tasks = []
    for family, (difficulty, count, make) in families.items():
        seen: set[str] = set()
        while len(seen) < count:
            prompt, gold, work = make(r)
            if prompt in seen:
                continue
            seen.add(prompt)
            reference = f"{work} The answer is $\\boxed{{{gold}}}$.".strip()
            tasks.append(
                {
                    "id": f"{prefix}/{family}-{len(seen):03d}",
                    "prompt": prompt,
                    "gold": gold,
                    "reference": reference,
                    "meta": {"difficulty": difficulty, "family": family},
                }
            )
    return tasks


def build() -> list[dict]:
    tasks = generate(FAMILIES, SEED, "math")
    hand = HERE / "handwritten.jsonl"
    if hand.exists():
        tasks += [json.loads(line) for line in hand.read_text().splitlines() if line.strip()]
    return tasks


if __name__ == "__main__":
    for name, rows in (
        ("tasks.jsonl", build()),
        ("columns.jsonl", generate(COLUMN_FAMILIES, COLUMN_SEED, "math-columns")),
    ):
        out = HERE / name
        out.write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in rows))
        print(f"wrote {len(rows)} tasks to {out}")
