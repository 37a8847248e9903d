"""List reshaping tasks: chunking, rotation, de-duplication and merging sorted lists."""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import code4
from rlvr.tasksets.synth.values import int_lists, ints

XS = (("xs", "list[int]"),)


@family("chunks", ("medium",), "lists", "loops")
def chunks(r: random.Random, level: Difficulty) -> Draft:
    """Sums (or maxima) of consecutive chunks of m elements; the last chunk may be shorter."""
    m, op = r.randint(2, 5), r.choice(["sum", "max"])
    what = "sum" if op == "sum" else "largest element"
    py_v = "sum(xs[i : i + {m}])" if op == "sum" else "max(xs[i : i + {m}])"
    py = f"return [{py_v.format(m=m)} for i in range(0, len(xs), {m})]"
    js_fold = "(a, b) => a + b, 0" if op == "sum" else "(a, b) => Math.max(a, b)"
    js = f"""
const out = [];
for (let i = 0; i < xs.length; i += {m}) {{
    out.push(xs.slice(i, i + {m}).reduce({js_fold}));
}}
return out;
"""
    go_upd = (
        "v += xs[j]"
        if op == "sum"
        else "if j == i || xs[j] > v {\n            v = xs[j]\n        }"
    )
    go = f"""
out := []int{{}}
for i := 0; i < len(xs); i += {m} {{
    v := 0
    for j := i; j < i+{m} && j < len(xs); j++ {{
        {go_upd}
    }}
    out = append(out, v)
}}
return out
"""
    rs_v = "c.iter().sum()" if op == "sum" else "*c.iter().max().unwrap()"
    rs = f"xs.chunks({m}).map(|c| -> i64 {{ {rs_v} }}).collect()"
    return Draft(
        "chunks",
        level,
        "chunk_sums" if op == "sum" else "chunk_maxima",
        XS,
        "list[int]",
        f"Split xs into consecutive chunks of {m} elements (the last one may be shorter) and "
        f"return the {what} of each chunk.",
        code4(py, js, go, rs),
        f"{m}{op}",
        (int_lists(max_len=11),),
    )


@family("rotate", ("medium",), "lists")
def rotate(r: random.Random, level: Difficulty) -> Draft:
    """Rotate left or right by k places (k may exceed the length or be negative)."""
    left = r.choice([True, False])
    shift = "k % n" if left else "(n - k % n) % n"
    py = f"n = len(xs)\nif n == 0:\n    return []\nk = {shift}\nreturn xs[k:] + xs[:k]"
    norm = "((k % n) + n) % n"
    js_shift = norm if left else f"(n - {norm}) % n"
    js = f"""
const n = xs.length;
if (n === 0) {{
    return [];
}}
const s = {js_shift};
return xs.slice(s).concat(xs.slice(0, s));
"""
    go = f"""
n := len(xs)
out := []int{{}}
if n == 0 {{
    return out
}}
s := {js_shift}
out = append(out, xs[s:]...)
return append(out, xs[:s]...)
"""
    rs = f"""
let n = xs.len() as i64;
if n == 0 {{
    return Vec::new();
}}
let s = ({js_shift}) as usize;
let mut out: Vec<i64> = xs[s..].to_vec();
out.extend_from_slice(&xs[..s]);
out
"""
    what = "left" if left else "right"
    example = "[1, 2, 3] by 1 gives [2, 3, 1]" if left else "[1, 2, 3] by 1 gives [3, 1, 2]"
    return Draft(
        "rotate",
        level,
        f"rotate_{what}",
        (("xs", "list[int]"), ("k", "int")),
        "list[int]",
        f"Rotate xs to the {what} by k places ({example}); k may be negative or exceed the length.",
        code4(py, js, go, rs),
        what,
        (int_lists(max_len=6), ints(-7, 9, (0, 1, -1, 6))),
    )


