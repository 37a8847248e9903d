"""The stack report adapters on reports captured from the real tools (node 18.20, go 1.19,
rustc 1.63): names, outcomes, escapes, and the checks that reject cut-short or forged runs."""

from __future__ import annotations

import json

import pytest

from rlvr.errors import RlvrError
from rlvr.sandbox.reports import ReportInput, get_report_adapter, register_report_adapter
from rlvr.sandbox.reports.stacks import (
    count_go_tests,
    count_node_tests,
    count_rust_tests,
    parse_cargo_test,
    parse_go_test_json,
    parse_node_tap,
)

NODE_TAP = """TAP version 13
# ok 1 - printed by the answer
# Subtest: adds
ok 1 - adds
  ---
  duration_ms: 0.68
  ...
# Subtest: hash \\# mid
ok 2 - hash \\# mid
  ---
  duration_ms: 0.1
  ...
# Subtest: group
    # Subtest: inner
    not ok 1 - inner
      ---
      duration_ms: 0.06
      ...
    1..1
not ok 3 - group
  ---
  duration_ms: 0.23
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: back\\\\slash
not ok 4 - back\\\\slash
  ---
  duration_ms: 2.38
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:

    -1 !== 3
  code: 'ERR_ASSERTION'
  ...
ok 5 - skipped one # SKIP
ok 6 - todo one # TODO later
1..6
# tests 7
# pass 3
"""


def tap(report: str | None, exit_code: int | None = 1) -> list[tuple[str, str]]:
    out = parse_node_tap(ReportInput(report=report, exit_code=exit_code))
    return [(t.name, t.outcome) for t in out]


def test_tap_top_level_results_with_escapes_and_directives() -> None:
    assert tap(NODE_TAP) == [
        ("adds", "passed"),
        ("hash # mid", "passed"),
        ("group", "failed"),
        ("back\\slash", "failed"),
        ("skipped one", "skipped"),
        ("todo one", "skipped"),
    ]


def test_tap_failure_message_comes_from_the_yaml_block() -> None:
    out = parse_node_tap(ReportInput(report=NODE_TAP, exit_code=1))
    assert "-1 !== 3" in out[3].message
    assert out[2].message.startswith("1 subtest failed")
    assert out[0].message == ""


def test_tap_escaped_hash_is_not_a_directive() -> None:
    report = "TAP version 13\nnot ok 1 - fails \\# SKIP not really\n1..1\n"
    assert tap(report) == [("fails # SKIP not really", "failed")]


def test_tap_missing_or_wrong_plan_adds_an_error() -> None:
    cut = "TAP version 13\nok 1 - a\nok 2 - b\n"
    assert tap(cut, exit_code=0)[-1] == ("(tap plan)", "error")
    assert tap(cut + "1..3\n", exit_code=0)[-1] == ("(tap plan)", "error")
    assert tap(cut + "1..2\n", exit_code=0) == [("a", "passed"), ("b", "passed")]


def test_tap_all_passed_but_failed_exit_adds_an_error() -> None:
    report = "TAP version 13\nok 1 - a\n1..1\n"
    assert tap(report, exit_code=0) == [("a", "passed")]
    assert tap(report, exit_code=-9) == [("a", "passed"), ("(exit status -9)", "error")]
    assert tap(report, exit_code=None) == [("a", "passed")]


def test_tap_garbage_and_empty_reports_give_no_tests() -> None:
    assert tap("", exit_code=0) == []
    assert tap(None, exit_code=0) == []
    assert tap("\x00\x01 not tap at all\nok\n", exit_code=0) == []


def test_count_node_tests_counts_top_level_calls() -> None:
    src = "const test = require('node:test');\ntest('a', () => {});\ntest.skip('b', () => {});\n"
    src += "describe('c', () => {\n  it('d', () => {});\n});\n"
    assert count_node_tests(src) == 3
    assert count_node_tests("// nothing here\n") is None


