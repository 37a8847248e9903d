"""The python stack's judge: pytest with rlvr's report plugin, the answer in another process.

    python3 -I /opt/rlvr/pytest_main.py --answer-module NAME TEST_FILE...

Runs as the judge's uid with the tests in its private workspace. The answer is never imported
here: `import NAME` gives a proxy module (rpc.py) whose functions and classes run in the
answer's own process and uid (answer_server.py) and return plain data, so nothing the answer
defines (`__eq__`, `__bool__`, metaclasses, import hooks, a patched `json` or `builtins`) runs
in this process, and the answer sees neither the tests nor this process's frames.

`-I` ignores PYTHON* variables, the user site and the current directory. Plugin autoload, the
cache provider, conftest files and ini files are all off; rootdir and confcutdir are pinned to
the tests' folder. The report goes to the pipe fd named by RLVR_REPORT_FD, one line per test,
each prefixed with the per-job nonce read from RLVR_NONCE_FD (defence in depth: no answer
process holds that pipe). A final `done` line marks a session that ended on its own; its
absence, or fewer test lines than expected, fails the answer.
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


def _install_answer(module: str) -> None:
    """`import <module>` gives the proxy; an answer that fails to import fails every test."""
    import types

    import rpc

    try:
        rpc.install(rpc.channel_from_env(), module)
    except BaseException as e:  # reported through the tests' collection errors
        why = f"the answer could not be imported: {type(e).__name__}: {e}"[:2000]
        broken = types.ModuleType(module)

        def __getattr__(name: str):
            raise ImportError(why)

        broken.__getattr__ = __getattr__  # type: ignore[attr-defined]
        sys.modules[module] = broken


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] != "--answer-module":
        print("usage: pytest_main.py --answer-module NAME TEST_FILE...", file=sys.stderr)
        return 2
    module, tests = argv[1], [os.path.abspath(t) for t in argv[2:]]
    nonce, report_fd = _read_nonce()
    _install_answer(module)
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
