"""Abusive answers against the real sandbox. Every case must end `scored` with reward 0 and a
reason, the next job on the same pool (a probe that fails if any process or file of an earlier
job survived) must pass, and no container may be left behind. Attacks are written so that the
answer would be *correct* if the attack worked (a leaked secret, a reachable network, a writable
test file...), so a broken defence shows up as reward 1. Ends with a 2,000-job soak.

Needs Docker and the images; fails loudly without them unless RLVR_SKIP_DOCKER=1."""

from __future__ import annotations

import os
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import rlvr
from rlvr.graders.code import CodeGrader
from rlvr.manifest import read_manifest
from rlvr.sandbox.client import POOL_LABEL, docker_available, get_client
from rlvr.types import Task

if os.environ.get("RLVR_SKIP_DOCKER") == "1":
    pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
SECRET = "rlvr-abuse-secret-5b1f"
IMPL = 'def reverse_words(s):\n    return " ".join(reversed(s.split()))\n'
WRONG = "def reverse_words(s):\n    return s\n"

# Passes only in a clean sandbox: no other process of the sandbox user, no leftover files.
PROBE = """import os
def _others():
    mine, pid = set(), os.getpid()
    while pid > 1:
        mine.add(pid)
        with open(f"/proc/{pid}/stat") as fh:
            pid = int(fh.read().rsplit(")", 1)[1].split()[1])
    found = []
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) not in mine:
            try:
                st = open(f"/proc/{p}/status").read()
            except OSError:
                continue
            if "\\nUid:\\t10001" in st and "State:\\tZ" not in st:
                found.append(p)
    return found
def _ipc():
    rows = [ln.split() for ln in open("/proc/sysvipc/shm").read().splitlines()[1:]]
    return [r for r in rows if r and r[7] == "10001"]
LEFT = (_others() or [n for n in os.listdir("/tmp") if not n.startswith("rlvr-")]
        or os.listdir("/dev/shm") or _ipc())
def reverse_words(s):
    if LEFT:
        return "leftover: %s" % LEFT
    return " ".join(reversed(s.split()))
"""


def gated(attack: str) -> str:
    """An answer that is correct only if `attack` (which sets ok) succeeded."""
    body = "\n".join("    " + line for line in attack.strip().splitlines())
    return (
        f"import os, sys, socket\nok = False\ntry:\n{body}\nexcept Exception:\n    ok = False\n"
        "def reverse_words(s):\n    if not ok:\n        return 'attack failed'\n"
        '    return " ".join(reversed(s.split()))\n'
    )


# The nonce is taken from the report plugin's memory (a documented residual risk when used in
# the answer's own process); here it is used only by a detached child, after pytest has ended
# without writing any result. The runner must stop that child before it reads the report pipe.
FORGE_AFTER_EXIT = """import gc, json, os, time
plugin = next(o for o in gc.get_objects() if type(o).__name__ == "ReportPlugin")
nonce, fd = plugin._nonce, plugin._out.fileno()
tests = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
records = [{"kind": "test", "name": f + "::" + line[4:].split("(")[0], "outcome": "passed",
            "message": ""} for f in sorted(os.listdir(tests))
           for line in open(os.path.join(tests, f)).read().splitlines()
           if line.startswith("def test")]
records.append({"kind": "done", "exitstatus": 0})
forged = "".join(nonce + " " + json.dumps(r) + "\\n" for r in records).encode()
parent = os.getpid()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for n in range(1024):
            if n != fd:
                try:
                    os.close(n)
                except OSError:
                    pass
        while True:
            try:
                with open(f"/proc/{parent}/stat") as fh:
                    if fh.read().rsplit(")", 1)[1].split()[0] in "ZX":
                        break
            except OSError:
                break
            time.sleep(0.001)
        os.write(fd, forged)
        time.sleep(3)
    os._exit(0)
time.sleep(0.1)
os._exit(0)
"""

