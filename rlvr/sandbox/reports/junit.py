"""The "junit-xml" report adapter: JUnit XML, as GoogleTest (`--gtest_output=xml:FILE`), Maven
Surefire / Gradle (JUnit 4 and 5), pytest (`--junitxml FILE`), Catch2 (`--reporter junit`),
minitest-reporters, ctest (`--output-junit FILE`) and many others write it.

Each `<testcase>` becomes one outcome named `classname.name` (just `name` when the tool writes
no classname): GoogleTest's `AddTest.Small`, JUnit's `PublicTest.firstFive`, pytest's
`tests.test_hidden.test_zero`. A `<failure>` child makes it failed, `<error>` error,
`<skipped>` (or GoogleTest's `status="notrun"` / `result="skipped"`) skipped; otherwise passed.
Several files concatenated into one report (`cat build/test-results/test/*.xml > "$REPORT"`, as
Gradle writes one file per test class) read as one. Document type declarations are refused
before parsing (no entity can expand), and garbage reads as no test at all, never an exception.

A JUnit file is written by the test harness, usually in the answer's own process: the answer can
rewrite it while the tests run. Use it with `meta.test_names` the answer cannot read (see
envs/README.md, "Make the report hard to forge").
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from rlvr.sandbox.reports.base import Outcome, ReportInput, TestOutcome, register_report_adapter
from rlvr.sandbox.reports.stacks import _exit_check

MESSAGE_CHARS = 500
OUTCOME_OF = {"failure": "failed", "error": "error", "skipped": "skipped"}
RANK = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
XML_DECLARATION = re.compile(r"<\?xml[^>]*\?>")


def _outcome(case: ET.Element) -> tuple[Outcome, str]:
    outcome: Outcome = "passed"
    message = ""
    if case.get("status") == "notrun" or case.get("result") in ("skipped", "suppressed"):
        outcome = "skipped"
    for child in case:
        kind = OUTCOME_OF.get(child.tag)
        if kind is None or RANK[kind] < RANK[outcome]:
            continue
        outcome = kind  # type: ignore[assignment]
        text = (child.get("message") or "") + "\n" + (child.text or "")
        message = text.strip()[:MESSAGE_CHARS]
    return outcome, message


def parse_junit_xml(inp: ReportInput) -> list[TestOutcome]:
    """One outcome per `<testcase>` of a JUnit XML report (see the module docstring)."""
    text = (inp.report or "").strip()
    if not text or "<!DOCTYPE" in text.upper() or "<!ENTITY" in text.upper():
        return _exit_check([], inp)
    try:  # one root around every document, so concatenated files parse as one
        root = ET.fromstring("<reports>" + XML_DECLARATION.sub("", text) + "</reports>")
    except ET.ParseError as e:
        return _exit_check([], inp, f"the JUnit XML report does not parse: {e}")
    out = []
    for case in root.iter("testcase"):
        name, classname = case.get("name") or "", case.get("classname") or ""
        outcome, message = _outcome(case)
        full = f"{classname}.{name}" if classname else name
        out.append(TestOutcome(name=full, outcome=outcome, message=message))
    return _exit_check(out, inp)


register_report_adapter("junit-xml")(parse_junit_xml)
