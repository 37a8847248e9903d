"""Report adapters for stacks whose report is signed by a main the answer cannot reach.

- "go-test-v": `go test -v` output re-printed by rlvr's TestMain (envs/go/rlvr_main_test.go) as
  `<mac> <seq> > <line>` and closed by `<mac> <seq> exit <code>`, mac = HMAC-SHA256 keyed with
  the job's nonce. Only verified lines in unbroken sequence count, and TestMain's own m.Run()
  code must be 0.
- "nonce-lines": `<nonce> ok|FAILED|ignored <name>` and `<nonce> done <count>` from a test main
  that read the nonce before any answer code ran (envs/rust/make_suite.py). The answer cannot
  read that main's memory or its stdout, so it cannot learn the nonce.

Both ignore everything else the answer prints. See sandbox/SECURITY.md.
"""

from __future__ import annotations

import hashlib
import hmac
import re

from rlvr.sandbox.reports.base import Outcome, ReportInput, TestOutcome, register_report_adapter
from rlvr.sandbox.reports.stacks import MESSAGE_CHARS, _exit_check, count_go_tests, count_rust_tests

# --- go test -v (the test binary's own stdout, read by the runner) ---------------------------

_GO_RUN = re.compile(r"^=== RUN\s+(\S+)\s*$")
_GO_RESULT = re.compile(r"^--- (PASS|FAIL|SKIP): (\S+) \(")
_GO_WORDS: dict[str, Outcome] = {"PASS": "passed", "FAIL": "failed", "SKIP": "skipped"}


def _go_signed(inp: ReportInput) -> tuple[str, int | None]:
    """rlvr's TestMain output: `<mac> <seq> > <line>` per captured line, `<mac> <seq> exit <code>`.

    mac = HMAC-SHA256(nonce, "<seq> <text>"), first 32 hex digits. Only lines whose mac verifies
    count, in unbroken sequence from 0; the text up to the first gap and TestMain's exit code
    (None when its line is missing, or follows a gap). Without a nonce (a manifest of its own)
    the whole report is the text and the exit code is unknown.
    """
    if not inp.nonce:
        return inp.report or "", None
    key = inp.nonce.encode()
    text: list[str] = []
    seq = 0
    for line in (inp.report or "").splitlines():
        mac, _, body = line.partition(" ")
        want = hmac.new(key, body.encode(), hashlib.sha256).hexdigest()[:32]
        if len(mac) != 32 or not hmac.compare_digest(mac, want):
            continue
        number, _, rest = body.partition(" ")
        if number != str(seq):
            return "\n".join(text), None  # a signed line went missing: cut short or intercepted
        seq += 1
        if rest.startswith("> "):
            text.append(rest[2:])
        elif rest.startswith("exit "):
            code = rest[5:].strip()
            return "\n".join(text), int(code) if code.lstrip("-").isdigit() else -1
    return "\n".join(text), None


def parse_go_test_v(inp: ReportInput) -> list[TestOutcome]:
    """Top-level `--- PASS|FAIL|SKIP: Name` lines of `go test -v` output.

    Only lines signed with the job's nonce count (rlvr_main_test.go), and TestMain's own
    `exit 0` must close them. A pass counts only after that test's `=== RUN` line; the binary's
    own `PASS`/`FAIL` line and exit status must agree. Lines the answer slips into the captured
    stream can add results but never remove the real ones (a forged copy is a duplicate).
    """
    report, signed_exit = _go_signed(inp)
    out: list[TestOutcome] = []
    started: set[str] = set()
    logs: dict[str, list[str]] = {}
    current: str | None = None
    final = None
    for line in report.splitlines():
        m = _GO_RUN.match(line)
        if m and "/" not in m.group(1):
            current = m.group(1)
            started.add(current)
            logs[current] = []
            continue
        r = _GO_RESULT.match(line)
        if r:
            outcome, name = _GO_WORDS[r.group(1)], r.group(2)
            text = "".join(x + "\n" for x in logs.pop(name, []))
            if outcome == "passed" and name not in started:
                outcome, text = "error", "a PASS line for a test that never started"
            message = "" if outcome == "passed" else text[-MESSAGE_CHARS:]
            out.append(TestOutcome(name=name, outcome=outcome, message=message))
            continue
        if line.strip() in ("PASS", "FAIL"):
            final = line.strip()
        elif current is not None and current in logs:
            logs[current].append(line)
    if out and final is None:
        out.append(TestOutcome(name="(go test result)", outcome="error",
                               message="the test binary printed no final PASS/FAIL line: "
                               "it was cut short"))  # fmt: skip
    if inp.nonce and signed_exit != 0 and all(o.outcome == "passed" for o in out):
        why = f"rlvr's TestMain did not report m.Run() == 0 (got {signed_exit}): the run was cut"
        out.append(TestOutcome(name="(go TestMain)", outcome="error",
                               message=why + " short or tampered with"))  # fmt: skip
    return _exit_check(out, inp, (inp.stderr.strip() + "\n" + inp.stdout.strip()).strip())


# --- nonce-signed lines (a stack main that reads the job's nonce before any answer code) -----


def parse_nonce_lines(inp: ReportInput) -> list[TestOutcome]:
    """`<nonce> ok|FAILED|ignored <name>` lines and a final `<nonce> done <count>`.

    Lines without the nonce are ignored (the answer printed them); without the `done` line, or
    with a count that disagrees, the run was cut short and the answer cannot pass.
    """
    out: list[TestOutcome] = []
    done: int | None = None
    prefix = inp.nonce + " "
    kinds: dict[str, Outcome] = {"ok": "passed", "FAILED": "failed", "ignored": "skipped"}
    why = inp.stderr.strip()[-MESSAGE_CHARS:]
    for line in (inp.report or "").splitlines():
        if not inp.nonce or not line.startswith(prefix):
            continue
        kind, _, rest = line[len(prefix) :].partition(" ")
        if kind in kinds:
            outcome = kinds[kind]
            out.append(TestOutcome(name=rest.strip(), outcome=outcome,
                                   message="" if outcome == "passed" else why))  # fmt: skip
        elif kind == "done" and done is None:
            done = int(rest) if rest.strip().isdigit() else -1
    if done is None or done != len(out):
        message = f"it reported {len(out)} tests but said {done}"
        if done is None:
            message = "the test binary ended before its last line (an exit or a crash)"
        out.append(TestOutcome(name="<session>", outcome="error", message=message))
    return _exit_check(out, inp, why)


register_report_adapter("go-test-v", count_go_tests)(parse_go_test_v)
register_report_adapter("nonce-lines", count_rust_tests)(parse_nonce_lines)