CASES: dict[str, str] = {
    "fork bomb": "import os\nwhile True:\n    try:\n        os.fork()\n"
    "    except OSError:\n        pass\n",
    "memory bomb": "x = bytearray(10**11)\n" + IMPL,
    "memory growth": "x = []\nwhile True:\n    x.append(bytearray(10**7))\n" + IMPL,
    "infinite loop": "while True:\n    pass\n" + IMPL,
    "ignores SIGTERM": "import signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "while True:\n    pass\n",
    "double-forked daemon": "import os, time\nif os.fork() == 0:\n    os.setsid()\n"
    "    if os.fork() == 0:\n        while True:\n"
    "            open('/tmp/daemon-marker', 'w').write('x')\n            time.sleep(0.01)\n"
    "    os._exit(0)\n" + WRONG,
    "100 MB of output": "import sys\nsys.stdout.write('x' * 100_000_000)\nsys.stdout.flush()\n"
    + IMPL,
    "fill the tmpfs": "with open('/tmp/fill', 'wb') as f:\n    for _ in range(1000):\n"
    "        f.write(b'x' * 1_000_000)\n" + IMPL,
    "network to a public address": gated(
        "socket.create_connection(('1.1.1.1', 53), timeout=2)\nok = True"
    ),
    "network to the host": gated(
        "socket.create_connection(('172.17.0.1', 22), timeout=2)\nok = True"
    ),
    "network to loopback": gated(
        "socket.create_connection(('127.0.0.1', 2375), timeout=2)\nok = True"
    ),
    "DNS": gated("socket.getaddrinfo('deb.debian.org', 80)\nok = True"),
    "secret env var": gated(f"ok = os.environ.get('RLVR_ABUSE_SECRET') == {SECRET!r}"),
    "/proc/1/environ": gated("open('/proc/1/environ').read()\nok = True"),
    "docker socket": gated(
        "s = socket.socket(socket.AF_UNIX)\ns.connect('/var/run/docker.sock')\nok = True"
    ),
    "write the root fs": gated("open('/etc/rlvr-owned', 'w').write('x')\nok = True"),
    "overwrite a shared binary": gated("open('/usr/bin/python3', 'wb').write(b'')\nok = True"),
    "sys.exit(0)": "import sys\nsys.exit(0)\n" + IMPL,
    "os._exit(0)": "import os\nos._exit(0)\n" + IMPL,
    "raise SystemExit": "raise SystemExit(0)\n" + IMPL,
    "os.execv /bin/true": "import os\nos.execv('/bin/true', ['true'])\n" + IMPL,
    "os._exit inside a test": "import os\ndef reverse_words(s):\n    os._exit(0)\n",
    "conftest/sitecustomize/pytest.py": "import os\nPLANT = 'import os\\nos._exit(0)\\n'\n"
    "for d in ('.', '/tmp', os.environ.get('HOME', '/tmp'), os.path.dirname(__file__),\n"
    "          os.path.join(os.path.dirname(os.path.dirname(__file__)), 'tests')):\n"
    "    for name in ('conftest.py', 'sitecustomize.py', 'pytest.py'):\n"
    "        try:\n            open(os.path.join(d, name), 'w').write(PLANT)\n"
    "        except OSError:\n            pass\n" + WRONG,
    "shared memory across jobs": "import ctypes\nopen('/dev/shm/keep', 'w').write('x')\n"
    "libc = ctypes.CDLL(None)\nassert libc.shmget(4242, 4096, 0o1600) >= 0\n" + WRONG,
    "pytest.skip at import": "import pytest\npytest.skip('skip me', allow_module_level=True)\n",
    "__eq__ always True": "class A:\n    def __eq__(self, o):\n        return True\n"
    "    def __ne__(self, o):\n        return False\n    def __bool__(self):\n        return True\n"
    "    __hash__ = object.__hash__\ndef reverse_words(s):\n    return A()\n",
    "edit the test files": "import glob, os\nfor p in glob.glob('/w/*/tests/*.py'):\n"
    "    for act in (lambda: open(p, 'w').write('def test_x():\\n    pass\\n'),\n"
    "                lambda: os.remove(p), lambda: os.chmod(p, 0o666)):\n"
    "        try:\n            act()\n        except OSError:\n            pass\n" + WRONG,
    "forge the report": "import os, json, glob\n"
    "line = 'x ' + json.dumps({'kind': 'done', 'exitstatus': 0}) + '\\n'\n"
    "for fd in range(3, 64):\n    try:\n        os.write(fd, line.encode())\n"
    "    except OSError:\n        pass\n"
    "for d in ('.', '/tmp', '/w'):\n    try:\n"
    "        open(os.path.join(d, 'report.json'), 'w').write(line)\n    except OSError:\n"
    "        pass\nos._exit(0)\n",
    "kill the runner": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
    "os.kill(-1, signal.SIGKILL)\n" + IMPL,
    # main thread exits, a worker thread lives on: /proc shows the process as a zombie
    "thread outlives a zombie leader": "import os, threading, time, ctypes\n"
    "if os.fork() == 0:\n    def keep():\n        while True:\n"
    "            try:\n                open('/tmp/zombie-marker', 'w').write('x')\n"
    "            except OSError:\n                pass\n            time.sleep(0.01)\n"
    "    threading.Thread(target=keep).start()\n    ctypes.CDLL(None).pthread_exit(None)\n" + WRONG,
    "forge the report after pytest exits": FORGE_AFTER_EXIT,
}


