"""String tasks over printable ASCII: counting, replacing, shifting, words and runs."""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import code4
from rlvr.tasksets.synth.values import LOWER, texts

S = (("s", "str"),)


@family("count_char", ("easy", "medium"), "strings", "loops")
def count_char(r: random.Random, level: Difficulty) -> Draft:
    """easy: occurrences of one letter; medium: of any letter of a small set."""
    chars = "".join(sorted(r.sample(LOWER, 1 if level == "easy" else r.randint(2, 4))))
    what = f'the letter "{chars}"' if len(chars) == 1 else f'any of the letters "{chars}"'
    py = f'return sum(1 for c in s if c in "{chars}")'
    js = f'''
let n = 0;
for (const c of s) {{
    if ("{chars}".includes(c)) {{
        n += 1;
    }}
}}
return n;
'''
    go = f'''
n := 0
for _, c := range s {{
    if strings.ContainsRune("{chars}", c) {{
        n++
    }}
}}
return n
'''
    rs = f'''
let mut n: i64 = 0;
for c in s.chars() {{
    if "{chars}".contains(c) {{
        n += 1;
    }}
}}
n
'''
    return Draft(
        "count_char",
        level,
        "count_letters",
        S,
        "int",
        f"Return how many characters of s are {what}.",
        code4(py, js, go, rs, go_imports=("strings",)),
        chars,
        (texts(chars + "xyz" + chars, 12, extra=(chars[0] * 3, "XYZ")),),
    )


@family("replace_char", ("easy",), "strings")
def replace_char(r: random.Random, level: Difficulty) -> Draft:
    a, b = r.sample(LOWER, 2)
    py = f'return s.replace("{a}", "{b}")'
    js = f'return s.split("{a}").join("{b}");'
    go = f'return strings.ReplaceAll(s, "{a}", "{b}")'
    rs = f's.replace("{a}", "{b}")'
    return Draft(
        "replace_char",
        level,
        "replace_letter",
        S,
        "str",
        f'Return s with every "{a}" replaced by "{b}".',
        code4(py, js, go, rs, go_imports=("strings",)),
        a + b,
        (texts(a + "xy" + b + a, 10, extra=(a, a + a + b)),),
    )


@family("caesar", ("medium",), "strings", "arithmetic")
def caesar(r: random.Random, level: Difficulty) -> Draft:
    """Shift lower-case letters forward by k, wrapping; other characters unchanged."""
    k = r.randint(1, 25)
    py = f"""
out = []
for c in s:
    if "a" <= c <= "z":
        out.append(chr((ord(c) - 97 + {k}) % 26 + 97))
    else:
        out.append(c)
return "".join(out)
"""
    js = f"""
let out = "";
for (const c of s) {{
    if (c >= "a" && c <= "z") {{
        out += String.fromCharCode(((c.charCodeAt(0) - 97 + {k}) % 26) + 97);
    }} else {{
        out += c;
    }}
}}
return out;
"""
    go = f"""
out := []byte(s)
for i := 0; i < len(out); i++ {{
    if out[i] >= 'a' && out[i] <= 'z' {{
        out[i] = byte((int(out[i])-97+{k})%26 + 97)
    }}
}}
return string(out)
"""
    rs = f"""
s.chars()
    .map(|c| {{
        if c.is_ascii_lowercase() {{
            (((c as u8 - 97 + {k}) % 26) + 97) as char
        }} else {{
            c
        }}
    }})
    .collect()
"""
    return Draft(
        "caesar",
        level,
        "shift_letters",
        S,
        "str",
        f"Shift every lower-case letter of s forward by {k} places in the alphabet, wrapping "
        "from z to a; other characters stay the same.",
        code4(py, js, go, rs),
        str(k),
        (texts(LOWER + "  .A", 12, extra=("z", "Hello, z!")),),
    )


