"""The "junit-xml" adapter on the reports real tools write."""

from rlvr.sandbox.reports import ReportInput, get_report_adapter

GTEST = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="3" failures="1" disabled="1" errors="0" name="AllTests">
  <testsuite name="AddTest" tests="3" failures="1" disabled="1">
    <testcase name="Small" status="run" result="completed" time="0" classname="AddTest" />
    <testcase name="Big" status="run" result="completed" time="0" classname="AddTest">
      <failure message="t.cc:9&#x0A;Expected equality" type=""><![CDATA[t.cc:9
Expected equality of these values:
  add(2, 2)
    Which is: 5
  4]]></failure>
    </testcase>
    <testcase name="DISABLED_Skip" status="notrun" result="suppressed" classname="AddTest" />
  </testsuite>
</testsuites>
"""
PYTEST = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="1"
failures="0" skipped="1" tests="3"><testcase classname="test_hidden" name="test_zero" time="0.001"
/><testcase classname="test_hidden" name="test_skip"><skipped type="pytest.skip" message="no"/>
</testcase><testcase classname="test_public" name="test_err"><error message="fixture boom">trace
</error></testcase></testsuite></testsuites>"""
SUREFIRE = """<testsuite name="PublicTest" tests="1"><testcase name="firstFive"
classname="PublicTest" time="0.01"/></testsuite>"""


def parse(report: str | None, exit_code: int = 0) -> list[tuple[str, str]]:
    adapter = get_report_adapter("junit-xml")
    out = adapter.parse(ReportInput(report=report, exit_code=exit_code))
    return [(o.name, o.outcome) for o in out]


def test_googletest_report() -> None:
    adapter = get_report_adapter("junit-xml")
    out = adapter.parse(ReportInput(report=GTEST, exit_code=1))
    assert [(o.name, o.outcome) for o in out] == [
        ("AddTest.Small", "passed"), ("AddTest.Big", "failed"),
        ("AddTest.DISABLED_Skip", "skipped")]  # fmt: skip
    assert "Which is: 5" in out[1].message


def test_pytest_and_surefire_reports() -> None:
    assert parse(PYTEST, 1) == [
        ("test_hidden.test_zero", "passed"), ("test_hidden.test_skip", "skipped"),
        ("test_public.test_err", "error")]  # fmt: skip
    assert parse(SUREFIRE) == [("PublicTest.firstFive", "passed")]


def test_concatenated_files_read_as_one() -> None:
    two = SUREFIRE + "\n" + SUREFIRE.replace("PublicTest", "HiddenTest")
    two = '<?xml version="1.0"?>' + two
    assert parse(two) == [("PublicTest.firstFive", "passed"), ("HiddenTest.firstFive", "passed")]


def test_garbage_and_entities_read_as_no_test() -> None:
    assert parse(None) == []
    assert parse("not xml at all <") == []
    bomb = '<?xml version="1.0"?><!DOCTYPE t [<!ENTITY a "aaaa">]><testcase name="&a;"/>'
    assert parse(bomb) == []


def test_exit_status_contradicting_the_report_adds_an_error() -> None:
    assert parse(SUREFIRE, 3) == [("PublicTest.firstFive", "passed"), ("(exit status 3)", "error")]
    assert parse("broken <", 2) == [("(exit status 2)", "error")]
