"""Word and character-set tasks: reversing and counting words, filtering characters, joining."""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import code4
from rlvr.tasksets.synth.values import LOWER, WORDS, ints, sentences, texts

S = (("s", "str"),)

SEPS = {" ": "a space", "-": 'a "-"', ",": 'a ","', "_": 'an "_"', "": "nothing"}


@family("words", ("easy", "medium"), "strings", "loops")
def words(r: random.Random, level: Difficulty) -> Draft:
    """Whitespace-separated words: reversed and joined (easy), or counted by first letter."""
    if level == "easy":
        sep = r.choice(list(SEPS))
        doc = (
            f"Return the words of s (separated by spaces) in reverse order, joined by {SEPS[sep]}."
        )
        py = f'return "{sep}".join(reversed(s.split()))'
        js = f'return s.split(" ").filter((w) => w.length > 0).reverse().join("{sep}");'
        go = f'''
w := strings.Fields(s)
for i, j := 0, len(w)-1; i < j; i, j = i+1, j-1 {{
    w[i], w[j] = w[j], w[i]
}}
return strings.Join(w, "{sep}")
'''
        rs = f'let w: Vec<&str> = s.split_whitespace().rev().collect();\nw.join("{sep}")'
        return Draft(
            "words",
            level,
            "reverse_words",
            S,
            "str",
            doc,
            code4(py, js, go, rs, go_imports=("strings",)),
            f"rev{sep}",
            (sentences(5, extra=("  one  two ", "x")),),
        )
    c, k = r.choice(LOWER[:20]), r.randint(2, 4)
    vocab = (*WORDS[:12], c, c + "x", c + "ab", c + "abc", c + "abcd")
    doc = (
        f'Return how many words of s (separated by spaces) start with "{c}" and have at least '
        f"{k} letters."
    )
    py = f'return sum(1 for w in s.split() if w.startswith("{c}") and len(w) >= {k})'
    js = f'return s.split(" ").filter((w) => w.startsWith("{c}") && w.length >= {k}).length;'
    go = f'''
n := 0
for _, w := range strings.Fields(s) {{
    if strings.HasPrefix(w, "{c}") && len(w) >= {k} {{
        n++
    }}
}}
return n
'''
    rs = f'''
let mut n: i64 = 0;
for w in s.split_whitespace() {{
    if w.starts_with("{c}") && w.len() >= {k} {{
        n += 1;
    }}
}}
n
'''
    return Draft(
        "words",
        level,
        "count_words",
        S,
        "int",
        doc,
        code4(py, js, go, rs, go_imports=("strings",)),
        f"start{c}{k}",
        (sentences(6, extra=(f"{c} {c}{c} {c}{c}{c}{c}", f"x{c}"), vocab=vocab),),
    )


@family("longest_word", ("medium",), "strings", "conditionals")
def longest_word(r: random.Random, level: Difficulty) -> Draft:
    """The longest or shortest word, the first one on ties, "" when there is none."""
    longest = r.choice([True, False])
    cmp = ">" if longest else "<"
    what = "longest" if longest else "shortest"
    py = f"""
best = ""
for w in s.split():
    if best == "" or len(w) {cmp} len(best):
        best = w
return best
"""
    js = f"""
let best = "";
for (const w of s.split(" ")) {{
    if (w.length > 0 && (best === "" || w.length {cmp} best.length)) {{
        best = w;
    }}
}}
return best;
"""
    go = f"""
best := ""
for _, w := range strings.Fields(s) {{
    if best == "" || len(w) {cmp} len(best) {{
        best = w
    }}
}}
return best
"""
    rs = f"""
let mut best = "";
for w in s.split_whitespace() {{
    if best.is_empty() || w.len() {cmp} best.len() {{
        best = w;
    }}
}}
best.to_string()
"""
    return Draft(
        "longest_word",
        level,
        f"{what}_word",
        S,
        "str",
        f"Return the {what} word of s (words are separated by spaces), the first one on ties; "
        'return "" when s has no words.',
        code4(py, js, go, rs, go_imports=("strings",)),
        what,
        (sentences(6),),
    )


@family("keep_chars", ("easy", "medium"), "strings", "conditionals")
def keep_chars(r: random.Random, level: Difficulty) -> Draft:
    """Keep (or drop) the characters of s that belong to a drawn set; medium also upper-cases."""
    chars = "".join(sorted(r.sample(LOWER, r.randint(2, 5))))
    keep = r.choice([True, False])
    upper = level == "medium"
    verb = "Keep only" if keep else "Remove"
    tail = " and return the rest in upper case" if upper else " and return what is left"
    doc = f'{verb} the characters of s that are among "{chars}"{tail}.'
    neg_py, neg = ("", "") if keep else ("not ", "!")
    py = f'''
out = "".join(c for c in s if {neg_py}c in "{chars}")
return out{".upper()" if upper else ""}
'''
    js = f'''
let out = "";
for (const c of s) {{
    if ({neg}"{chars}".includes(c)) {{
        out += c;
    }}
}}
return out{".toUpperCase()" if upper else ""};
'''
    go = f'''
out := ""
for i := 0; i < len(s); i++ {{
    if {neg}strings.Contains("{chars}", s[i:i+1]) {{
        out += s[i : i+1]
    }}
}}
return {"strings.ToUpper(out)" if upper else "out"}
'''
    rs = f'''
let out: String = s.chars().filter(|c| {neg}"{chars}".contains(*c)).collect();
out{".to_uppercase()" if upper else ""}
'''
    return Draft(
        "keep_chars",
        level,
        "filter_chars",
        S,
        "str",
        doc,
        code4(py, js, go, rs, go_imports=("strings",)),
        f"{chars},{keep},{upper}",
        (texts(chars + "mnq .", 12, extra=(chars, "..")),),
    )


@family("repeat_join", ("easy",), "strings", "loops")
def repeat_join(r: random.Random, level: Difficulty) -> Draft:
    """s written k times joined by a separator; "" for k <= 0."""
    sep = r.choice(list(SEPS))
    py = f'return "{sep}".join([s] * max(k, 0))'
    js = f'''
const out = [];
for (let i = 0; i < k; i++) {{
    out.push(s);
}}
return out.join("{sep}");
'''
    go = f'''
out := []string{{}}
for i := 0; i < k; i++ {{
    out = append(out, s)
}}
return strings.Join(out, "{sep}")
'''
    rs = f'''
let mut out: Vec<String> = Vec::new();
for _ in 0..k {{
    out.push(s.to_string());
}}
out.join("{sep}")
'''
    return Draft(
        "repeat_join",
        level,
        "repeat_text",
        (("s", "str"), ("k", "int")),
        "str",
        f'Return s written k times, joined by {SEPS[sep]} ("" when k <= 0).',
        code4(py, js, go, rs, go_imports=("strings",)),
        sep,
        (texts("abc", 4), ints(-2, 5, (0, 1, -1))),
    )
