"""Dict tasks that rank, merge or build dicts (string keys, int values)."""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.fam_maps import HM, small_dicts
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import code4
from rlvr.tasksets.synth.values import sentences, str_int_dicts, texts

D = (("d", "dict[str, int]"),)


@family("rank_keys", ("hard",), "maps", "lists", "sorting")
def rank_keys(r: random.Random, level: Difficulty) -> Draft:
    """Keys sorted by value (descending or ascending), ties by key; optionally only the top k."""
    desc = r.choice([True, False])
    order = "largest value first" if desc else "smallest value first"
    py_key = "(-d[k], k)" if desc else "(d[k], k)"
    py = f"return sorted(d, key=lambda k: {py_key})"
    js_cmp = "d[b] - d[a]" if desc else "d[a] - d[b]"
    js = f"return Object.keys(d).sort((a, b) => {js_cmp} || (a < b ? -1 : a > b ? 1 : 0));"
    go_cmp = ">" if desc else "<"
    go = f"""
keys := []string{{}}
for k := range d {{
    keys = append(keys, k)
}}
sort.Slice(keys, func(i, j int) bool {{
    a, b := keys[i], keys[j]
    if d[a] != d[b] {{
        return d[a] {go_cmp} d[b]
    }}
    return a < b
}})
return keys
"""
    rs_cmp = "d[*b].cmp(&d[*a])" if desc else "d[*a].cmp(&d[*b])"
    rs = f"""
let mut keys: Vec<&String> = d.keys().collect();
keys.sort_by(|a, b| {rs_cmp}.then(a.cmp(b)));
keys.into_iter().cloned().collect()
"""
    return Draft(
        "rank_keys",
        level,
        "rank_keys",
        D,
        "list[str]",
        f"Return the keys of d ordered by their values, {order}; keys with equal values are in "
        "alphabetical order.",
        code4(py, js, go, rs, go_imports=("sort",), rs_imports=HM),
        str(desc),
        (str_int_dicts(-3, 5, 6),),
    )


@family("merge_dicts", ("hard",), "maps", "conditionals")
def merge_dicts(r: random.Random, level: Difficulty) -> Draft:
    """Union of two dicts; a key in both gets the sum, max or min of its two values."""
    op = r.choice(["sum", "max", "min"])
    py_op = {"sum": "out[k] + v", "max": "max(out[k], v)", "min": "min(out[k], v)"}[op]
    js_op = {"sum": "out[k] + v", "max": "Math.max(out[k], v)", "min": "Math.min(out[k], v)"}[op]
    rs_op = {"sum": "*e + v", "max": "(*e).max(v)", "min": "(*e).min(v)"}[op]
    go_op = {"sum": "w + v", "max": "w", "min": "w"}[op]
    go_fix = {
        "sum": "",
        "max": "\n        if v > w {\n            nv = v\n        }",
        "min": "\n        if v < w {\n            nv = v\n        }",
    }[op]
    what = {"sum": "the sum", "max": "the larger", "min": "the smaller"}[op]
    py = f"""
out = dict(a)
for k, v in b.items():
    out[k] = {py_op} if k in out else v
return out
"""
    js = f"""
const out = {{ ...a }};
for (const [k, v] of Object.entries(b)) {{
    out[k] = Object.prototype.hasOwnProperty.call(out, k) ? {js_op} : v;
}}
return out;
"""
    go = f"""
out := map[string]int{{}}
for k, v := range a {{
    out[k] = v
}}
for k, v := range b {{
    if w, ok := out[k]; ok {{
        nv := {go_op}{go_fix}
        out[k] = nv
    }} else {{
        out[k] = v
    }}
}}
return out
"""
    rs = f"""
let mut out: HashMap<String, i64> = HashMap::new();
for (k, &v) in a.iter() {{
    out.insert(k.clone(), v);
}}
for (k, &v) in b.iter() {{
    let e = out.entry(k.clone()).or_insert(v);
    if !a.contains_key(k) {{
        continue;
    }}
    *e = {rs_op};
}}
out
"""
    return Draft(
        "merge_dicts",
        level,
        "merge_counts",
        (("a", "dict[str, int]"), ("b", "dict[str, int]")),
        "dict[str, int]",
        f"Return a dict with every key of a and b; a key in both gets {what} of its two values.",
        code4(py, js, go, rs, rs_imports=HM),
        op,
        (small_dicts(), small_dicts()),
    )


@family("tally", ("medium",), "maps", "strings", "loops")
def tally(r: random.Random, level: Difficulty) -> Draft:
    """Count words (at least k letters) or characters (within a set) into a dict."""
    if r.random() < 0.5:
        k = r.randint(1, 4)
        py = f"""
out = {{}}
for w in s.split():
    if len(w) >= {k}:
        out[w] = out.get(w, 0) + 1
return out
"""
        js = f"""
const out = {{}};
for (const w of s.split(" ")) {{
    if (w.length >= {k}) {{
        out[w] = (out[w] || 0) + 1;
    }}
}}
return out;
"""
        go = f"""
out := map[string]int{{}}
for _, w := range strings.Fields(s) {{
    if len(w) >= {k} {{
        out[w]++
    }}
}}
return out
"""
        rs = f"""
let mut out: HashMap<String, i64> = HashMap::new();
for w in s.split_whitespace() {{
    if w.len() >= {k} {{
        *out.entry(w.to_string()).or_insert(0) += 1;
    }}
}}
out
"""
        doc = (
            f"Count the words of s (separated by spaces) that have at least {k} letters: map "
            "each such word to how often it occurs."
        )
        key, doms = f"w{k}", (sentences(8, extra=("a a a", "cat cat dog")),)
    else:
        chars = "".join(sorted(r.sample("abcdefghij", r.randint(2, 4))))
        py = f'''
out = {{}}
for c in s:
    if c in "{chars}":
        out[c] = out.get(c, 0) + 1
return out
'''
        js = f'''
const out = {{}};
for (const c of s) {{
    if ("{chars}".includes(c)) {{
        out[c] = (out[c] || 0) + 1;
    }}
}}
return out;
'''
        go = f'''
out := map[string]int{{}}
for i := 0; i < len(s); i++ {{
    if strings.Contains("{chars}", s[i:i+1]) {{
        out[s[i:i+1]]++
    }}
}}
return out
'''
        rs = f'''
let mut out: HashMap<String, i64> = HashMap::new();
for c in s.chars() {{
    if "{chars}".contains(c) {{
        *out.entry(c.to_string()).or_insert(0) += 1;
    }}
}}
out
'''
        doc = f'Map each of the characters "{chars}" that occurs in s to how many times it occurs.'
        key, doms = f"c{chars}", (texts(chars + "xy", 12),)
    return Draft(
        "tally",
        level,
        "tally",
        (("s", "str"),),
        "dict[str, int]",
        doc,
        code4(py, js, go, rs, go_imports=("strings",), rs_imports=HM),
        key,
        doms,
    )
