"""Branching on integers: clamping, labelled ranges, FizzBuzz-like words, piecewise formulas."""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import code4, lin
from rlvr.tasksets.synth.values import WORDS, ints

X = (("x", "int"),)


@family("clamp", ("easy",), "conditionals", "arithmetic")
def clamp(r: random.Random, level: Difficulty) -> Draft:
    lo = r.randint(-20, 10)
    hi = lo + r.randint(1, 30)
    py = f"if x < {lo}:\n    return {lo}\nif x > {hi}:\n    return {hi}\nreturn x"
    js = (
        f"if (x < {lo}) {{\n    return {lo};\n}}\nif (x > {hi}) {{\n    return {hi};\n}}\nreturn x;"
    )
    go = f"if x < {lo} {{\n    return {lo}\n}}\nif x > {hi} {{\n    return {hi}\n}}\nreturn x"
    rs = f"if x < {lo} {{\n    return {lo};\n}}\nif x > {hi} {{\n    return {hi};\n}}\nx"
    return Draft(
        "clamp",
        level,
        "clamp",
        X,
        "int",
        f"Return x limited to the range {lo} to {hi}: {lo} if x is smaller, {hi} if x is larger.",
        code4(py, js, go, rs),
        f"{lo},{hi}",
        (ints(lo - 12, hi + 12, (0, lo, hi, lo - 1, hi + 1)),),
    )


@family("label", ("medium",), "conditionals", "strings")
def label(r: random.Random, level: Difficulty) -> Draft:
    """Three labels for three ranges of x."""
    t1 = r.randint(-10, 10)
    t2 = t1 + r.randint(1, 15)
    a, b, c = r.sample(WORDS, 3)
    py = f'if x < {t1}:\n    return "{a}"\nif x <= {t2}:\n    return "{b}"\nreturn "{c}"'
    js = f'''
if (x < {t1}) {{
    return "{a}";
}}
if (x <= {t2}) {{
    return "{b}";
}}
return "{c}";
'''
    go = (
        f'if x < {t1} {{\n    return "{a}"\n}}\nif x <= {t2} {{\n    return "{b}"\n}}\nreturn "{c}"'
    )
    rs = f'''
if x < {t1} {{
    return "{a}".to_string();
}}
if x <= {t2} {{
    return "{b}".to_string();
}}
"{c}".to_string()
'''
    return Draft(
        "label",
        level,
        "label",
        X,
        "str",
        f'Return "{a}" if x < {t1}, "{b}" if {t1} <= x <= {t2}, and "{c}" otherwise.',
        code4(py, js, go, rs),
        f"{t1},{t2},{a},{b},{c}",
        (ints(-40, 40, (t1 - 1, t1, t2, t2 + 1, 0)),),
    )


@family("fizz", ("medium",), "conditionals", "strings")
def fizz(r: random.Random, level: Difficulty) -> Draft:
    """A word for multiples of a, another for multiples of b, both joined, else the number."""
    a = r.randint(2, 7)
    b = r.choice([k for k in range(2, 11) if k != a and k % a and a % k])
    wa, wb = (w.capitalize() for w in r.sample(WORDS, 2))
    py = f'''
out = ""
if n % {a} == 0:
    out += "{wa}"
if n % {b} == 0:
    out += "{wb}"
return out or str(n)
'''
    js = f'''
let out = "";
if (n % {a} === 0) {{
    out += "{wa}";
}}
if (n % {b} === 0) {{
    out += "{wb}";
}}
return out === "" ? String(n) : out;
'''
    go = f'''
out := ""
if n%{a} == 0 {{
    out += "{wa}"
}}
if n%{b} == 0 {{
    out += "{wb}"
}}
if out == "" {{
    return strconv.Itoa(n)
}}
return out
'''
    rs = f'''
let mut out = String::new();
if n % {a} == 0 {{
    out.push_str("{wa}");
}}
if n % {b} == 0 {{
    out.push_str("{wb}");
}}
if out.is_empty() {{
    n.to_string()
}} else {{
    out
}}
'''
    return Draft(
        "fizz",
        level,
        "fizz_word",
        (("n", "int"),),
        "str",
        f'Return "{wa}" if n is divisible by {a}, "{wb}" if by {b}, "{wa}{wb}" if by both, '
        "and otherwise n in decimal.",
        code4(py, js, go, rs, go_imports=("strconv",)),
        f"{a},{b},{wa},{wb}",
        (ints(-30, 120, (0, a, b, a * b, -a, 1)),),
    )