def go_events(*events: dict) -> str:
    base = {"Time": "2026-01-01T00:00:00Z", "Package": "solution"}
    return "\n".join(json.dumps({**base, **ev}) for ev in events) + "\n"


GO_RUN = go_events(
    {"Action": "run", "Test": "TestAdd"},
    {"Action": "output", "Test": "TestAdd", "Output": "=== RUN   TestAdd\n"},
    {"Action": "output", "Test": "TestAdd", "Output": "--- PASS: TestAdd (0.00s)\n"},
    {"Action": "pass", "Test": "TestAdd", "Elapsed": 0},
    {"Action": "run", "Test": "TestTable"},
    {"Action": "run", "Test": "TestTable/neg"},
    {"Action": "output", "Test": "TestTable/neg", "Output": "    x_test.go:9: got 1, want -1\n"},
    {"Action": "fail", "Test": "TestTable/neg", "Elapsed": 0},
    {"Action": "fail", "Test": "TestTable", "Elapsed": 0},
    {"Action": "skip", "Test": "TestLater", "Elapsed": 0},
    {"Action": "output", "Output": "FAIL\n"},
    {"Action": "fail", "Elapsed": 0.01},
)


def go(report: str | None, exit_code: int | None = 1) -> list[tuple[str, str]]:
    return [
        (t.name, t.outcome)
        for t in parse_go_test_json(ReportInput(report=report, exit_code=exit_code))
    ]


def test_go_top_level_tests_and_subtests_folded() -> None:
    assert go(GO_RUN) == [("TestAdd", "passed"), ("TestTable", "failed"), ("TestLater", "skipped")]
    out = parse_go_test_json(ReportInput(report=GO_RUN, exit_code=1))
    assert "got 1, want -1" in out[1].message


def test_go_forged_pass_then_real_fail_stays_duplicated() -> None:
    report = go_events(
        {"Action": "output", "Test": "TestAdd", "Output": "--- PASS: TestAdd (0.00s)\n"},
        {"Action": "pass", "Test": "TestAdd", "Elapsed": 0},
        {"Action": "run", "Test": "TestAdd"},
        {"Action": "fail", "Test": "TestAdd", "Elapsed": 0},
        {"Action": "fail", "Elapsed": 0},
    )
    assert go(report) == [("TestAdd", "passed"), ("TestAdd", "failed")]


def test_go_cut_short_run_and_failed_exit_add_errors() -> None:
    no_final = go_events({"Action": "pass", "Test": "TestAdd", "Elapsed": 0})
    assert go(no_final, exit_code=0) == [("TestAdd", "passed"), ("(go package result)", "error")]
    clean = go_events({"Action": "pass", "Test": "TestAdd"}, {"Action": "pass"})
    assert go(clean, exit_code=0) == [("TestAdd", "passed")]
    assert go(clean, exit_code=2) == [("TestAdd", "passed"), ("(exit status 2)", "error")]


def test_go_no_tests_carries_the_package_output() -> None:
    report = go_events(
        {"Action": "output", "Output": "test2json: fork/exec /tmp/x.test: permission denied\n"},
        {"Action": "fail", "Elapsed": 0},
    )
    out = parse_go_test_json(ReportInput(report=report, exit_code=1))
    assert [(t.name, t.outcome) for t in out] == [("(exit status 1)", "error")]
    assert "permission denied" in out[0].message


def test_go_garbage_lines_are_ignored() -> None:
    assert go('not json\n[1, 2]\n{"Action": 3}\n', exit_code=0) == []


def test_count_go_tests_only_counts_testing_t_functions() -> None:
    src = (
        'package solution\n\nimport "testing"\n\n'
        "func TestMain(m *testing.M) {}\n"
        "func TestA(t *testing.T) {}\n"
        "func TestB(tt *testing.T) {}\n"
        "func helper(t *testing.T) {}\n"
        "func Testlower(t *testing.T) {}\n"
    )
    assert count_go_tests(src) == 2


