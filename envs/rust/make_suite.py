"""Write the rust test target's main (tests/suite.rs) and make its tests plain functions.

    python3 make_suite.py tests/public.rs tests/hidden.rs > tests/suite.rs

Run by build.sh as the judge's uid. Each `#[test] fn name()` in a test file becomes
`pub fn name()` (the target has no libtest harness); `#[should_panic]` is honoured. The main
refuses to run unless its parent is the sandbox runner (root, not pid 1) and it got no
arguments, reads the job's nonce from stdin before any test runs, runs each test under
catch_unwind and prints `<nonce> ok|FAILED <module>::<name>`, then `<nonce> done <count>`.
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


def main() -> None:
    tests = []
    header = ""
    for path in sys.argv[1:]:
        module = path.rsplit("/", 1)[-1].removesuffix(".rs")
        header += f'#[path = "{module}.rs"]\nmod {module};\n'
        tests += rewrite(path, module)
    rows = "".join(f'        ("{n}", {n}, {str(p).lower()}),\n' for n, p in tests)
    sys.stdout.write(header + MAIN.replace("@TESTS@", rows))


main()
