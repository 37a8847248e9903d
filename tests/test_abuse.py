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

# Passes only in a clean sandbox: no process of another job's uid (every job gets fresh uids:
# the judge's, then the answer's), no leftover files, no SysV IPC object of any sandbox uid.
PROBE = """import os
ME = os.getuid()
def _uid(p):
    try:
        st = open(f"/proc/{p}/status").read()
    except OSError:
        return None
    if "State:\\tZ" in st:
        return None
    return int(st.split("Uid:")[1].split()[0])
def _others():
    return [p for p in os.listdir("/proc") if p.isdigit() and _uid(p) not in (None, 0, ME, ME - 1)]
def _ipc():
    rows = [ln.split() for ln in open("/proc/sysvipc/shm").read().splitlines()[1:]]
    return [r for r in rows if r and r[7] != "0"]
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
    folder = ROOT / "envs" / "python-tests"
    table = {**(read_manifest(folder).sandbox or {}), "timeout_s": 15, "memory_mb": 256}
    grader = CodeGrader(sandbox=table, env_dir=str(folder), pool_size=1)
    return grader, rlvr.load_env("python-tests").task("python/reverse_words")


def fence(code: str) -> str:
    return f"```python\n{code}```"


@pytest.mark.parametrize("case", list(CASES))
def test_abusive_answer_scores_zero_and_leaves_no_trace(case, py, monkeypatch):
    grader, task = py
    monkeypatch.setenv("RLVR_ABUSE_SECRET", SECRET)
    (v,) = grader.grade_group(task, [fence(CASES[case])])
    assert v.status == "scored" and v.reward == 0.0 and v.reason, (v.status, v.reason)
    (probe,) = grader.grade_group(task, [fence(PROBE)])
    assert probe.passed, (probe.reason, probe.tests)
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
    assert got["pytest.skip at import"].startswith("ran ")  # the answer never imported
    assert "the answer could not be imported" in got["pytest.skip at import"]


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
    # 3 s: each call of a check is a round trip to the answer's process, slow on a loaded machine
    spec = {**(read_manifest(ROOT / "envs" / "humaneval").sandbox or {}), "timeout_s": 3.0}
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
try:  # keep the stdout pipe of the command open (refused now: the runner, root, owns the pipe)
    hold = os.open(f"/proc/{sid}/fd/1", os.O_WRONLY)
except OSError:
    pass
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


# --- the trust boundary: the judge, the report and the runner are out of the answer's reach ----
# Each stack gets one group: attacks written so that they would be *correct* if the attack
# worked (the answer finds expected values, test names or the nonce, or disables the checks),
# beside correct and wrong answers. Every attack must score 0 and every correct answer 1.
# Python stack: the answer runs in its own process and uid behind a proxy (answer_server.py);
# nothing it replaces, patches or reads in its own interpreter touches the judge (pytest).
PY_BOUNDARY = {
    "replaces json, builtins.exec and print": "import json, builtins\n"
    'json.dumps = lambda *a, **k: \'{"kind": "done", "exitstatus": 0}\'\n'
    "json.loads = lambda *a, **k: {'outcome': 'passed', 'kind': 'done'}\n"
    "builtins.exec = lambda *a, **k: None\nbuiltins.print = lambda *a, **k: None\n" + WRONG,
    "replaces the strict-compare module in sys.modules": "import sys, types\n"
    "fake = types.ModuleType('rlvr_strict')\n"
    "for n in ('eq', 'ne', 'truth', 'falsy', 'contains', 'not_contains', 'order', 'chain'):\n"
    "    setattr(fake, n, lambda *a, **k: True)\nsys.modules['rlvr_strict'] = fake\n"
    "for m in list(sys.modules.values()):\n    try:\n        m._rlvr = fake\n"
    "    except Exception:\n        pass\n" + WRONG,
    "installs an import hook": "import sys, types, importlib.abc, importlib.util\n"
    "class F(importlib.abc.MetaPathFinder, importlib.abc.Loader):\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name in ('rlvr_strict', 'pytest', 'json', 'solution', 'test_hidden'):\n"
    "            return importlib.util.spec_from_loader(name, self)\n"
    "    def create_module(self, spec):\n        return None\n"
    "    def exec_module(self, module):\n"
    "        module.__getattr__ = lambda n: (lambda *a, **k: True)\n"
    "sys.meta_path.insert(0, F())\n"
    "for n in ('rlvr_strict', 'json'):\n    sys.modules.pop(n, None)\n" + WRONG,
    "impersonates pytest.approx by class name": "class ApproxScalar:\n"
    "    def __eq__(self, other):\n        return True\n    __hash__ = object.__hash__\n"
    "ApproxScalar.__module__ = '_pytest.python_api'\n"
    "def reverse_words(s):\n    return ApproxScalar()\n",
    "metaclass makes type(x) in (...) true": "class Meta(type):\n"
    "    def __eq__(cls, other):\n        return True\n    def __hash__(cls):\n        return 0\n"
    "class Str(metaclass=Meta):\n    def __eq__(self, other):\n        return True\n"
    "    def __bool__(self):\n        return True\n    __hash__ = object.__hash__\n"
    "def reverse_words(s):\n    return Str()\n",
    "reads the expected value from the caller's frames": "import sys\n"
    "def reverse_words(s):\n    f = sys._getframe(1)\n    while f is not None:\n"
    "        for v in list(f.f_locals.values()) + list(f.f_code.co_consts):\n"
    "            if type(v) is str and v != s and sorted(v.split()) == sorted(s.split()):\n"
    "                return v\n        f = f.f_back\n    return 'nothing to copy'\n",
    "neuters the test functions through gc": "import gc\n"
    "for o in gc.get_objects():\n"
    "    if type(o).__name__ == 'function' and o.__name__.startswith('test_'):\n"
    "        o.__code__ = (lambda: None).__code__\n" + WRONG,
    "reads the hidden tests from disk": "import os\nFOUND = {}\n"
    "for root in ('/tmp', '/w'):\n    for d, _, fs in os.walk(root):\n        for n in fs:\n"
    "            try:\n                FOUND[n] = open(os.path.join(d, n)).read()\n"
    "            except OSError:\n                pass\n"
    "def reverse_words(s):\n    if 'test_hidden.py' not in FOUND:\n        return 'hidden'\n"
    '    return " ".join(reversed(s.split()))\n',
    "forges the runner's result line everywhere": "import os, json\n"
    "line = ('\\n@@RLVR-RESULT@@' + json.dumps({'exit_code': 0, 'report': '', 'clean': True,"
    " 'stdout': '', 'stderr': '', 'mode': 'server'}) + '\\n').encode()\n"
    "print(line.decode())\nfor fd in range(0, 64):\n    try:\n        os.write(fd, line)\n"
    "    except OSError:\n        pass\nfor p in os.listdir('/proc'):\n"
    "    for n in range(8):\n        try:\n"
    "            fd = os.open(f'/proc/{p}/fd/{n}', os.O_WRONLY | os.O_NONBLOCK)\n"
    "            os.write(fd, line)\n        except OSError:\n            pass\n" + WRONG,
    "stops and kills every process it can (and is correct)": "import os, signal\n"
    "for p in os.listdir('/proc'):\n    if p.isdigit() and int(p) != os.getpid():\n"
    "        for sig in (signal.SIGSTOP, signal.SIGKILL):\n            try:\n"
    "                os.kill(int(p), sig)\n            except OSError:\n                pass\n"
    + IMPL,
    "a 1,500-deep tree and a path longer than PATH_MAX": "import os\n"
    "here = os.getcwd()\nfor base in (os.environ['HOME'], '/tmp'):\n    os.chdir(base)\n"
    "    for i in range(1500):\n        os.mkdir('d')\n        os.chdir('d')\n"
    "    os.chdir(base)\n    for i in range(40):\n        os.mkdir('n' * 200)\n"
    "        os.chdir('n' * 200)\n    os.chmod('.', 0)\nos.chdir(here)\n" + IMPL,
    "leaves 20,000 files in /tmp (and is correct)": "import os\nos.makedirs('/tmp/many')\n"
    "for i in range(20_000):\n    try:\n        open(f'/tmp/many/{i}', 'w').close()\n"
    "    except OSError:\n        break\n" + IMPL,
    "a gigabyte on stderr": "import sys\nchunk = 'e' * (1 << 20)\nfor _ in range(1024):\n"
    "    sys.stderr.write(chunk)\n" + IMPL,
}
PY_EXPECT_PASS = {
    "a 1,500-deep tree and a path longer than PATH_MAX",
    "leaves 20,000 files in /tmp (and is correct)",
    "stops and kills every process it can (and is correct)",
}


def test_python_attacks_on_the_judge_score_zero_beside_correct_answers(py):
    import resource

    grader, task = py
    names = list(PY_BOUNDARY)
    answers = [IMPL, *PY_BOUNDARY.values(), WRONG, IMPL]
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    verdicts = grader.grade_group(task, [fence(a) for a in answers])
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
    got = dict(zip(["correct", *names, "wrong", "correct again"], verdicts, strict=True))
    for name, v in got.items():
        assert v.status == "scored", (name, v.status, v.reason)
        want = 1.0 if name.startswith("correct") or name in PY_EXPECT_PASS else 0.0
        assert v.reward == want, (name, v.reason, v.tests)
    assert got["a gigabyte on stderr"].reason == "output limit exceeded"
    assert grown_mb < 300, f"the host process grew by {grown_mb:.0f} MB"
    (probe,) = grader.grade_group(task, [fence(PROBE)])
    assert probe.passed, (probe.reason, probe.tests)
    python = [c for c in own_containers() if c.labels.get("rlvr.image") == grader.spec.image]
    assert len(python) <= 1


def test_a_proxied_class_answer_keeps_working(py):
    """Objects the tests build from the answer's classes live in the answer's process."""
    import rlvr as _rlvr

    grader, _ = py
    env = _rlvr.load_env("python-tests")
    for task_id in ("python/stack_class", "python/bank_account", "python/rotate_list"):
        task = env.task(task_id)
        right, wrong = grader.grade_group(task, [fence(task.reference or ""), fence("x = 1\n")])
        assert right.passed, (task_id, right.reason, right.tests)
        assert wrong.reward == 0.0


# HumanEval as it exists (python-check): each answer of a group runs as its own uid behind a
# proxy; `check` runs in a separate judge process. An answer that reaches for the test, its
# siblings or the runner changes nobody's verdict.
HE_BOUNDARY = {
    "frames": "    import sys\n    f, seen = sys._getframe(1), False\n"
    "    while f is not None:\n"
    "        seen = seen or 'check' in f.f_globals or 'check' in f.f_locals\n"
    "        f = f.f_back\n    if not seen:\n        return not True\n",
    "patch": "    import builtins, json, sys\n    builtins.exec = lambda *a, **k: None\n"
    '    json.dumps = lambda *a, **k: \'{"outcome": "passed", "message": ""}\'\n'
    "    sys.modules['rlvr_strict'] = None\n    return not True\n",
    "sibling": "    import os, signal, time\n    if os.fork() == 0:\n        os.setsid()\n"
    "        me = os.getuid()\n        for _ in range(5000):\n"
    "            for p in os.listdir('/proc'):\n                if not p.isdigit():\n"
    "                    continue\n                try:\n"
    "                    os.kill(int(p), signal.SIGSTOP)\n                except OSError:\n"
    "                    pass\n                for n in range(3, 12):\n                    try:\n"
    "                        fd = os.open(f'/proc/{p}/fd/{n}', os.O_WRONLY | os.O_NONBLOCK)\n"
    '                        os.write(fd, b\'{"outcome": "failed"}\')\n'
    "                    except OSError:\n                        pass\n"
    "            time.sleep(0.001)\n        os._exit(0)\n    return not True\n",
    "stop": "    import os, signal\n    os.kill(-1, signal.SIGSTOP)\n    return True\n",
}


def test_humaneval_attacks_change_no_verdict_but_their_own():
    env = rlvr.load_env("humaneval")
    task = env.task("HumanEval/0")
    good = (task.reference or "")[len(task.prompt) :]
    picks = ["frames", "good", "patch", "sibling", "good", "wrong", "stop", "good"]
    answers = []
    for k in picks:
        if k == "good":
            answers.append(good)
        elif k == "wrong":
            answers.append(HE_ABUSE["wrong"])
        else:  # the attack, then the correct body: a pass if the attack worked
            answers.append(HE_BOUNDARY[k] + good)
    verdicts = env.grade(task, answers)
    got = [(k, v.status, v.reward) for k, v in zip(picks, verdicts, strict=True)]
    assert got == [(k, "scored", 1.0 if k == "good" else 0.0) for k in picks], [
        (k, v.reason) for k, v in zip(picks, verdicts, strict=True)
    ]


def test_the_runner_gives_each_answer_a_fresh_uid_and_no_capability():
    """Probe the identity an answer gets from the runner (plain command job)."""
    import json

    from rlvr.sandbox.docker import get_pool, new_job_id
    from rlvr.sandbox.spec import SandboxSpec

    probe = (
        "import json, os\nst = dict(l.split(':', 1) for l in open('/proc/self/status')"
        ".read().splitlines())\nprint(json.dumps({'ids': [os.getuid(), os.getgid(), "
        "os.getgroups()], 'cap': [st[k].strip() for k in ('CapEff', 'CapPrm', 'CapInh', "
        "'CapAmb')], 'nnp': st['NoNewPrivs'].strip(), 'ppid_uid': open(f'/proc/{os.getppid()}"
        "/status').read().split('Uid:')[1].split()[0], 'seccomp': st['Seccomp'].strip(), "
        "'denied': denied()}))\n"
    )
    # the answer's seccomp filter (sandbox/runner/confine.py): each call fails with EPERM
    probe = (
        "import ctypes, errno, os, platform\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "NR = {'x86_64': (101, 310, 311, 438, 272), 'aarch64': (117, 270, 271, 438, 97)}"
        "[platform.machine()]\n"
        "def denied():\n    out = []\n"
        "    for call in (lambda: libc.prctl(4, 1, 0, 0, 0), lambda: libc.prctl(0x59616d61, -1, "
        "0, 0, 0), lambda: libc.syscall(NR[0], 0, 0, 0, 0), lambda: libc.syscall(NR[1], "
        "os.getpid(), 0, 0, 0, 0, 0), lambda: libc.syscall(NR[2], os.getpid(), 0, 0, 0, 0, 0), "
        "lambda: libc.syscall(NR[3], 0, 0, 0), lambda: libc.syscall(NR[4], 0x10000000)):\n"
        "        out.append(call() == -1 and ctypes.get_errno() == errno.EPERM)\n"
        "    return out\n" + probe
    )
    spec = SandboxSpec(image="rlvr-base:bookworm", test_command=["true"], memory_mb=128)
    pool = get_pool(spec, size=1)
    seen = []
    for _ in range(2):
        payload = {
            "job": new_job_id(), "nonce": "n", "argv": ["python3", "-I", "-c", probe],
            "env": {}, "workdir": ".", "answer": "a", "public": "p", "hidden": "h",
            "report_from": "stdout", "timeout_s": 20, "output_limit": 4096,
            "report_limit": 4096, "files": {"a": ""},
        }  # fmt: skip
        r = pool.run(payload, "run").result
        assert r is not None and r["exit_code"] == 0, r
        seen.append(json.loads(r["stdout"]))
    for got in seen:
        uid, gid, groups = got["ids"]
        assert uid == gid and uid not in (0, 10001) and groups == []
        assert set(got["cap"]) == {"0000000000000000"} and got["nnp"] == "1"
        assert got["ppid_uid"] == "0"  # the runner: root, which the answer cannot signal
        assert got["seccomp"] == "2" and got["denied"] == [True] * 7, got
    assert seen[0]["ids"][0] != seen[1]["ids"][0]  # a fresh uid per job


# JavaScript: node:test runs in the judge's process (judge.js); the answer is a separate node
# process (answer_server.js). Its heap, async hooks and disk hold none of the tests.
JS_CORRECT = """function twoSum(nums, target) {
  const seen = new Map();
  for (let j = 0; j < nums.length; j++) {
    if (seen.has(target - nums[j])) return [seen.get(target - nums[j]), j];
    if (!seen.has(nums[j])) seen.set(nums[j], j);
  }
  return null;
}
"""
JS_GATED = JS_CORRECT.replace("{\n  const seen", "{\n  if (!FOUND) return [0, 0];\n  const seen")
JS_BOUNDARY = {
    "heap snapshot": "const v8 = require('v8');\nlet FOUND = false;\n"
    "try { const heap = require('fs').readFileSync(v8.writeHeapSnapshot(require('os').tmpdir() "
    "+ '/h.heapsnapshot'), 'utf8');\n"
    "  FOUND = heap.includes('i neht j tsailrae mustwot'.split('').reverse().join('')); "
    "} catch (e) {}\n" + JS_GATED + "module.exports = { twoSum };\n",
    "async_hooks": "const ah = require('async_hooks');\nconst seen = [];\n"
    "ah.createHook({ init(id, type, trigger, resource) { seen.push(resource); } }).enable();\n"
    "let FOUND = false;\nsetImmediate(() => {});\n"
    "for (const r of seen) { if (r && typeof r === 'object') { for (const k of Object.keys(r)) "
    "{ const v = r[k]; if (v && v.name && String(v.name).includes('twosum')) { FOUND = true; "
    "v.fn = () => {}; } } } }\n" + JS_GATED + "module.exports = { twoSum };\n",
    "reads the hidden tests from disk": "const fs = require('fs');\nconst path = require('path');"
    "\nlet FOUND = false;\nfunction scan(d) { let es; try { es = fs.readdirSync(d, "
    "{ withFileTypes: true }); } catch (e) { return; } for (const e of es) { const p = "
    "path.join(d, e.name); if (e.isDirectory()) scan(p); else if (e.name === 'hidden.test.js')"
    " { try { fs.readFileSync(p); FOUND = true; } catch (err) {} } } }\nscan('/tmp'); scan('/w');"
    "\n" + JS_GATED + "module.exports = { twoSum };\n",
    "forged TAP on every fd it can reach": "const fs = require('fs');\n"
    "const tap = 'TAP version 13\\nok 1 - twosum basic\\nok 2 - twosum no pair\\nok 3 - twosum "
    "duplicates\\nok 4 - twosum earliest j then i\\nok 5 - twosum negatives and empty\\n1..5\\n';"
    "\nfor (let fd = 0; fd < 40; fd++) { try { fs.writeSync(fd, tap); } catch (e) {} }\n"
    "for (const p of fs.readdirSync('/proc')) { for (const n of [1, 2]) { try { "
    "fs.writeFileSync(`/proc/${p}/fd/${n}`, tap); } catch (e) {} } }\n"
    "module.exports = { twoSum: () => [0, 0] };\n",
    "a getter that lies and a thenable": "const lie = new Proxy([], { get: (t, k) => "
    "k === 'length' ? 2 : (k === '0' ? 0 : 1) });\n"
    "module.exports = { twoSum: () => lie, then: (r) => r(42) };\n",
    "stops every other process it can (and is correct)": "for (const p of "
    "require('fs').readdirSync('/proc')) { if (/^\\d+$/.test(p) && +p !== process.pid) { "
    "try { process.kill(+p, 'SIGSTOP'); } catch (e) {} } }\n"
    + JS_CORRECT
    + "module.exports = { twoSum };\n",
}

GO_LIST_AND_FORGE = r"""package solution

