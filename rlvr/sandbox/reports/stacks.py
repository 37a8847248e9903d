"""Report adapters of the compiled and scripted stacks: node's TAP, go's test2json, libtest.

Each turns what one stack's test tool wrote into one outcome per top-level test; the code
grader then requires exactly the expected names (task `meta.test_names`), each once, all
"passed". What each adapter trusts, and why:

- "tap" (`node --test --test-reporter=tap`, report = the parent's stdout): the TAP stream is
  written by node's parent runner process. The test files run in a child process whose output
  the parent re-emits as `# ...` comments, so `ok 1 - name` lines printed by the answer never
  become results. Lines an answer injects into the parent's stdout (through /proc) can only add
  to the stream: the parent's own result lines stay, either the real tests' (a forged copy is
  then a duplicate) or, when the answer exits early, one line per test file named by its path (an
  unknown name). Only top-level (unindented) results count, and the `1..N` plan must match. An
  answer that knew every name and also garbled each of the parent's lines (racing it with writes
  through /proc) could still pass; envs/javascript keeps the names out of its reach.
- "go-test-json" (`go tool test2json` over the test binary, see envs/go/run-tests.sh): Go 1.19's
  test2json also parses lines the answer prints, so a printed `--- PASS: TestX` can become an
  event. It is defeated by the name check (a real run of TestX then reports it twice; the answer
  cannot read the hidden tests' names, their sources are deleted before the binary runs) and by
  the final package event and exit-status checks below.
- "cargo-test" (libtest `--logfile FILE`, see envs/rust/run-tests.sh): the harness writes
  `ok name` / `failed name` / `ignored name` itself; printed `test x ... ok` lines never reach
  the file. Only when the report is stdout (no logfile) are `test x ... ok` lines read, and
  those an answer can print.

Every adapter adds an "error" outcome named `(exit status N)` when all parsed tests passed but
the test command did not exit 0 (a killed parent, a report forged after killing its writer): the
name is never expected, so the grader rejects. Residual risk, documented rather than hidden: an
answer that deliberately reads its own test binary (or node's internal child protocol) to forge
a complete, well-formed report can still pass; the hack audits look for such answers.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from rlvr.sandbox.reports.base import Outcome, ReportInput, TestOutcome, register_report_adapter

MESSAGE_CHARS = 500


def _exit_check(out: list[TestOutcome], inp: ReportInput, detail: str = "") -> list[TestOutcome]:
    """Add an `(exit status N)` error when the exit status contradicts the report.

    All tests passed but the command failed: the run was cut short or the report is not to be
    trusted. No test at all and a failed command: the build or the runner broke, and the message
    carries what it said (`detail`, else the tail of stderr and stdout).
    """
    code = inp.exit_code
    if code in (0, None) or (out and not all(t.outcome == "passed" for t in out)):
        return out
    if out:
        message = (
            f"every reported test passed but the test command exited with status {code}: "
            "the run was cut short or its report is not trustworthy"
        )
    else:
        message = (detail or (inp.stderr.strip() + "\n" + inp.stdout.strip())).strip()
        message = message[-MESSAGE_CHARS:] or f"no test ran and the command exited with {code}"
    out.append(TestOutcome(name=f"(exit status {code})", outcome="error", message=message))
    return out


# --- node --test (TAP 13 as written by Node 18's tap reporter) -----------------------------

_TAP_LINE = re.compile(r"^(not ok|ok)\s+(\d+)(?:\s+-\s?(.*))?$")
_TAP_PLAN = re.compile(r"^1\.\.(\d+)\b")


def _tap_split(text: str) -> tuple[str, str | None]:
    """Split `name # DIRECTIVE reason` at the first unescaped `#` and unescape the name.

    Node escapes `\\` as `\\\\` and `#` as `\\#` in names, so `\\#` is part of a name and a bare
    ` # ` starts a directive.
    """
    name: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in "\\#":
            name.append(text[i + 1])
            i += 2
            continue
        if c == "#" and (i == 0 or text[i - 1].isspace()):
            return "".join(name).strip(), text[i + 1 :].strip()
        name.append(c)
        i += 1
    return "".join(name).strip(), None


def _tap_message(lines: list[str], start: int) -> str:
    """The `error:` text of the YAML block that follows a result line, if any."""
    block: list[str] = []
    for line in lines[start:]:
        if line.strip() == "..." or (line.strip() and not line.startswith("  ")):
            break
        block.append(line.strip())
    for k, line in enumerate(block):
        if line.startswith("error:"):
            rest = line[len("error:") :].strip().strip("'\"")
            body = []
            for b in block[k + 1 :]:
                if re.match(r"^\w+:", b):
                    break
                body.append(b)
            text = rest if rest not in ("|-", "|", ">-") else ""
            return (text + "\n" + "\n".join(body)).strip()[:MESSAGE_CHARS]
    return ""


def parse_node_tap(inp: ReportInput) -> list[TestOutcome]:
    """Top-level TAP results; `# SKIP` / `# TODO` are skipped; the `1..N` plan must match."""
    lines = (inp.report or "").splitlines()
    out: list[TestOutcome] = []
    plan: int | None = None
    for idx, line in enumerate(lines):
        m = _TAP_LINE.match(line)
        if m is None:
            p = _TAP_PLAN.match(line)
            if p is not None:
                plan = int(p.group(1))
            continue
        status, _number, rest = m.groups()
        name, directive = _tap_split(rest or "")
        outcome: Outcome = "passed" if status == "ok" else "failed"
        if directive is not None and directive.upper().startswith(("SKIP", "TODO")):
            outcome = "skipped"
        message = "" if outcome == "passed" else _tap_message(lines, idx + 1)
        out.append(TestOutcome(name=name, outcome=outcome, message=message))
    if out and plan != len(out):
        out.append(
            TestOutcome(
                name="(tap plan)",
                outcome="error",
                message=f"the report lists {len(out)} top-level results but its plan says "
                f"{'nothing' if plan is None else plan}: it was cut short or tampered with",
            )
        )
    return _exit_check(out, inp)


_NODE_TOP = re.compile(r"^(?:test|it|describe|suite)(?:\.\w+)?\s*\(", re.M)


def count_node_tests(source: str) -> int | None:
    """Top-level `test(` / `it(` / `describe(` / `suite(` calls (each is one TAP result)."""
    n = len(_NODE_TOP.findall(source))
    return n or None


# --- go test (test2json events) ------------------------------------------------------------

_GO_ACTIONS: dict[str, Outcome] = {"pass": "passed", "fail": "failed", "skip": "skipped"}


def _go_events(text: str) -> list[dict]:
    events = []
    for line in text.splitlines():
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if isinstance(ev, dict) and isinstance(ev.get("Action"), str):
            events.append(ev)
    return events


def parse_go_test_json(inp: ReportInput) -> list[TestOutcome]:
    """One outcome per final action of a top-level test; subtests fold into their parent.

    A Go parent test fails whenever one of its subtests fails, so only top-level names are
    reported (what `count_tests` counts); subtests' output goes into the parent's message. A
    test reported twice (a printed `--- PASS` line and the real run) stays twice, so the grader
    sees the duplicate.
    """
    out: list[TestOutcome] = []
    output: dict[str, list[str]] = {}
    package_output: list[str] = []
    package_done = False
    for ev in _go_events(inp.report or ""):
        test, action = ev.get("Test"), ev["Action"]
        if not test:
            package_done = package_done or action in _GO_ACTIONS
            if action == "output":
                package_output.append(str(ev.get("Output", "")))
            continue
        top = str(test).split("/", 1)[0]
        if action == "output":
            output.setdefault(top, []).append(str(ev.get("Output", "")))
        elif action in _GO_ACTIONS and test == top:
            outcome = _GO_ACTIONS[action]
            text = "".join(output.pop(top, []))
            message = "" if outcome == "passed" else text[-MESSAGE_CHARS:]
            out.append(TestOutcome(name=top, outcome=outcome, message=message))
    if out and not package_done:
        out.append(
            TestOutcome(
                name="(go package result)",
                outcome="error",
                message="test2json wrote no final package result: the test binary was cut short",
            )
        )
    return _exit_check(out, inp, "".join(package_output).strip())


_GO_TEST_FUNC = re.compile(r"^func\s+(Test[A-Z0-9_]\w*|Test)\s*\(\s*\w+\s+\*testing\.T\s*\)", re.M)


def count_go_tests(source: str) -> int | None:
    """Top-level `func TestXxx(t *testing.T)` definitions."""
    n = len(_GO_TEST_FUNC.findall(source))
    return n or None


# --- cargo test (libtest logfile, or stdout) ------------------------------------------------

_LIBTEST_LOG = re.compile(r"^(ok|failed|ignored)\s+(\S+)\s*$")
_LIBTEST_OUT = re.compile(r"^test\s+(\S+)\s+\.\.\.\s+(ok|FAILED|ignored)\s*$")
_LIBTEST_KINDS: dict[str, Outcome] = {"ok": "passed", "failed": "failed", "ignored": "skipped"}


def _libtest_messages(stdout: str) -> dict[str, str]:
    """Failure text per test from libtest's `---- name stdout ----` sections."""
    messages: dict[str, str] = {}
    current: str | None = None
    for line in stdout.splitlines():
        m = re.match(r"^---- (\S+) stdout ----$", line)
        if m:
            current = m.group(1)
            messages[current] = ""
        elif current is not None:
            if line.startswith("failures:") or line.startswith("test result:"):
                current = None
            else:
                messages[current] += line + "\n"
    return {k: v.strip()[-MESSAGE_CHARS:] for k, v in messages.items()}


