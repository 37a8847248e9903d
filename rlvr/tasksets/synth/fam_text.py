"""Compositions of string transformations (replace, drop, shift, reverse, upper, double)."""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import code4
from rlvr.tasksets.synth.values import texts

S = (("s", "str"),)


GO_DROP = """s = strings.Map(func(c rune) rune {{
    if strings.ContainsRune("{chars}", c) {{
        return -1
    }}
    return c
}}, s)"""
GO_SHIFT = """s = strings.Map(func(c rune) rune {{
    if c >= 'a' && c <= 'z' {{
        return (c-'a'+{k})%26 + 'a'
    }}
    return c
}}, s)"""
RS_SHIFT = """let s: String = s
    .chars()
    .map(|c| {{
        if c.is_ascii_lowercase() {{
            (((c as u8 - 97 + {k}) % 26) + 97) as char
        }} else {{
            c
        }}
    }})
    .collect();"""
GO_REVERSE = """b := []byte(s)
for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
    b[i], b[j] = b[j], b[i]
}
s = string(b)"""
GO_DOUBLE = """var sb strings.Builder
for _, c := range s {
    sb.WriteRune(c)
    sb.WriteRune(c)
}
s = sb.String()"""
KINDS = ("replace", "drop", "shift", "reverse", "upper", "double")


def _stage(r: random.Random, kind: str) -> tuple[str, str, dict[str, str]]:
    """One string transformation: (key, phrase, statements per stack that reassign s)."""
    if kind == "replace":
        a, b = r.sample("abcdeimnorst", 2)
        return f"r{a}{b}", f'replace every "{a}" by "{b}"', {
            "python": f's = s.replace("{a}", "{b}")',
            "javascript": f's = s.split("{a}").join("{b}");',
            "go": f's = strings.ReplaceAll(s, "{a}", "{b}")',
            "rust": f'let s: String = s.replace("{a}", "{b}");',
        }  # fmt: skip
    if kind == "drop":
        chars = "".join(sorted(r.sample("abcdeimnorst", 2)))
        return f"d{chars}", f'remove the characters "{chars}"', {
            "python": f's = "".join(c for c in s if c not in "{chars}")',
            "javascript": f's = s.split("").filter((c) => !"{chars}".includes(c)).join("");',
            "go": GO_DROP.format(chars=chars),
            "rust": f'let s: String = s.chars().filter(|c| !"{chars}".contains(*c)).collect();',
        }  # fmt: skip
    if kind == "shift":
        k = r.randint(1, 25)
        py = f'chr((ord(c) - 97 + {k}) % 26 + 97) if "a" <= c <= "z" else c'
        js = f"String.fromCharCode(((c.charCodeAt(0) - 97 + {k}) % 26) + 97)"
        phrase = f"shift each lower-case letter {k} places on in the alphabet (z wraps to a)"
        return f"s{k}", phrase, {
            "python": f's = "".join({py} for c in s)',
            "javascript": f"s = s.replace(/[a-z]/g, (c) => {js});",
            "go": GO_SHIFT.format(k=k),
            "rust": RS_SHIFT.format(k=k),
        }  # fmt: skip
    if kind == "reverse":
        return "rev", "reverse it", {
            "python": "s = s[::-1]",
            "javascript": 's = s.split("").reverse().join("");',
            "go": GO_REVERSE,
            "rust": "let s: String = s.chars().rev().collect();",
        }  # fmt: skip
    if kind == "upper":
        return "up", "turn it to upper case", {
            "python": "s = s.upper()",
            "javascript": "s = s.toUpperCase();",
            "go": "s = strings.ToUpper(s)",
            "rust": "let s: String = s.to_uppercase();",
        }  # fmt: skip
    return "dbl", "write every character twice", {
        "python": 's = "".join(c + c for c in s)',
        "javascript": 's = s.split("").map((c) => c + c).join("");',
        "go": GO_DOUBLE,
        "rust": "let s: String = s.chars().flat_map(|c| vec![c, c]).collect();",
    }  # fmt: skip


@family("text_pipeline", ("hard",), "strings", "composition", weight={"hard": 4})
def text_pipeline(r: random.Random, level: Difficulty) -> Draft:
    """Three string transformations applied one after the other."""
    stages = [_stage(r, kind) for kind in r.sample(KINDS, 3)]
    phrase = ", then ".join(p for _, p, _ in stages)
    doc = f"Transform s step by step: {phrase}. Return the result."
    bodies = {
        stack: "\n".join(code[stack] for _, _, code in stages)
        + {
            "python": "\nreturn s",
            "javascript": "\nreturn s;",
            "go": "\nreturn s",
            "rust": "\ns.to_string()",
        }[stack]
        for stack in ("python", "javascript", "go", "rust")
    }
    go_imports = ("strings",) if "strings." in bodies["go"] else ()
    return Draft(
        "text_pipeline",
        level,
        "transform_text",
        S,
        "str",
        doc,
        code4(
            bodies["python"],
            bodies["javascript"],
            bodies["go"],
            bodies["rust"],
            go_imports=go_imports,
        ),
        "|".join(k for k, _, _ in stages),
        (texts("abcdeimnorst xz", 10, extra=("z", "a b")),),
    )
