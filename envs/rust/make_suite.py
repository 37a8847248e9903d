"""Write the rust test target's main (tests/suite.rs) and make its tests plain functions.

    python3 make_suite.py --check src/lib.rs
    python3 make_suite.py [--signature FILE] tests/public.rs tests/hidden.rs > tests/suite.rs

Run by build.sh as the judge's uid. Each `#[test] fn name()` in a test file becomes
`pub fn name()` (the target has no libtest harness); `#[should_panic]` is honoured. The main
refuses to run unless its parent is the sandbox runner (root, not pid 1) and it got no
arguments, reads the job's nonce from stdin before any test runs, runs each test under
catch_unwind and prints `<nonce> ok|FAILED <module>::<name>`, then `<nonce> done <count>`.

With the task's stated signature (`--signature`, the prompt's rust block), each stated function
f becomes `pub const f: fn(..) -> .. = ::solution::f;` in a module that sees only the std
prelude: it pins f's exact parameter and return types (a return type whose PartialEq always
holds does not build), and the tests' `use solution::*;` becomes an import of these consts, which
are values only. So nothing else of the answer's reaches the tests: not its own `Some` or `Vec`,
nor a trait whose `.iter()` method lookup would find first, even one named like f.

`--check` refuses answers with the shapes of rustc 1.63's known safe-code soundness holes: more
than one named lifetime or a higher-ranked `for<` (the implied-bounds transmute,
rust-lang/rust#25860) and a trait with an associated type used through `dyn`
(rust-lang/rust#57893). Best effort: see sandbox/SECURITY.md.
"""

import re
import sys

TEST = re.compile(r"^(\s*)#\[\s*test\s*\]\s*$")
PANIC = re.compile(r"^\s*#\[\s*should_panic\b.*\]\s*$")
FN = re.compile(r"^(\s*)fn\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(")

MAIN = """
use std::io::{Read, Write};

fn rlvr_parent_is_runner() -> bool {
    let ppid = std::os::unix::process::parent_id();
    if ppid <= 1 {
        return false;
    }
    match std::fs::read_to_string(format!("/proc/{}/status", ppid)) {
        Ok(s) => s
            .lines()
            .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(1) == Some("0")),
        Err(_) => false,
    }
}

fn main() {
    if std::env::args().count() != 1 || !rlvr_parent_is_runner() {
        eprintln!("rlvr: refused: not started by the sandbox runner");
        std::process::exit(3);
    }
    let mut nonce = String::new();
    if std::io::stdin().read_to_string(&mut nonce).is_err() || nonce.trim().len() < 16 {
        std::process::exit(3);
    }
    let nonce = nonce.trim().to_string();
    let tests: &[(&str, fn(), bool)] = &[
@TESTS@    ];
    let mut out = std::io::stdout();
    for (name, test, should_panic) in tests {
        let panicked = std::panic::catch_unwind(*test).is_err();
        let ok = panicked == *should_panic;
        let _ = writeln!(out, "{} {} {}", nonce, if ok { "ok" } else { "FAILED" }, name);
        let _ = out.flush();
    }
    let _ = writeln!(out, "{} done {}", nonce, tests.len());
    let _ = out.flush();
}
"""


def rewrite(path: str, module: str) -> list[tuple[str, bool]]:
    """Make the file's tests `pub fn` in place; their (qualified name, should_panic)."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    found, pending, panics = [], False, False
    for i, line in enumerate(lines):
        if TEST.match(line):
            lines[i], pending, panics = "", True, False
            continue
        if pending and PANIC.match(line):
            lines[i], panics = "", True
            continue
        m = FN.match(line)
        if pending and m:
            lines[i] = f"{m.group(1)}pub {line.lstrip()}"
            found.append((f"{module}::{m.group(2)}", panics))
            pending = False
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines))
    return found


GLOB = re.compile(r"^\s*use\s+solution\s*::\s*\*\s*;\s*$", re.M)
ITEM = re.compile(r"\bpub\s+(?:fn|struct|enum|trait|type|const|static)\s+([A-Za-z_]\w*)")
USE = re.compile(r"^\s*use\s+[^;]+;", re.M)


def _closing(text: str, i: int, pair: str = "()") -> int:
    """Index just past the bracket that closes the one at text[i]."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == pair[0]:
            depth += 1
        elif text[j] == pair[1] and text[j - 1 : j + 1] != "->":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def _split_top(text: str, sep: str) -> list[str]:
    """Split at `sep` outside (), [], <> (a `->` is not a closing angle)."""
    parts, depth, cur, prev = [], 0, "", ""
    for ch in text:
        if ch in "([<":
            depth += 1
        elif ch in ")]" or (ch == ">" and prev != "-"):
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
        prev = ch
    return [*parts, cur] if cur.strip() else parts