@family("piecewise", ("medium",), "conditionals", "arithmetic")
def piecewise(r: random.Random, level: Difficulty) -> Draft:
    """One formula below a threshold, another from it on."""
    t = r.randint(-10, 10)
    f1 = lin(r.choice([-3, -2, -1, 2, 3]), r.randint(-9, 9))
    f2 = lin(r.choice([-2, 1, 2, 4]), r.randint(-9, 9))
    if f1 == f2:
        f2 = lin(5, 1)
    py = f"if x < {t}:\n    return {f1}\nreturn {f2}"
    js = f"if (x < {t}) {{\n    return {f1};\n}}\nreturn {f2};"
    go = f"if x < {t} {{\n    return {f1}\n}}\nreturn {f2}"
    rs = f"if x < {t} {{\n    return {f1};\n}}\n{f2}"
    return Draft(
        "piecewise",
        level,
        "piecewise",
        X,
        "int",
        f"Return {f1} when x < {t}, and {f2} otherwise.",
        code4(py, js, go, rs),
        f"{t},{f1},{f2}",
        (ints(-40, 40, (t - 1, t, t + 1, 0)),),
    )


@family("three", ("easy", "medium"), "conditionals")
def three(r: random.Random, level: Difficulty) -> Draft:
    """easy: largest or smallest of three; medium: the middle value, or a range check."""
    kinds = ["max", "min"] if level == "easy" else ["median", "between"]
    kind = r.choice(kinds)
    params = (("a", "int"), ("b", "int"), ("c", "int"))
    if kind in ("max", "min"):
        ret, doc = "int", f"Return the {'largest' if kind == 'max' else 'smallest'} of a, b and c."
        fn = kind
        py = f"return {fn}(a, b, c)"
        js = f"return Math.{fn}(a, b, c);"
        cmp = ">" if fn == "max" else "<"
        go = f"m := a\nif b {cmp} m {{\n    m = b\n}}\nif c {cmp} m {{\n    m = c\n}}\nreturn m"
        rs = f"a.{fn}(b).{fn}(c)"
    elif kind == "median":
        ret, doc = "int", "Return the middle value of a, b and c (the median)."
        py = "return sorted([a, b, c])[1]"
        js = "return [a, b, c].sort((p, q) => p - q)[1];"
        go = "v := []int{a, b, c}\nsort.Ints(v)\nreturn v[1]"
        rs = "let mut v = vec![a, b, c];\nv.sort();\nv[1]"
    else:
        ret, doc = "bool", "Return whether b lies between a and c inclusive (in either order)."
        py = "return min(a, c) <= b <= max(a, c)"
        js = "return Math.min(a, c) <= b && b <= Math.max(a, c);"
        go = "lo, hi := a, c\nif lo > hi {\n    lo, hi = hi, lo\n}\nreturn lo <= b && b <= hi"
        rs = "a.min(c) <= b && b <= a.max(c)"
    dom = ints(-20, 20, (0, -1, 5))
    return Draft(
        "three",
        level,
        {"max": "largest", "min": "smallest"}.get(kind, kind),
        params,
        ret,
        doc,
        code4(py, js, go, rs, go_imports=("sort",) if kind == "median" else ()),
        kind,
        (dom, dom, dom),
    )