@family("palindrome", ("easy", "medium"), "strings", "conditionals")
def palindrome(r: random.Random, level: Difficulty) -> Draft:
    """easy: s reads the same reversed; medium: only letters, case ignored."""
    if level == "easy":
        doc = "Return whether s reads the same forwards and backwards."
        py, js = "return s == s[::-1]", 'return s === s.split("").reverse().join("");'
        go = """
for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
    if s[i] != s[j] {
        return false
    }
}
return true
"""
        rs = "s.chars().eq(s.chars().rev())"
        doms = (texts("ab", 6, extra=("aba", "abba", "ab")),)
    else:
        doc = (
            "Return whether s reads the same forwards and backwards when only its letters are "
            "kept and upper case counts as lower case."
        )
        py = "t = [c.lower() for c in s if c.isalpha()]\nreturn t == t[::-1]"
        js = """
const t = s.toLowerCase().replace(/[^a-z]/g, "");
return t === t.split("").reverse().join("");
"""
        go = """
t := []byte{}
for i := 0; i < len(s); i++ {
    c := s[i]
    if c >= 'A' && c <= 'Z' {
        c += 32
    }
    if c >= 'a' && c <= 'z' {
        t = append(t, c)
    }
}
for i, j := 0, len(t)-1; i < j; i, j = i+1, j-1 {
    if t[i] != t[j] {
        return false
    }
}
return true
"""
        rs = """
let t: Vec<char> = s
    .chars()
    .filter(|c| c.is_ascii_alphabetic())
    .map(|c| c.to_ascii_lowercase())
    .collect();
t.iter().eq(t.iter().rev())
"""
        doms = (texts("aAb ,", 8, extra=("A man, a plan", "Ab, a!", "ab")),)
    return Draft(
        "palindrome", level, "is_palindrome", S, "bool", doc, code4(py, js, go, rs), level, doms
    )


@family("run_length", ("hard",), "strings", "loops")
def run_length(r: random.Random, level: Difficulty) -> Draft:
    """Run-length encoding, count after or before the character, runs of 1 written or not."""
    after, ones = r.choice([True, False]), r.choice([True, False])
    first, second = ("c", "n") if after else ("n", "c")
    doc = (
        "Run-length encode s: each maximal run of one character becomes "
        + (
            "the character followed by the run length"
            if after
            else "the run length followed by the character"
        )
        + ("" if ones else ", except that a run of length 1 is just the character")
        + '; "" encodes to "".'
    )
    piece = (
        f"str({first}) + str({second})"
        if ones
        else f"(str({first}) + str({second}) if n > 1 else c)"
    )
    py = f"""
out = ""
i = 0
while i < len(s):
    c = s[i]
    n = 1
    while i + n < len(s) and s[i + n] == c:
        n += 1
    out += {piece}
    i += n
return out
"""
    js_piece = (
        f"String({first}) + String({second})"
        if ones
        else f"(n > 1 ? String({first}) + String({second}) : c)"
    )
    js = f"""
let out = "";
let i = 0;
while (i < s.length) {{
    const c = s[i];
    let n = 1;
    while (i + n < s.length && s[i + n] === c) {{
        n += 1;
    }}
    out += {js_piece};
    i += n;
}}
return out;
"""
    go_a, go_b = ("s[i:i+1]", "strconv.Itoa(n)") if after else ("strconv.Itoa(n)", "s[i:i+1]")
    go_add = (
        f"out += {go_a} + {go_b}"
        if ones
        else f"if n > 1 {{\n        out += {go_a} + {go_b}\n    }} else {{\n"
        "        out += s[i:i+1]\n    }"
    )
    go = f"""
out := ""
i := 0
for i < len(s) {{
    c := s[i]
    n := 1
    for i+n < len(s) && s[i+n] == c {{
        n++
    }}
    {go_add}
    i += n
}}
return out
"""
    rs_fmt = '"{}{}"'
    rs_add = (
        f"out.push_str(&format!({rs_fmt}, {first}, {second}));"
        if ones
        else f"if n > 1 {{\n        out.push_str(&format!({rs_fmt}, {first}, {second}));\n"
        "    } else {\n        out.push(c);\n    }"
    )
    rs = f"""
let b: Vec<char> = s.chars().collect();
let mut out = String::new();
let mut i = 0;
while i < b.len() {{
    let c = b[i];
    let mut n = 1;
    while i + n < b.len() && b[i + n] == c {{
        n += 1;
    }}
    {rs_add}
    i += n;
}}
out
"""
    return Draft(
        "run_length",
        level,
        "run_length_encode",
        S,
        "str",
        doc,
        code4(py, js, go, rs, go_imports=("strconv",)),
        f"{after},{ones}",
        (texts("aab", 10, extra=("aaa", "abc", "aabbbc")),),
    )