LIBTEST_STDOUT = """
running 3 tests
test hidden::adds_wrong ... FAILED
test hidden::adds_negative ... ok
test public::adds ... ok

failures:

---- hidden::adds_wrong stdout ----
thread 'hidden::adds_wrong' panicked at 'assertion failed: `(left == right)`
  left: `-3`,
 right: `-4`', tests/hidden.rs:9:5

failures:
    hidden::adds_wrong

test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out
"""
LIBTEST_LOG = "ok hidden::adds_negative\nfailed hidden::adds_wrong\nok public::adds\n"


def cargo(report: str | None, stdout: str = "", exit_code: int | None = 101) -> list:
    inp = ReportInput(report=report, stdout=stdout, exit_code=exit_code)
    return [(t.name, t.outcome) for t in parse_cargo_test(inp)]


def test_cargo_logfile_is_the_report_and_stdout_gives_messages() -> None:
    assert cargo(LIBTEST_LOG, LIBTEST_STDOUT) == [
        ("hidden::adds_negative", "passed"),
        ("hidden::adds_wrong", "failed"),
        ("public::adds", "passed"),
    ]
    out = parse_cargo_test(ReportInput(report=LIBTEST_LOG, stdout=LIBTEST_STDOUT, exit_code=101))
    assert "right: `-4`" in out[1].message


def test_cargo_logfile_and_stdout_must_agree() -> None:
    printed_extra = LIBTEST_STDOUT + "test hidden::secret ... ok\n"
    assert cargo(LIBTEST_LOG, printed_extra)[-1] == ("(libtest stdout)", "error")
    rewritten = "ok hidden::adds_negative\nok hidden::adds_wrong\nok public::adds\n"
    assert cargo(rewritten, LIBTEST_STDOUT, exit_code=0)[-1] == ("(libtest stdout)", "error")
    assert cargo(rewritten, "", exit_code=0) == [
        ("hidden::adds_negative", "passed"),
        ("hidden::adds_wrong", "passed"),
        ("public::adds", "passed"),
    ]


def test_cargo_stdout_report_when_there_is_no_logfile() -> None:
    assert cargo(LIBTEST_STDOUT, LIBTEST_STDOUT) == [
        ("hidden::adds_wrong", "failed"),
        ("hidden::adds_negative", "passed"),
        ("public::adds", "passed"),
    ]
    assert cargo("ignored a::b\n", exit_code=0) == [("a::b", "skipped")]


def test_cargo_clean_log_with_failed_exit_adds_an_error() -> None:
    log = "ok public::adds\n"
    assert cargo(log, exit_code=0) == [("public::adds", "passed")]
    assert cargo(log, exit_code=-9) == [("public::adds", "passed"), ("(exit status -9)", "error")]


def test_count_rust_tests() -> None:
    assert count_rust_tests("#[test]\nfn a() {}\n#[ test ]\nfn b() {}\n") == 2
    assert count_rust_tests("fn helper() {}\n") is None


def test_stack_adapters_are_registered_under_their_builtin_names() -> None:
    assert get_report_adapter("tap").parse is parse_node_tap
    assert register_report_adapter("tap", count_node_tests)(parse_node_tap) is parse_node_tap
    assert get_report_adapter("go-test-json").parse is parse_go_test_json
    assert get_report_adapter("cargo-test").parse is parse_cargo_test
    assert get_report_adapter("cargo-test").count_tests is count_rust_tests


def test_an_adapter_name_is_registered_once() -> None:
    """A second adapter under a taken name is refused, naming both; the first one stays."""

    def parse_other_tap(inp: ReportInput) -> list:
        return []

    with pytest.raises(RlvrError, match="'tap' is registered twice: .*parse_node_tap and"):
        register_report_adapter("tap")(parse_other_tap)
    assert get_report_adapter("tap").parse is parse_node_tap
    assert register_report_adapter("tap", count_node_tests)(parse_node_tap) is parse_node_tap
