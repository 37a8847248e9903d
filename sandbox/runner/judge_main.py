"""The judge of a terminal task, run as a uid the agent never had, after the agent is gone.

    /usr/bin/python3 -I /opt/rlvr/judge_main.py TESTS/test.py

Loads the task's test module and calls each `test_*(ws)` function in order. `ws` reads the
workspace snapshot the runner made (regular files as data; a symlink of the agent's is only
its target text, never followed) and can run the agent's programs, which the runner executes as
yet another uid that cannot reach this process. One JSON report goes to the report pipe, which
only this process holds. Standard library only.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback
from dataclasses import dataclass

REQ_W, RES_R, REP_W = (int(x) for x in os.environ["RLVR_FDS"].split(","))
HOME = os.environ["RLVR_JUDGE_HOME"]


@dataclass
class Run:
    """What one program of the agent's did (stdout and stderr together)."""

    exit_code: int
    output: str
    timed_out: bool


class Workspace:
    """The agent's /app as it was when the episode ended, read as data."""

    def __init__(self) -> None:
        with open(os.path.join(HOME, "ws.json"), encoding="utf-8") as fh:
            snap = json.load(fh)
        self.entries = {e["path"]: e for e in snap["entries"]}
        self.truncated = bool(snap["truncated"])
        """The workspace passed the snapshot's bounds: what is absent may just not be read."""
        self.root = os.path.join(HOME, "ws")
        self._res = os.fdopen(RES_R, "rb")
        self.timed_out: list[str] = []
        """Commands of the current test that hit their time limit (named when it fails)."""

    def _entry(self, rel: str) -> dict | None:
        """A path's entry; a path the snapshot lacks fails the test when the snapshot was cut
        (it cannot be judged absent, nor anything else), so padding never hides a file."""
        e = self.entries.get(os.path.normpath(rel))
        if e is None and self.truncated:
            raise AssertionError(
                f"{rel} is not in the snapshot, which was cut: the workspace "
                "holds more than the judge reads (entries, depth or bytes)"
            )
        return e

    def exists(self, rel: str) -> bool:
        return self._entry(rel) is not None

    def is_file(self, rel: str) -> bool:
        e = self._entry(rel)
        return e is not None and e["type"] == "file"

    def is_dir(self, rel: str) -> bool:
        e = self._entry(rel)
        return e is not None and e["type"] == "dir"

    def link_target(self, rel: str) -> str | None:
        e = self._entry(rel)
        return e.get("target") if e is not None and e["type"] == "link" else None

    def mode(self, rel: str) -> int:
        e = self._entry(rel)
        if e is None:
            raise AssertionError(f"{rel} does not exist")
        return int(e["mode"])

    def files(self, under: str = "") -> list[str]:
        """Paths of the regular files (under a folder), sorted; fails when the snapshot was cut
        (the list could be missing files)."""
        if self.truncated:
            raise AssertionError(
                "the snapshot was cut: the workspace holds more than the judge "
                "reads, so its list of files is not complete"
            )
        prefix = os.path.normpath(under) + "/" if under else ""
        return sorted(p for p, e in self.entries.items()
                      if e["type"] == "file" and p.startswith(prefix))  # fmt: skip

    def read_bytes(self, rel: str) -> bytes:
        if not self.is_file(rel):
            raise AssertionError(f"{rel} is not a regular file of the workspace")
        e = self._entry(rel) or {}
        if e.get("unreadable") or e.get("not_read"):
            raise AssertionError(f"{rel} could not be read (too large, or not readable)")
        with open(os.path.join(self.root, os.path.normpath(rel)), "rb") as fh:
            return fh.read()

    def read_text(self, rel: str) -> str:
        return self.read_bytes(rel).decode("utf-8", "replace")

    def run(self, argv: list[str] | str, stdin: str = "", timeout_s: float = 10.0) -> Run:
        """Run a command in /app as the agent's programs run at judging time (another uid)."""
        if isinstance(argv, str):
            argv = ["/bin/bash", "-c", argv]
        req = {"argv": argv, "stdin": stdin, "timeout_s": timeout_s}
        os.write(REQ_W, json.dumps(req).encode() + b"\n")
        line = self._res.readline()
        if not line:
            raise RuntimeError("the runner did not answer")
        r = json.loads(line)
        if r["timed_out"]:
            self.timed_out.append(f"{' '.join(argv)[:80]!r} hit its {timeout_s:g} s time limit")
        return Run(int(r["exit_code"]), str(r["output"]), bool(r["timed_out"]))


def failure_message(e: AssertionError, ws: Workspace) -> str:
    """The assertion's message; for a bare `assert`, its source line, and any command of the
    test that ran out of time (else the verdict would name the test and nothing more)."""
    said = str(e)
    if not said:
        frames = traceback.extract_tb(e.__traceback__)
        said = f"failed: {frames[-1].line}" if frames and frames[-1].line else "failed"
    if ws.timed_out:
        said += " (" + "; ".join(ws.timed_out) + ")"
    return said[:500]


def main() -> int:
    path = sys.argv[1]
    spec = importlib.util.spec_from_file_location("task_tests", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ws = Workspace()
    results = []
    for name in sorted(n for n in vars(module) if n.startswith("test_")):
        fn = getattr(module, name)
        if not callable(fn):
            continue
        ws.timed_out = []
        try:
            fn(ws)
            results.append({"name": name, "outcome": "passed"})
        except AssertionError as e:
            results.append({"name": name, "outcome": "failed", "message": failure_message(e, ws)})
        except Exception as e:
            tail = "".join(traceback.format_exception_only(type(e), e)).strip()
            results.append({"name": name, "outcome": "error", "message": tail[:500]})
    os.write(REP_W, json.dumps({"tests": results}).encode())
    os.close(REP_W)
    return 0


if __name__ == "__main__":
    sys.exit(main())
