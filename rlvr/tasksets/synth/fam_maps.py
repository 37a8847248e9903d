"""Dict tasks (string keys, int values): lookups, filters, folds, rankings, merging, counting."""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import code4, draw_map, draw_pred
from rlvr.tasksets.synth.values import WORDS, Domain, choice, str_int_dicts

D = (("d", "dict[str, int]"),)
KEYS = WORDS[:6]
HM = ("use std::collections::HashMap;",)


def small_dicts() -> Domain:
    """Dicts over six keys, so that a looked-up key is often present."""

    def draw(r: random.Random) -> dict[str, int]:
        return {k: r.randint(-9, 20) for k in r.sample(KEYS, r.randint(1, 4))}

    return Domain(({}, {KEYS[0]: 0}), draw)


@family("lookup", ("easy",), "maps", "conditionals")
def lookup(r: random.Random, level: Difficulty) -> Draft:
    dflt = r.randint(-9, 9)
    py = f"return d.get(key, {dflt})"
    js = f"return Object.prototype.hasOwnProperty.call(d, key) ? d[key] : {dflt};"
    go = f"if v, ok := d[key]; ok {{\n    return v\n}}\nreturn {dflt}"
    rs = f"match d.get(&key[..]) {{\n    Some(v) => *v,\n    None => {dflt},\n}}"
    return Draft(
        "lookup",
        level,
        "get_or_default",
        (*D, ("key", "str")),
        "int",
        f"Return the value stored under key in d, or {dflt} when d has no such key.",
        code4(py, js, go, rs, rs_imports=HM),
        str(dflt),
        (small_dicts(), choice(KEYS)),
    )


@family("dict_filter", ("medium",), "maps", "conditionals")
def dict_filter(r: random.Random, level: Difficulty) -> Draft:
    pred = draw_pred(r)
    cond = {s: pred.expr[s] for s in pred.expr}
    py = f"""
out = {{}}
for k, x in d.items():
    if {cond["python"]}:
        out[k] = x
return out
"""
    js = f"""
const out = {{}};
for (const [k, x] of Object.entries(d)) {{
    if ({cond["javascript"]}) {{
        out[k] = x;
    }}
}}
return out;
"""
    go = f"""
out := map[string]int{{}}
for k, x := range d {{
    if {cond["go"]} {{
        out[k] = x
    }}
}}
return out
"""
    rs = f"""
let mut out: HashMap<String, i64> = HashMap::new();
for (k, &x) in d.iter() {{
    if {cond["rust"]} {{
        out.insert(k.clone(), x);
    }}
}}
out
"""
    return Draft(
        "dict_filter",
        level,
        "filter_values",
        D,
        "dict[str, int]",
        f"Return a new dict with only the entries of d whose value is {pred.phrase}.",
        code4(py, js, go, rs, rs_imports=HM),
        pred.key,
        (str_int_dicts(),),
    )


@family("dict_fold", ("easy",), "maps", "loops")
def dict_fold(r: random.Random, level: Difficulty) -> Draft:
    """Sum or count of the values passing a predicate."""
    pred, op = draw_pred(r), r.choice(["sum", "count"])
    upd = "acc + x" if op == "sum" else "acc + 1"
    what = "the sum of the values in d that are" if op == "sum" else "how many values in d are"
    py = f"""
acc = 0
for x in d.values():
    if {pred.expr["python"]}:
        acc = {upd}
return acc
"""
    js = f"""
let acc = 0;
for (const x of Object.values(d)) {{
    if ({pred.expr["javascript"]}) {{
        acc = {upd};
    }}
}}
return acc;
"""
    go = f"""
acc := 0
for _, x := range d {{
    if {pred.expr["go"]} {{
        acc = {upd}
    }}
}}
return acc
"""
    rs = f"""
let mut acc: i64 = 0;
for &x in d.values() {{
    if {pred.expr["rust"]} {{
        acc = {upd};
    }}
}}
acc
"""
    zero = " (0 if there are none)" if op == "sum" else ""
    return Draft(
        "dict_fold",
        level,
        f"{op}_values",
        D,
        "int",
        f"Return {what} {pred.phrase}{zero}.",
        code4(py, js, go, rs, rs_imports=HM),
        f"{op}|{pred.key}",
        (str_int_dicts(),),
    )


@family("dict_map", ("easy",), "maps", "arithmetic")
def dict_map(r: random.Random, level: Difficulty) -> Draft:
    mapping = draw_map(r)
    e = mapping.expr
    py = f"return {{k: {e['python']} for k, x in d.items()}}"
    js = f"""
const out = {{}};
for (const [k, x] of Object.entries(d)) {{
    out[k] = {e["javascript"]};
}}
return out;
"""
    go = (
        f"out := map[string]int{{}}\nfor k, x := range d {{\n    out[k] = {e['go']}\n}}\nreturn out"
    )
    rs = f"""
let mut out: HashMap<String, i64> = HashMap::new();
for (k, &x) in d.iter() {{
    out.insert(k.clone(), {e["rust"]});
}}
out
"""
    return Draft(
        "dict_map",
        level,
        "map_values",
        D,
        "dict[str, int]",
        f"Return a new dict with the same keys as d where each value x becomes {mapping.phrase}.",
        code4(py, js, go, rs, rs_imports=HM, go_helpers=mapping.go_helpers),
        mapping.key,
        (str_int_dicts(),),
    )


@family("best_key", ("medium",), "maps", "conditionals", "optional")
def best_key(r: random.Random, level: Difficulty) -> Draft:
    """The key of the largest (smallest) value, the alphabetically first on ties, or None."""
    largest = r.choice([True, False])
    cmp = ">" if largest else "<"
    what = "largest" if largest else "smallest"
    better = f"v {cmp} d[best] or (v == d[best] and k < best)"
    py = f"""
best = None
for k, v in d.items():
    if best is None or {better}:
        best = k
return best
"""
    js = f"""
let best = null;
for (const [k, v] of Object.entries(d)) {{
    if (best === null || v {cmp} d[best] || (v === d[best] && k < best)) {{
        best = k;
    }}
}}
return best;
"""
    go = f"""
var best *string
for k, v := range d {{
    if best == nil || v {cmp} d[*best] || (v == d[*best] && k < *best) {{
        key := k
        best = &key
    }}
}}
return best
"""
    rs = f"""
let mut best: Option<(&String, i64)> = None;
for (k, &v) in d.iter() {{
    best = match best {{
        Some((bk, bv)) if !(v {cmp} bv || (v == bv && k < bk)) => Some((bk, bv)),
        _ => Some((k, v)),
    }};
}}
best.map(|(k, _)| k.clone())
"""
    return Draft(
        "best_key",
        level,
        f"key_of_{'max' if largest else 'min'}",
        D,
        "optional[str]",
        f"Return the key of d with the {what} value (the alphabetically first such key on ties), "
        "or no value at all when d is empty.",
        code4(py, js, go, rs, rs_imports=HM),
        what,
        (str_int_dicts(-3, 4),),
    )