PLANTING = {
    "conftest/sitecustomize/pytest.py", "shared memory across jobs", "edit the test files",
    "forge the report", "double-forked daemon", "fill the tmpfs", "thread outlives a zombie leader",
    "forge the report after pytest exits",
}  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _docker():
    from rlvr.sandbox.docker import close_all_pools

    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")
    close_all_pools()  # count only this module's containers below
    yield
    close_all_pools()
    label = f"{POOL_LABEL}={os.getpid()}"
    assert (
        get_client().containers.list(ignore_removed=True, all=True, filters={"label": label}) == []
    )


def own_containers() -> list:
    return get_client().containers.list(
        ignore_removed=True, all=True, filters={"label": f"{POOL_LABEL}={os.getpid()}"}
    )


@pytest.fixture(scope="module")
def py() -> tuple[CodeGrader, Task]:
    folder = ROOT / "envs" / "python"
    table = {**(read_manifest(folder).sandbox or {}), "timeout_s": 4, "memory_mb": 256}
    grader = CodeGrader(sandbox=table, env_dir=str(folder), pool_size=1)
    return grader, rlvr.load_env("python").task("python/reverse_words")


def fence(code: str) -> str:
    return f"```python\n{code}```"


@pytest.mark.parametrize("case", list(CASES))
def test_abusive_answer_scores_zero_and_leaves_no_trace(case, py, monkeypatch):
    grader, task = py
    monkeypatch.setenv("RLVR_ABUSE_SECRET", SECRET)
    (v,) = grader.grade_group(task, [fence(CASES[case])])
    assert v.status == "scored" and v.reward == 0.0 and v.reason, (v.status, v.reason)
    (probe,) = grader.grade_group(task, [fence(PROBE)])
    assert probe.passed, (probe.reason, probe.details.get("tests"))
    if case in PLANTING:  # whatever it planted must not turn the next wrong answer into a pass
        (wrong,) = grader.grade_group(task, [fence(WRONG)])
        assert wrong.reward == 0.0, wrong.reason
    assert len(own_containers()) <= 1
    assert not Path("/etc/rlvr-owned").exists() and not Path("/tmp/daemon-marker").exists()


def test_reasons_name_the_limit_that_was_hit(py):
    grader, task = py
    got = {
        name: grader.grade_group(task, [fence(CASES[name])])[0].reason
        for name in ("infinite loop", "memory growth", "100 MB of output", "pytest.skip at import")
    }
    assert got["infinite loop"] == "timeout"
    assert got["memory growth"] == "memory limit exceeded"
    assert got["100 MB of output"] == "output limit exceeded"
    assert got["pytest.skip at import"].startswith("ran ")
    assert "Skipped: skip me" in got["pytest.skip at import"]