def pins(signature: str) -> dict[str, str]:
    """{f: its fn pointer type} for each non-generic `pub fn` the task states."""
    out = {}
    for m in re.finditer(r"\bpub\s+fn\s+([A-Za-z_]\w*)\s*", signature):
        i, lifetimes = m.end(), ""
        if signature.startswith("<", i):
            end = _closing(signature, i, "<>")
            params = [p.strip() for p in _split_top(signature[i + 1 : end - 1], ",")]
            if not all(p.startswith("'") and ":" not in p for p in params):
                continue  # generic over types: no single fn pointer type to pin
            lifetimes, i = f"for<{', '.join(params)}> ", end
        if not signature.startswith("(", i):
            continue
        end = _closing(signature, i)
        types = [p.split(":", 1)[1].strip() if ":" in p else p.strip()
                 for p in _split_top(signature[i + 1 : end - 1], ",")]  # fmt: skip
        rest = re.split(r"[{;]|\bwhere\b|\n", signature[end:], maxsplit=1)[0].strip()
        ret = f" {rest}" if rest.startswith("->") else ""
        out[m.group(1)] = f"{lifetimes}fn({', '.join(types)}){ret}"
    return out


def signature_module(signature: str) -> str:
    """`pub const f: <stated type> = ::solution::f;` per pinned function, in a module that sees
    only the std prelude and the signature's own `use` lines: it builds only when the answer's
    f has exactly those types, and it is a value alone (no trait or module named f with it)."""
    lines = [u.group(0).strip() for u in USE.finditer(signature)]
    lines += [f"pub const {name}: {pointer} = ::solution::{name};"
              for name, pointer in pins(signature).items()]  # fmt: skip
    body = "".join(f"    {line}\n" for line in lines)
    allow = "dead_code, unused_imports, non_upper_case_globals"
    return f"#[allow({allow})]\nmod rlvr_signature {{\n{body}}}\n"


def narrow_imports(path: str, signature: str) -> None:
    """`use solution::*;` becomes an import of the pinned functions' consts and, by name, of the
    task's other items (generic functions, types: weaker, a name imports every namespace)."""
    pinned = pins(signature)
    others = [n for n in dict.fromkeys(ITEM.findall(signature)) if n not in pinned]
    uses = [f"use crate::rlvr_signature::{{{', '.join(pinned)}}};"] * bool(pinned)
    uses += [f"use solution::{{{', '.join(others)}}};"] * bool(others)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(GLOB.sub(lambda _m: "\n".join(uses), text))


LIFETIME = re.compile(r"'([A-Za-z_]\w*)\b(?!')")
LABEL = re.compile(r"'([A-Za-z_]\w*)\s*:\s*(?:loop|while|for|\{)")
# comments, strings and char literals, in one left-to-right pass (a "/*" inside a string must
# not hide the code after it); a nested block comment ends early, which only checks more
NOT_CODE = re.compile(
    r"//[^\n]*|/\*.*?\*/"
    r'|(?<!\w)b?r(#*)".*?"\1'
    r'|(?<!\w)b?"(?:[^"\\]|\\.)*"'
    r"|(?<!\w)b?'(?:[^'\\\n]|\\[^\n]{1,10}?)'",
    re.S,
)
ASSOC_TYPE = re.compile(r"\btype\s+[A-Za-z_]\w*\s*(?::[^=;{}]*)?;")


def unsound_shapes(src: str) -> list[str]:
    """What in the answer has the shape of a known safe-code soundness hole of rustc 1.63."""
    src = NOT_CODE.sub(" ", src)
    labels = set(LABEL.findall(src))
    named = sorted(set(LIFETIME.findall(src)) - labels - {"_"})
    found = []
    if len(named) > 1:  # 'static counts: `&'static &'b ()` is rust#25860 with one lifetime
        found.append(f"more than one named lifetime ({', '.join(chr(39) + n for n in named)})")
    if re.search(r"(?<![\w])fn\s*\(", src):
        found.append("a function pointer type `fn(...)` (rust#25860 coerces through one)")
    if re.search(r"\bFn(?:Mut|Once)?\s*\(", src):
        found.append("an `Fn(...)` closure-trait type (the same coercion through a closure bound)")
    if re.search(r"\bfor\s*<", src):
        found.append("a higher-ranked `for<...>` bound or type")
    if re.search(r"\bdyn\b", src) and re.search(r"\btrait\b", src) and ASSOC_TYPE.search(src):
        found.append("a trait with an associated type together with `dyn`")
    return found


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["--check"]:
        with open(args[1], encoding="utf-8") as fh:
            found = unsound_shapes(fh.read())
        if found:
            sys.stderr.write(
                "make_suite: refused: the answer uses " + "; ".join(found) + " (the "
                "shapes of known soundness holes in safe Rust; not allowed here)\n"
            )
            sys.exit(3)
        return
    signature = ""
    if args[:1] == ["--signature"]:
        with open(args[1], encoding="utf-8") as fh:
            signature = fh.read()
        args = args[2:]
    names = list(dict.fromkeys(ITEM.findall(signature)))
    tests = []
    header = signature_module(signature) if names else ""
    for path in args:
        module = path.rsplit("/", 1)[-1].removesuffix(".rs")
        header += f'#[path = "{module}.rs"]\nmod {module};\n'
        tests += rewrite(path, module)
        if names:
            narrow_imports(path, signature)
    rows = "".join(f'        ("{n}", {n}, {str(p).lower()}),\n' for n, p in tests)
    sys.stdout.write(header + MAIN.replace("@TESTS@", rows))


main()