def _libtest_results(text: str, from_stdout: bool) -> list[tuple[str, Outcome]]:
    pattern = _LIBTEST_OUT if from_stdout else _LIBTEST_LOG
    found = []
    for line in text.splitlines():
        m = pattern.match(line.strip())
        if m is not None:
            name, kind = (m.group(1), m.group(2)) if from_stdout else (m.group(2), m.group(1))
            found.append((name, _LIBTEST_KINDS[kind.lower()]))
    return found


def parse_cargo_test(inp: ReportInput) -> list[TestOutcome]:
    """libtest `--logfile` lines (`ok name`), checked against the binary's stdout lines.

    With a logfile, the `test name ... ok|FAILED` lines on stdout (pretty format) must list the
    same results: stdout is a pipe that only grows, so a logfile rewritten by the answer no
    longer matches it. Without a logfile (report is stdout) the stdout lines are the report.
    """
    printed = _libtest_results(inp.stdout, from_stdout=True)
    from_stdout = inp.report is None or inp.report == inp.stdout
    results = printed if from_stdout else _libtest_results(inp.report or "", from_stdout=False)
    why = _libtest_messages(inp.stdout)
    out = [
        TestOutcome(name=name, outcome=kind, message="" if kind == "passed" else why.get(name, ""))
        for name, kind in results
    ]
    if not from_stdout and printed and Counter(printed) != Counter(results):
        out.append(
            TestOutcome(
                name="(libtest stdout)",
                outcome="error",
                message="the logfile and the `test ... ok|FAILED` lines on stdout disagree: "
                "the report was rewritten",
            )
        )
    return _exit_check(out, inp)


def count_rust_tests(source: str) -> int | None:
    """`#[test]` attributes in one test file."""
    n = len(re.findall(r"#\[\s*test\s*\]", source))
    return n or None


register_report_adapter("tap", count_node_tests)(parse_node_tap)
register_report_adapter("go-test-json", count_go_tests)(parse_go_test_json)
register_report_adapter("cargo-test", count_rust_tests)(parse_cargo_test)
