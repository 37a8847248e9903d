"""List tasks beyond single folds: prefix scans, windows, pairs, runs, merging, rotation."""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import code4
from rlvr.tasksets.synth.values import int_lists

XS = (("xs", "list[int]"),)


@family("running", ("medium",), "lists", "loops")
def running(r: random.Random, level: Difficulty) -> Draft:
    """Prefix sums, maxima or minima."""
    op = r.choice(["sum", "max", "min"])
    what = {"sum": "sum", "max": "maximum", "min": "minimum"}[op]
    if op == "sum":
        cond = None
    else:
        cmp = ">" if op == "max" else "<"
        cond = f"i == 0 || x {cmp} acc"
    if cond is None:
        py = "out = []\nacc = 0\nfor x in xs:\n    acc += x\n    out.append(acc)\nreturn out"
        js = """
const out = [];
let acc = 0;
for (const x of xs) {
    acc += x;
    out.push(acc);
}
return out;
"""
        go = """
out := []int{}
acc := 0
for _, x := range xs {
    acc += x
    out = append(out, acc)
}
return out
"""
        rs = """
let mut out: Vec<i64> = Vec::new();
let mut acc: i64 = 0;
for &x in xs.iter() {
    acc += x;
    out.push(acc);
}
out
"""
    else:
        py_cond = cond.replace("||", "or")
        py = f"""
out = []
acc = 0
for i, x in enumerate(xs):
    if {py_cond}:
        acc = x
    out.append(acc)
return out
"""
        js = f"""
const out = [];
let acc = 0;
xs.forEach((x, i) => {{
    if ({cond.replace("==", "===")}) {{
        acc = x;
    }}
    out.push(acc);
}});
return out;
"""
        go = f"""
out := []int{{}}
acc := 0
for i, x := range xs {{
    if {cond} {{
        acc = x
    }}
    out = append(out, acc)
}}
return out
"""
        rs = f"""
let mut out: Vec<i64> = Vec::new();
let mut acc: i64 = 0;
for (i, &x) in xs.iter().enumerate() {{
    if {cond} {{
        acc = x;
    }}
    out.push(acc);
}}
out
"""
    return Draft(
        "running",
        level,
        f"running_{op}",
        XS,
        "list[int]",
        f"Return the running {what} of xs: element i is the {what} of xs[0] through xs[i].",
        code4(py, js, go, rs),
        op,
        (int_lists(),),
    )


@family("window", ("hard",), "lists", "loops")
def window(r: random.Random, level: Difficulty) -> Draft:
    """The largest or smallest sum of m consecutive elements; 0 when xs has fewer than m."""
    m, largest = r.randint(2, 4), r.choice([True, False])
    cmp, what = (">", "largest") if largest else ("<", "smallest")
    py = f"""
best = 0
for i in range(len(xs) - {m} + 1):
    s = sum(xs[i : i + {m}])
    if i == 0 or s {cmp} best:
        best = s
return best
"""
    js = f"""
let best = 0;
for (let i = 0; i + {m} <= xs.length; i++) {{
    let s = 0;
    for (let j = i; j < i + {m}; j++) {{
        s += xs[j];
    }}
    if (i === 0 || s {cmp} best) {{
        best = s;
    }}
}}
return best;
"""
    go = f"""
best := 0
for i := 0; i+{m} <= len(xs); i++ {{
    s := 0
    for j := i; j < i+{m}; j++ {{
        s += xs[j]
    }}
    if i == 0 || s {cmp} best {{
        best = s
    }}
}}
return best
"""
    rs = f"""
let mut best: i64 = 0;
let mut i = 0;
while i + {m} <= xs.len() {{
    let s: i64 = xs[i..i + {m}].iter().sum();
    if i == 0 || s {cmp} best {{
        best = s;
    }}
    i += 1;
}}
best
"""
    return Draft(
        "window",
        level,
        "window_sum",
        XS,
        "int",
        f"Return the {what} sum of {m} consecutive elements of xs (0 if xs has fewer than {m}).",
        code4(py, js, go, rs),
        f"{m},{largest}",
        (int_lists(max_len=9),),
    )