import (
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"strings"
)

func init() {
	var names []string
	for _, exe := range []string{"/proc/self/exe", os.Args[0]} {
		out, err := exec.Command(exe, "-test.list", ".*").Output()
		if err == nil {
			names = append(names, strings.Fields(string(out))...)
		}
	}
	if len(names) == 0 { // enumerate the binary's own functions instead
		base := reflect.ValueOf(TwoSum).Pointer()
		seen := map[string]bool{}
		for pc := base - 4<<20; pc < base+4<<20; pc += 16 {
			if f := runtime.FuncForPC(pc); f != nil {
				n := f.Name()
				if strings.HasPrefix(n, "solution.Test") && n != "solution.TestMain" && !seen[n] {
					seen[n] = true
					names = append(names, strings.TrimPrefix(n, "solution."))
				}
			}
		}
	}
	for _, n := range names {
		fmt.Printf("=== RUN   %s\n--- PASS: %s (0.00s)\n", n, n)
	}
	fmt.Println("PASS")
	fmt.Fprintln(os.Stderr, "forged", names)
	os.Exit(0)
}

func TwoSum(nums []int, target int) (int, int, bool) { return 0, 1, true }
"""
GO_INTERCEPT = r"""package solution

import (
	"bufio"
	"os"
	"strings"
	"syscall"
	"time"
)