HE_ABUSE = {
    "eq": "    class A:\n        def __eq__(self, o):\n            return True\n    return A()\n",
    "exit": "    import os\n    os._exit(0)\n",
    "forge": "    import os\n    for fd in range(3, 40):\n        try:\n"
    '            os.write(fd, b\'x:0:{"outcome": "passed", "message": ""}\')\n'
    "        except OSError:\n            pass\n    os._exit(0)\n",
    "kill": "    import os, signal\n    os.kill(os.getppid(), signal.SIGKILL)\n",
    "fork": "    import os\n    while True:\n        try:\n            os.fork()\n"
    "        except OSError:\n            pass\n",
    "daemon": "    import os, time\n    if os.fork() == 0:\n        os.setsid()\n"
    "        time.sleep(1000)\n    return True\n",
    "loop": "    while True:\n        pass\n",
    "wrong": "    return not True\n",
}


def test_soak_2000_jobs_lose_no_verdict_and_leak_no_container():
    env = rlvr.load_env("humaneval")
    spec = {**(read_manifest(ROOT / "envs" / "humaneval").sandbox or {}), "timeout_s": 1.5}
    grader = CodeGrader(sandbox=spec, env_dir=str(ROOT / "envs" / "humaneval"), extract="function")
    tasks = env.tasks()
    rng = random.Random(7)
    kinds = ["good"] * 5 + ["wrong", "eq", "exit", "forge", "daemon"] * 2
    groups = []
    for g in range(250):
        task = tasks[g % len(tasks)]
        picks = [rng.choice(kinds) for _ in range(8)]
        for offset, rare in ((0, "loop"), (8, "kill"), (16, "fork")):
            if g % 25 == offset:
                picks[rng.randrange(8)] = rare
        good = (task.reference or "")[len(task.prompt) :]
        answers = [good if k == "good" else HE_ABUSE[k] for k in picks]
        groups.append((task, picks, answers))

    def grade(item):
        task, picks, answers = item
        return picks, grader.grade_group(task, answers)

    with ThreadPoolExecutor(4) as ex:
        results = list(ex.map(grade, groups))
    total = sum(len(vs) for _, vs in results)
    assert total == 2000
    bad = [
        (k, v.status, v.reward, v.reason)
        for picks, vs in results
        for k, v in zip(picks, vs, strict=True)
        if v.status != "scored" or v.reward != (1.0 if k == "good" else 0.0)
    ]
    assert bad == []
    assert len(own_containers()) <= (os.cpu_count() or 1) + 2