@family("dedupe", ("medium",), "lists", "maps")
def dedupe(r: random.Random, level: Difficulty) -> Draft:
    """First occurrences (keep order), or the elements seen exactly once."""
    once = r.choice([True, False])
    if not once:
        doc = "Return xs without repeated values, keeping the first occurrence of each in order."
        py = """
seen = set()
out = []
for x in xs:
    if x not in seen:
        seen.add(x)
        out.append(x)
return out
"""
        js = """
const seen = new Set();
const out = [];
for (const x of xs) {
    if (!seen.has(x)) {
        seen.add(x);
        out.push(x);
    }
}
return out;
"""
        go = """
seen := map[int]bool{}
out := []int{}
for _, x := range xs {
    if !seen[x] {
        seen[x] = true
        out = append(out, x)
    }
}
return out
"""
        rs = """
let mut seen = std::collections::HashSet::new();
let mut out: Vec<i64> = Vec::new();
for &x in xs.iter() {
    if seen.insert(x) {
        out.push(x);
    }
}
out
"""
    else:
        doc = "Return, in order, the elements of xs whose value occurs exactly once in xs."
        py = "return [x for x in xs if xs.count(x) == 1]"
        js = "return xs.filter((x) => xs.filter((y) => y === x).length === 1);"
        go = """
count := map[int]int{}
for _, x := range xs {
    count[x]++
}
out := []int{}
for _, x := range xs {
    if count[x] == 1 {
        out = append(out, x)
    }
}
return out
"""
        rs = """
xs.iter()
    .filter(|&&x| xs.iter().filter(|&&y| y == x).count() == 1)
    .cloned()
    .collect()
"""
    return Draft(
        "dedupe",
        level,
        "unique_values" if once else "dedupe",
        XS,
        "list[int]",
        doc,
        code4(py, js, go, rs),
        str(once),
        (int_lists(-4, 6, 9),),
    )


@family("merge_sorted", ("hard",), "lists", "loops")
def merge_sorted(r: random.Random, level: Difficulty) -> Draft:
    """Merge two ascending lists into one ascending list, optionally dropping duplicates."""
    unique = r.choice([True, False])
    keep = "if not out or out[-1] != v:\n        out.append(v)" if unique else "out.append(v)"
    py = f"""
out = []
i = j = 0
while i < len(xs) or j < len(ys):
    if j >= len(ys) or (i < len(xs) and xs[i] <= ys[j]):
        v = xs[i]
        i += 1
    else:
        v = ys[j]
        j += 1
    {keep}
return out
"""
    js_keep = (
        "if (out.length === 0 || out[out.length - 1] !== v) {\n        out.push(v);\n    }"
        if unique
        else "out.push(v);"
    )
    js = f"""
const out = [];
let i = 0;
let j = 0;
while (i < xs.length || j < ys.length) {{
    let v;
    if (j >= ys.length || (i < xs.length && xs[i] <= ys[j])) {{
        v = xs[i];
        i++;
    }} else {{
        v = ys[j];
        j++;
    }}
    {js_keep}
}}
return out;
"""
    go_keep = (
        "if len(out) == 0 || out[len(out)-1] != v {\n        out = append(out, v)\n    }"
        if unique
        else "out = append(out, v)"
    )
    go = f"""
out := []int{{}}
i, j := 0, 0
for i < len(xs) || j < len(ys) {{
    var v int
    if j >= len(ys) || (i < len(xs) && xs[i] <= ys[j]) {{
        v = xs[i]
        i++
    }} else {{
        v = ys[j]
        j++
    }}
    {go_keep}
}}
return out
"""
    rs_keep = (
        "if out.last() != Some(&v) {\n        out.push(v);\n    }" if unique else "out.push(v);"
    )
    rs = f"""
let mut out: Vec<i64> = Vec::new();
let (mut i, mut j) = (0, 0);
while i < xs.len() || j < ys.len() {{
    let v;
    if j >= ys.len() || (i < xs.len() && xs[i] <= ys[j]) {{
        v = xs[i];
        i += 1;
    }} else {{
        v = ys[j];
        j += 1;
    }}
    {rs_keep}
}}
out
"""
    tail = ", each value once" if unique else ", keeping repeated values"
    return Draft(
        "merge_sorted",
        level,
        "merge_sorted",
        (("xs", "list[int]"), ("ys", "list[int]")),
        "list[int]",
        f"xs and ys are sorted in ascending order; return all their elements in one ascending "
        f"list{tail}.",
        code4(py, js, go, rs),
        str(unique),
        (int_lists(-9, 9, 6, sort=True), int_lists(-9, 9, 6, sort=True)),
    )