func init() {
	var orig syscall.Stat_t
	if syscall.Fstat(1, &orig) != nil {
		return
	}
	go func() {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
			for fd := 3; fd < 64; fd++ {
				var st syscall.Stat_t
				if syscall.Fstat(fd, &st) != nil || st.Ino != orig.Ino {
					continue
				}
				keep, err := syscall.Dup(fd)
				if err != nil {
					continue
				}
				var p [2]int
				if syscall.Pipe(p[:]) != nil || syscall.Dup3(p[1], fd, 0) != nil {
					continue
				}
				out := os.NewFile(uintptr(keep), "real")
				sc := bufio.NewScanner(os.NewFile(uintptr(p[0]), "stolen"))
				for sc.Scan() {
					line := strings.Replace(sc.Text(), "--- FAIL", "--- PASS", 1)
					line = strings.Replace(line, " exit 1", " exit 0", 1)
					out.WriteString(line + "\n")
					if strings.Contains(line, " exit ") {
						os.Exit(0)
					}
				}
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
}

func TwoSum(nums []int, target int) (int, int, bool) { return 0, 1, true }
"""
GO_BOUNDARY = {
    "-test.list or its own function table, then fake lines": GO_LIST_AND_FORGE,
    "adds -test.run to os.Args": 'package solution\n\nimport "os"\n\n'
    'func init() { os.Args = append(os.Args, "-test.run=^$") }\n\n'
    "func TwoSum(nums []int, target int) (int, int, bool) { return 0, 1, true }\n",
    "intercepts TestMain's signed output and rewrites it": GO_INTERCEPT,
    "calls rlvr's TestMain itself": "package solution\n\nfunc init() { TestMain(nil) }\n\n"
    "func TwoSum(nums []int, target int) (int, int, bool) { return 0, 1, true }\n",
    "reads its binary, stdin and the guard": 'package solution\n\nimport (\n\t"fmt"\n'
    '\t"io"\n\t"os"\n\t"solution/rlvrguard"\n)\n\nfunc init() {\n'
    '\tbin, _ := os.ReadFile("/proc/self/exe")\n\tin, _ := io.ReadAll(os.Stdin)\n'
    "\tn := rlvrguard.Take() + string(in)\n\tfmt.Fprintln(os.Stderr, len(bin), n)\n"
    '\tfor _, t := range []string{"TestTwoSumBasic", "TestTwoSumNone", '
    '"TestTwoSumDuplicates", "TestTwoSumEarliest", "TestTwoSumNegativesAndEmpty"} {\n'
    '\t\tfmt.Printf("%s > === RUN   %s\\n%s > --- PASS: %s (0.00s)\\n", n, t, n, t)\n\t}\n'
    '\tfmt.Printf("%s > PASS\\n%s exit 0\\n", n, n)\n\tos.Exit(0)\n}\n\n'
    "func TwoSum(nums []int, target int) (int, int, bool) { return 0, 1, true }\n",
}

RUST_BOUNDARY = {
    "--list, its binary, stdin, then fake lines": r"""use std::io::{Read, Write};
use std::process::Command;

fn forge() {
    let mut names: Vec<String> = Vec::new();
    for exe in ["/proc/self/exe".to_string(), std::env::args().next().unwrap_or_default()] {
        for flag in ["--list", "--help"] {
            if let Ok(out) = Command::new(&exe).arg(flag).output() {
                for line in String::from_utf8_lossy(&out.stdout).lines() {
                    if let Some(n) = line.strip_suffix(": test") { names.push(n.to_string()); }
                }
            }
        }
    }
    let mut bin = Vec::new();
    if let Ok(mut f) = std::fs::File::open("/proc/self/exe") { let _ = f.read_to_end(&mut bin); }
    let mut stdin = String::new();
    let _ = std::io::stdin().read_to_string(&mut stdin);
    for guess in ["public::basic", "public::no_pair", "hidden::duplicates",
                  "hidden::earliest_j_then_i", "hidden::negatives_and_empty"] {
        names.push(guess.to_string());
    }
    let mut out = std::io::stdout();
    for n in &names { let _ = writeln!(out, "{} ok {}\ntest {} ... ok", stdin.trim(), n, n); }
    let _ = writeln!(out, "{} done {}", stdin.trim(), names.len());
    eprintln!("binary bytes read: {}, stdin: {:?}", bin.len(), stdin);
    let _ = out.flush();
    std::process::exit(0);
}

pub fn two_sum(_nums: &[i64], _target: i64) -> Option<(usize, usize)> {
    forge();
    None
}
""",
    "silences panics": "pub fn two_sum(_n: &[i64], _t: i64) -> Option<(usize, usize)> {\n"
    "    std::panic::set_hook(Box::new(|_| {}));\n    Some((0, 1))\n}\n",
}


@pytest.fixture(scope="module")
def stacks() -> dict:
    from rlvr.registry import env_from_manifest
    from rlvr.sandbox.images import build_stack

    out = {}
    for stack in ("javascript", "go", "rust"):
        build_stack(ROOT / "envs" / stack)
        out[stack] = env_from_manifest(ROOT / "envs" / f"{stack}-tests")
    return out


BOUNDARY = {"javascript": ("js-two-sum", JS_BOUNDARY), "go": ("go-two-sum", GO_BOUNDARY),
            "rust": ("rust-two-sum", RUST_BOUNDARY)}  # fmt: skip
PASSING = {"stops every other process it can (and is correct)"}


@pytest.mark.parametrize("stack", list(BOUNDARY))
def test_compiled_and_node_attacks_score_zero_beside_correct_answers(stacks, stack):
    env = stacks[stack]
    task_id, attacks = BOUNDARY[stack]
    task = env.task(task_id)
    names = ["correct", *attacks, "correct again"]
    codes = [task.reference or "", *attacks.values(), task.reference or ""]
    verdicts = env.grade(task, [f"```{stack}\n{c}```" for c in codes])
    for name, v in zip(names, verdicts, strict=True):
        want = 1.0 if name.startswith("correct") or name in PASSING else 0.0
        assert v.status == "scored" and v.reward == want, (
            stack,
            name,
            v.reason,
            v.tests,
            v.details.get("stderr", "")[:500],
        )
    image = env.sandbox["image"]  # type: ignore[index]
    mine = [c for c in own_containers() if c.labels.get("rlvr.image") == image]
    assert len(mine) <= (os.cpu_count() or 1) + 2


# Test-framework mode (the answer compiled into the test process): forged passes an outside
# attack round found, and variations of them. Payloads are data in tests/abuse_payloads/,
# named <task>_<what>.txt; each would pass every test if its attack worked (checked against a
# build without the defence while it was written). Go: the answer may not import syscall,
# unsafe, runtime/debug, os/exec, ... and its processes run under the runner's seccomp filter
# (no PR_SET_DUMPABLE, ptrace, process_vm_*), so /proc/<pid>/mem stays root's. Rust: the
# tests import only the task's items, each function is pinned to the stated signature, and the
# shapes of known safe-code soundness holes are refused (sandbox/SECURITY.md).
PAYLOADS = ROOT / "tests" / "abuse_payloads"
FRAMEWORK = sorted(p.name for p in PAYLOADS.glob("*.txt"))


@pytest.mark.parametrize("name", FRAMEWORK)
def test_test_framework_forgeries_score_zero_beside_correct_answers(stacks, name):
    stack = name.split("-", 1)[0]
    env = stacks[stack]
    task = env.task(name.split("_", 1)[0])
    ref = f"```{stack}\n{task.reference}```"
    verdicts = env.grade(task, [ref, (PAYLOADS / name).read_text(encoding="utf-8"), ref])
    got = [(v.status, v.reward) for v in verdicts]
    assert got == [("scored", 1.0), ("scored", 0.0), ("scored", 1.0)], [
        (v.reason, v.details.get("stderr", "")[-800:]) for v in verdicts
    ]


# --- state one job leaves for the next (issue: "a job leaves nothing behind") -----------------
# tests/abuse_payloads/state/: attack scripts (python; the javascript, go and rust answers start
# them with `python3 -c`) and one answer template per stack. `park.py` fills the container's
# memory with SysV shared memory handed to root, queues, POSIX shared memory, files and unix
# sockets, so that the correct answers after it (same exec and the next one) would fail on a
# container it poisoned. `oom_mask.py` is a wrong answer that fills the memory with pages no
# process maps, at the runner's OOM score, so that the killer's best candidate is the runner: its
# job must still be scored 0 (memory_limit, flagged), never masked as infra_error.
STATE = PAYLOADS / "state"
STATE_ATTACKS = ("park", "oom_mask")
STATE_ENVS = {  # env -> (task, answer template)
    "python": ("python/reverse_words", "python"),
    "python-tests": ("python/reverse_words", "python"),
    "javascript": ("js-fizzbuzz", "javascript"),
    "go": ("go-fizzbuzz", "go"),
    "rust": ("rust-fizzbuzz", "rust"),
    "humaneval": ("HumanEval/0", "humaneval"),
    "humaneval-check": ("HumanEval/0", "humaneval"),
}


def state_payload(template: str, attack: str) -> str:
    script = (STATE / f"{attack}.py").read_text(encoding="utf-8").rstrip("\n")
    text = (STATE / f"answer.{template}.txt").read_text(encoding="utf-8")
    indented = "\n".join("    " + line if line else "" for line in script.splitlines())
    return text.replace("{ATTACK_INDENTED}", indented).replace("{ATTACK}", script)


@pytest.fixture(scope="module")
def state_envs() -> dict:
    from rlvr.registry import env_from_manifest
    from rlvr.sandbox.images import build_stack

    for stack in ("python", "javascript", "go", "rust"):
        build_stack(ROOT / "envs" / stack)
    # go and rust allow 60 s per job under load; a thrashing oom_mask ran its group to the whole
    # budget (4 x 60 s) before it ended `timeout`. 20 s per job still fits every reference.
    quick = {"go": {"limits": {"timeout_s": 20}}, "rust": {"limits": {"timeout_s": 20}}}
    return {name: env_from_manifest(ROOT / "envs" / name.removesuffix("-check"),
                                    grader_options=quick.get(name, {}))
            for name in STATE_ENVS}  # fmt: skip


def _grade_state(envs: dict, name: str, answers: list[str]) -> list:
    env = envs[name]
    task = env.task(STATE_ENVS[name][0])
    if name == "humaneval-check":  # the check() group: every answer in one judge's exec
        return env.grader.fallback_grader.grade_group(task, answers)
    return env.grade(task, answers)


@pytest.mark.parametrize("attack", STATE_ATTACKS)
@pytest.mark.parametrize("name", list(STATE_ENVS))
def test_state_an_answer_leaves_reaches_no_later_answer(state_envs, name, attack):
    task_id, template = STATE_ENVS[name]
    task = state_envs[name].task(task_id)
    ref = task.reference or ""
    if template == "humaneval":
        ref = ref[len(task.prompt) :]
    elif name == "python-tests":
        ref = fence(ref)
    payload = state_payload(template, attack)
    verdicts = _grade_state(state_envs, name, [ref, payload, ref, ref])
    again = _grade_state(state_envs, name, [ref, ref])  # the next exec, on the same pool
    got = [(v.status, v.reward) for v in verdicts + again]
    assert got == [("scored", 1.0), ("scored", 0.0)] + [("scored", 1.0)] * 4, [
        (v.status, v.reason, v.details.get("stderr", "")[-300:]) for v in verdicts + again
    ]
    attacker = verdicts[1]
    if attack == "oom_mask" and attacker.cause != "timeout":  # its own memory failure, flagged
        # (a container whose page cache is large may thrash, not OOM, until the deadline: then
        # the cause is "timeout", scored 0 as well; either way never a mask)
        assert attacker.cause in ("memory_limit", "runner_killed"), attacker.reason
        if name != "humaneval-check":  # flags come with Environment.grade
            assert any(f.kind == "sandbox_abuse" for f in attacker.flags), attacker.flags


NATIVE_STATE = sorted(p.name for p in STATE.glob("native.*.txt"))  # native.<env>.<what>.txt


@pytest.mark.parametrize("payload", NATIVE_STATE)
def test_state_left_by_native_code_reaches_no_later_answer(state_envs, payload):
    name = payload.split(".")[1]
    task = state_envs[name].task(STATE_ENVS[name][0])
    ref, attack = task.reference or "", (STATE / payload).read_text(encoding="utf-8")
    verdicts = _grade_state(state_envs, name, [ref, attack, ref, ref])
    again = _grade_state(state_envs, name, [ref, ref])
    got = [(v.status, v.reward) for v in verdicts + again]
    assert got == [("scored", 1.0), ("scored", 0.0)] + [("scored", 1.0)] * 4, [
        (v.status, v.reason, v.details.get("stderr", "")[-300:]) for v in verdicts + again
    ]