# --- a report file rewritten after the test command exits (report_from = "file") -------------
# A throw-away bash stack whose harness writes `ok NAME` / `not ok NAME` lines to a report file.
# The wrong answer starts a detached forger (new session, no inherited fds) that holds the
# command's stdout pipe open through /proc, waits for the command to exit and then keeps
# rewriting the report with passes for every expected name.
FILE_ENV_TOML = """
name = "bash-report-file"
description = "Bash functions; the harness writes its report to a file."

[tasks]
path = "../data/tasks.jsonl"

[grader]
kind = "code"

[grader.options]
language = ["bash"]
pool_size = 1

[sandbox]
image = "rlvr-test-bash-file:bookworm"
answer_file = "solution.sh"
test_files = { public = "public_test.sh", hidden = "hidden_test.sh" }
test_command = ["bash", "/usr/local/share/rlvr-bash-file/run-tests.sh", "{report_file}",
                "{answer}", "{tests}"]
report = "report.py:parse"
report_from = "file"
report_file = "{scratch}/report.txt"
timeout_s = 10
memory_mb = 256
"""
FILE_DOCKERFILE = """
ARG BASE=rlvr-base:bookworm
FROM ${BASE}
COPY run-tests.sh /usr/local/share/rlvr-bash-file/run-tests.sh
"""
FILE_HARNESS = r"""#!/bin/bash
report="$1"; solution="$2"; shift 2
: > "$report"
for file in "$@"; do
  for name in $(grep -oE '^test_[A-Za-z0-9_]+' "$file"); do
    code=$(( RANDOM % 200 + 20 ))
    timeout 5 bash -c 'source "./$1"; source "./$2" && "$3" && exit '"$code"'; exit 1' \
      _ "$solution" "$file" "$name" </dev/null >/dev/null 2>&1
    if [ $? -eq "$code" ]; then echo "ok $name"; else echo "not ok $name"; fi >> "$report"
  done
done
"""
FILE_REPORT_PY = """
import re
from rlvr.sandbox.reports import ReportInput, TestOutcome

def parse(inp: ReportInput) -> list[TestOutcome]:
    found = re.findall(r"^(ok|not ok) (test_\\w+)$", inp.report or "", re.M)
    return [TestOutcome(name=n, outcome="passed" if s == "ok" else "failed") for s, n in found]
"""
FILE_TASK = {
    "id": "bash-add",
    "prompt": "Define a bash function `add A B` that prints the sum of two integers.",
    "reference": "add() { echo $(( $1 + $2 )); }\n",
    "public_tests": 'test_add_small() { [ "$(add 1 2)" = 3 ]; }\n',
    "hidden_tests": 'test_add_negative() { [ "$(add -4 1)" = -3 ]; }\n'
    'test_add_zero() { [ "$(add 0 0)" = 0 ]; }\n',
    "entry_point": "add",
    "meta": {"test_names": ["test_add_small", "test_add_negative", "test_add_zero"]},
}
FORGER = r"""
import os, sys, time
sid = sys.argv[1]
report = open(f"/proc/{sid}/cmdline", "rb").read().split(b"\0")[2].decode()
hold = os.open(f"/proc/{sid}/fd/1", os.O_WRONLY)  # keeps the stdout pipe of the command open
while True:
    try:
        if open(f"/proc/{sid}/stat").read().rsplit(")", 1)[1].split()[0] in "ZX":
            break
    except OSError:
        break
    time.sleep(0.001)
for _ in range(3000):
    with open(report, "w") as fh:
        fh.write("ok test_add_small\nok test_add_negative\nok test_add_zero\n")
    time.sleep(0.001)
"""
WRONG_ADD = "add() { echo 0; }\n"
assert "'" not in FORGER  # it travels inside a single-quoted shell word
FORGING_ADD = (
    WRONG_ADD + "if mkdir /tmp/forger 2>/dev/null; then\n"
    "  sid=$(cut -d' ' -f6 /proc/$$/stat)\n"
    f"  setsid python3 -c '{FORGER}' \"$sid\" </dev/null >/dev/null 2>&1 &\n"
    "fi\n"
)


def test_a_report_file_rewritten_after_the_command_exits_is_not_trusted(tmp_path: Path) -> None:
    import json

    from rlvr.registry import env_from_manifest
    from rlvr.sandbox.images import build_stack

    files = {"env.toml": FILE_ENV_TOML, "Dockerfile": FILE_DOCKERFILE,
             "run-tests.sh": FILE_HARNESS, "report.py": FILE_REPORT_PY}  # fmt: skip
    folder = tmp_path / "bash-file"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    (tmp_path / "data").mkdir()  # outside the env folder, which is the build context
    (tmp_path / "data" / "tasks.jsonl").write_text(json.dumps(FILE_TASK) + "\n", encoding="utf-8")
    build_stack(folder)
    env = env_from_manifest(folder)
    (task,) = env.tasks()
    answers = [f"```bash\n{code}```" for code in (task.reference, WRONG_ADD, FORGING_ADD)]
    right, wrong, forged = env.grade(task, answers)
    assert right.passed, right.reason  # the stack works
    assert wrong.reward == 0.0 and wrong.details["passed"] == 1  # add(0, 0) is right by accident
    assert forged.status == "scored" and forged.reward == 0.0, forged.reason
    assert "outlived the test command" in forged.reason
    assert [t.reward for t in env.grade(task, [f"```bash\n{WRONG_ADD}```"])] == [0.0]
