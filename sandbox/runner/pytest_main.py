"""Launch pytest inside the sandbox with rlvr's report plugin and nothing the answer can inject.

    python3 -I /opt/rlvr/pytest_main.py --answer-dir DIR TEST_FILE...

`-I` ignores PYTHON* variables, the user site and the current directory. Plugin autoload, the
cache provider, conftest files and ini files are all off; rootdir and confcutdir are pinned to
the tests' folder. Output capture is off (-s) so that everything the answer prints reaches the
runner's capped pipes (a flood is cut there, not buffered in a file). The report goes to the
pipe fd named by RLVR_REPORT_FD, one line per test, each line prefixed with the per-job nonce
read from RLVR_NONCE_FD before any answer code is imported (the fd is closed right after). A
final `done` line marks a session that ended on its own; its absence, or fewer test lines than
expected, fails the answer.
"""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"

import pytest  # noqa: E402
import rlvr_strict  # noqa: E402, F401  (imported before the answer can touch sys.modules)


class ReportPlugin:
    """Collects one outcome per test id and writes nonce-signed JSON lines."""

    def __init__(self, nonce: str, fd: int) -> None:
        self._nonce = nonce
        self._out = os.fdopen(fd, "w", buffering=1, encoding="utf-8")
        self._seen: dict[str, dict] = {}

    def _write(self, record: dict) -> None:
        self._out.write(self._nonce + " " + json.dumps(record) + "\n")
        self._out.flush()

    def pytest_collectreport(self, report) -> None:
        if report.failed or report.skipped:
            msg = str(report.longrepr)[-800:]
            self._write({"kind": "collect_error", "name": report.nodeid, "message": msg})

    def pytest_runtest_logreport(self, report) -> None:
        rec = self._seen.setdefault(report.nodeid, {"outcome": "passed", "message": ""})
        if hasattr(report, "wasxfail"):
            rec.update(outcome="failed", message=f"xfail/xpass is not a pass: {report.wasxfail}")
        elif report.skipped:
            rec.update(outcome="skipped", message=str(report.longrepr)[-500:])
        elif report.failed:
            kind = "failed" if report.when == "call" else "error"
            if rec["outcome"] == "passed":
                rec.update(outcome=kind, message=str(report.longrepr)[-800:])
        if report.when == "teardown":
            self._write({"kind": "test", "name": report.nodeid, **rec})

    def pytest_sessionfinish(self, session, exitstatus) -> None:
        self._write({"kind": "done", "exitstatus": int(exitstatus)})


def _read_nonce() -> tuple[str, int]:
    nonce_fd = int(os.environ.pop("RLVR_NONCE_FD"))
    report_fd = int(os.environ.pop("RLVR_REPORT_FD"))
    nonce = os.read(nonce_fd, 256).decode()
    os.close(nonce_fd)
    return nonce, report_fd


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] != "--answer-dir":
        print("usage: pytest_main.py --answer-dir DIR TEST_FILE...", file=sys.stderr)
        return 2
    answer_dir, tests = os.path.abspath(argv[1]), [os.path.abspath(t) for t in argv[2:]]
    nonce, report_fd = _read_nonce()
    sys.path.insert(1, answer_dir)
    tests_dir = os.path.dirname(tests[0])
    args = [
        "-q",
        "-s",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:stepwise",
        "-p",
        "no:pastebin",
        "--noconftest",
        "-c",
        os.path.join(HERE, "pytest.ini"),
        "--rootdir",
        tests_dir,
        "--confcutdir",
        tests_dir,
        "-o",
        "python_files=*.py",
        *tests,
    ]
    return int(pytest.main(args, plugins=[ReportPlugin(nonce, report_fd)]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