@family("pair_count", ("hard",), "lists", "loops")
def pair_count(r: random.Random, level: Difficulty) -> Draft:
    """Pairs i < j whose elements sum (or differ) to k."""
    op = r.choice(["+", "-"])
    k = r.randint(0, 12) if op == "+" else r.randint(-5, 5)
    what = "add up to" if op == "+" else "have xs[i] - xs[j] equal to"
    cond = f"xs[i] {op} xs[j] == {k}"
    py = f"""
n = 0
for i in range(len(xs)):
    for j in range(i + 1, len(xs)):
        if {cond}:
            n += 1
return n
"""
    js = f"""
let n = 0;
for (let i = 0; i < xs.length; i++) {{
    for (let j = i + 1; j < xs.length; j++) {{
        if ({cond}) {{
            n += 1;
        }}
    }}
}}
return n;
"""
    go = f"""
n := 0
for i := 0; i < len(xs); i++ {{
    for j := i + 1; j < len(xs); j++ {{
        if {cond} {{
            n++
        }}
    }}
}}
return n
"""
    rs = f"""
let mut n: i64 = 0;
for i in 0..xs.len() {{
    for j in i + 1..xs.len() {{
        if {cond} {{
            n += 1;
        }}
    }}
}}
n
"""
    doc = (
        f"Return the number of index pairs i < j whose elements {what} {k}."
        if op == "+"
        else f"Return the number of index pairs i < j with xs[i] - xs[j] equal to {k}."
    )
    return Draft(
        "pair_count",
        level,
        "count_pairs",
        XS,
        "int",
        doc,
        code4(py, js, go, rs),
        f"{op}{k}",
        (int_lists(-6, 10, 9),),
    )


@family("longest_run", ("hard",), "lists", "loops", "conditionals")
def longest_run(r: random.Random, level: Difficulty) -> Draft:
    """Length of the longest stretch of consecutive elements related by ==, <, <=, > or >=."""
    rel = r.choice(["==", "<", "<=", ">", ">="])
    what = {
        "==": "equal elements",
        "<": "strictly increasing elements",
        "<=": "non-decreasing elements",
        ">": "strictly decreasing elements",
        ">=": "non-increasing elements",
    }[rel]
    cond = f"xs[i - 1] {rel} xs[i]"
    py = f"""
if not xs:
    return 0
best = cur = 1
for i in range(1, len(xs)):
    cur = cur + 1 if {cond} else 1
    best = max(best, cur)
return best
"""
    js = f"""
if (xs.length === 0) {{
    return 0;
}}
let best = 1;
let cur = 1;
for (let i = 1; i < xs.length; i++) {{
    cur = {cond.replace("==", "===")} ? cur + 1 : 1;
    best = Math.max(best, cur);
}}
return best;
"""
    go = f"""
if len(xs) == 0 {{
    return 0
}}
best, cur := 1, 1
for i := 1; i < len(xs); i++ {{
    if {cond} {{
        cur++
    }} else {{
        cur = 1
    }}
    if cur > best {{
        best = cur
    }}
}}
return best
"""
    rs = f"""
if xs.is_empty() {{
    return 0;
}}
let mut best: i64 = 1;
let mut cur: i64 = 1;
for i in 1..xs.len() {{
    cur = if {cond} {{ cur + 1 }} else {{ 1 }};
    best = best.max(cur);
}}
best
"""
    return Draft(
        "longest_run",
        level,
        "longest_run",
        XS,
        "int",
        f"Return the length of the longest stretch of consecutive {what} in xs (0 for an "
        "empty list).",
        code4(py, js, go, rs),
        rel,
        (int_lists(-3, 5, 10),),
    )


@family("extremes", ("medium",), "lists", "tuples", "loops")
def extremes(r: random.Random, level: Difficulty) -> Draft:
    """A pair of statistics of xs returned together: (min, max), or counts below/above k."""
    if r.random() < 0.3:
        py = "if not xs:\n    return (0, 0)\nreturn (min(xs), max(xs))"
        js = """
if (xs.length === 0) {
    return [0, 0];
}
return [Math.min(...xs), Math.max(...xs)];
"""
        go = """
if len(xs) == 0 {
    return 0, 0
}
lo, hi := xs[0], xs[0]
for _, x := range xs {
    if x < lo {
        lo = x
    }
    if x > hi {
        hi = x
    }
}
return lo, hi
"""
        rs = """
if xs.is_empty() {
    return (0, 0);
}
(*xs.iter().min().unwrap(), *xs.iter().max().unwrap())
"""
        doc = "Return the smallest and the largest element of xs as a pair; 0 and 0 if xs is empty."
        return Draft(
            "extremes", level, "min_max", XS, "tuple[int, int]", doc, code4(py, js, go, rs),
            "minmax", (int_lists(),),
        )  # fmt: skip
    k = r.randint(-5, 8)
    py = f"return (sum(1 for x in xs if x < {k}), sum(1 for x in xs if x > {k}))"
    js = f"return [xs.filter((x) => x < {k}).length, xs.filter((x) => x > {k}).length];"
    go = f"""
below, above := 0, 0
for _, x := range xs {{
    if x < {k} {{
        below++
    }} else if x > {k} {{
        above++
    }}
}}
return below, above
"""
    rs = f"""
let below = xs.iter().filter(|&&x| x < {k}).count() as i64;
let above = xs.iter().filter(|&&x| x > {k}).count() as i64;
(below, above)
"""
    doc = f"Return a pair: how many elements of xs are less than {k}, and how many are greater."
    return Draft(
        "extremes", level, "count_around", XS, "tuple[int, int]", doc, code4(py, js, go, rs),
        f"around{k}", (int_lists(),),
    )  # fmt: skip
