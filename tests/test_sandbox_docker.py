"""The Docker sandbox against the real engine: container limits, deadlines, clean-up, reaping of
leftovers, shutdown on signals, retries on infrastructure failure, cached builds and the CLI.

Needs a Docker daemon and the images (`rlvr sandbox bootstrap && rlvr sandbox build`); fails
loudly without them unless RLVR_SKIP_DOCKER=1 is set."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from daemon_proxy import through_proxy

from rlvr.sandbox.client import (
    POOL_LABEL,
    daemon_status,
    docker_available,
    get_client,
    reap_stale,
)

if os.environ.get("RLVR_SKIP_DOCKER") == "1":
    pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", autouse=True)
def _docker() -> None:
    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")
    from rlvr.sandbox.images import image_exists

    for tag in ("rlvr-base:bookworm", "rlvr-python:bookworm"):
        if not image_exists(tag):
            pytest.fail(f"image {tag} missing: run `rlvr sandbox bootstrap && rlvr sandbox build`")


def _spec(**kw):
    from rlvr.sandbox.spec import SandboxSpec

    base = {"image": "rlvr-base:bookworm", "test_command": ["true"], "report_from": "stdout"}
    return SandboxSpec(**{**base, **kw})


PROBE = r"""
import json, os, resource, socket
def fails(fn):
    try:
        fn()
    except Exception:
        return True
    return False
status = dict(l.split(":", 1) for l in open("/proc/self/status").read().splitlines())
out = {
    "ids": [os.getuid(), os.getgid(), os.getgroups()],
    "cap_eff": status["CapEff"].strip(), "no_new_privs": status["NoNewPrivs"].strip(),
    "net": fails(lambda: socket.create_connection(("1.1.1.1", 80), timeout=1)),
    "loopback_host": fails(lambda: socket.create_connection(("172.17.0.1", 2375), timeout=1)),
    "dns": fails(lambda: socket.getaddrinfo("deb.debian.org", 80)),
    "ro_usr": fails(lambda: open("/usr/x", "w")),
    "ro_w": fails(lambda: open("/w/x", "w")),
    "tmp_ok": not fails(lambda: open("/tmp/x", "w").write("1")),
    "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
    "fsize": resource.getrlimit(resource.RLIMIT_FSIZE)[0],
    "pid1_env": fails(lambda: open("/proc/1/environ").read()),
    "docker_sock": os.path.exists("/var/run/docker.sock"),
    "secret": "RLVR_TEST_SECRET" in os.environ,
}
print("@@RLVR-RESULT@@" + json.dumps(out))
"""


def test_container_is_locked_down(monkeypatch):
    from rlvr.sandbox.docker import SANDBOX_USER, Container
    from rlvr.sandbox.results import RawResult

    monkeypatch.setenv("RLVR_TEST_SECRET", "hunter2")
    c = Container(_spec(nofile=123, fsize_mb=7))
    try:
        r = c.exec(["python3", "-I", "-c", PROBE], SANDBOX_USER, {}, 30, RawResult).result
    finally:
        c.remove()
    assert r is not None
    assert r["ids"][:2] == [10001, 10001] and set(r["ids"][2]) <= {10001}
    assert r["cap_eff"] == "0000000000000000" and r["no_new_privs"] == "1"
    assert r["net"] and r["loopback_host"] and r["dns"]
    assert r["ro_usr"] and r["ro_w"] and r["tmp_ok"]
    assert r["nofile"] == 123 and r["fsize"] == 7 << 20
    assert r["pid1_env"] and not r["docker_sock"] and not r["secret"]


def _run(pool, argv, timeout_s=5.0, **extra):
    from rlvr.sandbox.docker import new_job_id

    payload = {
        "job": new_job_id(), "nonce": "n", "argv": argv, "env": {}, "workdir": ".",
        "answer": "a", "public": "p", "hidden": "h", "report_from": "stdout",
        "timeout_s": timeout_s, "output_limit": 4096, "report_limit": 4096, **extra,
    }  # fmt: skip
    return pool.run({**payload, "files": {"a": "print('hi')\n"}}, "run")


def test_job_deadline_kills_everything_and_container_is_replaced():
    from rlvr.sandbox.docker import get_pool

    pool = get_pool(_spec(memory_mb=200), size=1)
    daemon = (
        "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(100)\n"
        "time.sleep(100)\n"
    )
    out = _run(pool, ["python3", "-c", daemon], timeout_s=1.5)
    assert out.result["timed_out"] is True
    first = {c.id for c in _own_containers()}
    check = "import os\nprint(sorted(p for p in os.listdir('/proc') if p.isdigit()))"
    out2 = _run(pool, ["python3", "-c", check])
    assert out2.result["exit_code"] == 0 and not out2.result["timed_out"]
    pids = json.loads(out2.result["stdout"].replace("'", '"'))
    # pid 1 (init), sleep, the runner's `timeout`, the runner and this process: nothing else
    assert len(pids) <= 5, pids
    assert {c.id for c in _own_containers()} != first


def test_output_is_capped_and_daemons_are_swept():
    from rlvr.sandbox.docker import get_pool

    pool = get_pool(_spec(memory_mb=200), size=1)
    spam = "import sys\nfor _ in range({}):\n    sys.stdout.write('x' * 1000)\n"
    out = _run(pool, ["python3", "-c", spam.format(50)])
    assert out.result["stdout_bytes"] == 50_000 and len(out.result["stdout"]) == 4096
    assert out.result["output_overflow"] is False
    out = _run(pool, ["python3", "-c", spam.format(10**6)])
    assert out.result["output_overflow"] is True and len(out.result["stdout"]) == 4096
    fork = (
        "import os, time\nif os.fork() == 0:\n    os.setsid()\n"
        "    open('/tmp/alive', 'w').write('1')\n    time.sleep(100)\nprint('parent done')\n"
    )
    out = _run(pool, ["python3", "-c", fork])
    assert out.result["exit_code"] == 0 and out.result["clean"] is True
    out = _run(pool, ["python3", "-c", "import os; print(os.path.exists('/tmp/alive'))"])
    assert out.result["stdout"].strip() == "False"


def _own_containers():
    label = f"{POOL_LABEL}={os.getpid()}"
    return get_client().containers.list(ignore_removed=True, all=True, filters={"label": label})


def test_reap_stale_removes_containers_of_dead_processes():
    import socket

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    c = get_client().containers.run(
        "rlvr-base:bookworm", ["sleep", "60"], detach=True, network_mode="none",
        labels={POOL_LABEL: str(dead.pid), "rlvr.host": socket.gethostname()},
    )  # fmt: skip
    try:
        assert reap_stale() >= 1
        left = get_client().containers.list(ignore_removed=True, all=True, filters={"id": c.id})
        assert left == []
    finally:
        for x in get_client().containers.list(ignore_removed=True, all=True, filters={"id": c.id}):
            x.remove(force=True)


CHILD = """
import signal, sys, time
# a shell that starts the suite in the background (`pytest &`) hands its children SIGINT
# ignored, and Python then keeps it ignored; a user's Ctrl-C reaches a foreground process
signal.signal(signal.SIGINT, signal.default_int_handler)
from rlvr.sandbox.docker import get_pool
from rlvr.sandbox.spec import SandboxSpec
spec = SandboxSpec(image="rlvr-base:bookworm", runner="python-check", memory_mb=128)
def make():
    pool = get_pool(spec, size=2)
    a, b = pool._acquire(), pool._acquire()
    pool._release(a, True)
if sys.argv[2] == "thread":  # the pool is made on a worker thread (as rollout workers do)
    import threading
    t = threading.Thread(target=make)
    t.start()
    t.join()
else:
    make()
print("ready", flush=True)
if sys.argv[1] == "exit":
    sys.stdin.readline()
    sys.exit(0)
time.sleep(120)
"""


@pytest.mark.parametrize("thread", ["main", "thread"])
@pytest.mark.parametrize("how", ["exit", signal.SIGTERM, signal.SIGINT])
def test_no_container_outlives_its_process(how, thread):
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(how), thread], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdin is not None
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read() if proc.stderr else ""
    label = f"{POOL_LABEL}={proc.pid}"
    assert (
        len(get_client().containers.list(ignore_removed=True, all=True, filters={"label": label}))
        == 2
    )
    if how == "exit":
        proc.stdin.write("go\n")
        proc.stdin.flush()
    else:
        proc.send_signal(how)
    proc.wait(timeout=60)
    assert (
        get_client().containers.list(ignore_removed=True, all=True, filters={"label": label}) == []
    )


def _python_grader(**sandbox):
    from rlvr.graders.code import CodeGrader
    from rlvr.manifest import read_manifest

    folder = ROOT / "envs" / "python-tests"
    table = {**(read_manifest(folder).sandbox or {}), **sandbox}
    return CodeGrader(sandbox=table, env_dir=str(folder), pool_size=1)


def _killer(stop: threading.Event, image: str, every: bool) -> None:
    client = get_client()
    while not stop.is_set():
        for c in client.containers.list(
            ignore_removed=True, filters={"label": f"{POOL_LABEL}={os.getpid()}"}
        ):
            c.reload()
            if c.labels.get("rlvr.image") == image and c.attrs["HostConfig"]["Memory"] == 300 << 20:
                time.sleep(1.0)
                c.kill()
                if not every:
                    return
        time.sleep(0.05)


@pytest.mark.parametrize("every", [False, True])
def test_infrastructure_failure_is_retried_then_masked(every):
    import rlvr

    env = rlvr.load_env("python-tests")
    task = env.task("python/reverse_words")
    grader = _python_grader(memory_mb=300)
    slow = "import time\ntime.sleep(3)\n" + task.reference
    stop = threading.Event()
    t = threading.Thread(target=_killer, args=(stop, "rlvr-python:bookworm", every))
    t.start()
    try:
        (v,) = grader.grade_group(task, ["```python\n" + slow + "```"])
    finally:
        stop.set()
        t.join()
    if every:
        assert v.status == "infra_error" and v.reward is None
    else:
        assert v.status == "scored" and v.reward == 1.0, v.reason


def test_build_is_skipped_when_the_context_hash_matches(tmp_path):
    from rlvr.sandbox.images import build_stack, content_hash
    from rlvr.sandbox.spec import load_spec

    res = build_stack(ROOT / "envs" / "python")
    assert res.built is False and res.reason == "up to date"
    # python-tests names envs/python's Dockerfile: the same context, hash and image
    shared = build_stack(ROOT / "envs" / "python-tests")
    assert shared.built is False and shared.content_hash == res.content_hash
    (tmp_path / "Dockerfile").write_text("FROM x\n")
    spec = load_spec({"image": "t", "test_command": ["t"]})
    h1 = content_hash(tmp_path, spec, "base1")
    assert content_hash(tmp_path, spec, "base2") != h1
    (tmp_path / "extra.txt").write_text("1")
    assert content_hash(tmp_path, spec, "base1") != h1


def test_cli_doctor_reports_every_check_ok():
    from typer.testing import CliRunner

    from rlvr.cli.sandbox import app

    result = CliRunner().invoke(app, ["doctor", "--json"])
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    names = {r["check"]: r for r in rows}
    assert names["docker daemon"]["ok"] and names["limits probe"]["ok"], rows
    assert names["env python (rlvr-python:bookworm)"]["ok"]


def test_missing_image_is_a_clear_sandbox_error():
    from rlvr.errors import SandboxError
    from rlvr.graders.code import CodeGrader
    from rlvr.manifest import read_manifest
    from rlvr.types import Task

    folder = ROOT / "envs" / "python-tests"
    table = {**(read_manifest(folder).sandbox or {}), "image": "rlvr-missing:never"}
    grader = CodeGrader(sandbox=table, env_dir=str(folder))
    task = Task(id="t", prompt="", public_tests="", hidden_tests="def test_a():\n    pass\n")
    with pytest.raises(SandboxError, match="'rlvr-missing:never' is not built") as e:
        grader.grade_group(task, ["```python\nx = 1\n```"])
    assert "rlvr sandbox build" in (e.value.fix or "")


def test_cli_build_names_unknown_stacks():
    from typer.testing import CliRunner

    from rlvr.cli.sandbox import app

    result = CliRunner().invoke(app, ["build", "cobol"])
    assert result.exit_code != 0
    assert "no code environment named ['cobol']" in str(result.exception)


def test_a_stopped_exec_is_cut_by_the_watchdog_and_its_container_dies():
    from rlvr.sandbox.docker import Container

    c = Container(_spec())
    try:  # the process on the other end of the stream stops itself: the read must still end
        out = c.exec(["sh", "-c", "kill -STOP $$; sleep 1000"], "0:0", {}, 3)
        assert out.watchdog is True and out.result is None
        assert not c.running()
    finally:
        c.remove()


def test_the_host_keeps_only_a_capped_part_of_what_an_exec_writes():
    import resource

    from rlvr.sandbox.docker import Container

    c = Container(_spec())
    flood = "import os\nb = b'x' * (1 << 20)\nfor _ in range(1024):\n    os.write({}, b)\n"
    try:
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        for fd in (1, 2):  # a gigabyte on stdout, then on stderr
            out = c.exec(["python3", "-c", flood.format(fd)], "0:0", {}, 300, max_bytes=1 << 20)
            assert out.result is None and not out.watchdog and len(out.stderr) <= 64 << 10
        grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
        assert grown_mb < 200, f"the host process grew by {grown_mb:.0f} MB"
    finally:
        c.remove()


# As an answer's uid: shared memory touched and handed to root, another handed to a stranger uid
# (its creator stays the answer's), a message queue with data and a semaphore set handed to root,
# POSIX shared memory and a message queue. Then, as the runner: what `residue` sees, the wipe,
# and what is left. Run in a container without the IPC sysctls (the pool's refuse all of these).
LEAVE_IPC = r"""
import ctypes, json, os, sys, time
sys.path.insert(0, "/opt/rlvr")
import sweep
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.mq_open.restype = ctypes.c_int
MiB = 1 << 20
def hand(ctl, ident, uid, sem=False):
    buf = ctypes.create_string_buffer(512)
    assert ctl(*((ident, 0, 2, buf) if sem else (ident, 2, buf))) == 0
    ctypes.c_uint.from_buffer(buf, 4).value = uid
    assert ctl(*((ident, 0, 1, buf) if sem else (ident, 1, buf))) == 0
def leave():
    for size, uid in ((32 * MiB, 0), (8 * MiB, 300099)):
        sid = libc.shmget(0, size, 0o1600)
        addr = libc.shmat(sid, None, 0)
        ctypes.memset(addr, 7, size)
        libc.shmdt(ctypes.c_void_p(addr))
        hand(libc.shmctl, sid, uid)
    mq = libc.msgget(0, 0o1600)
    msg = ctypes.create_string_buffer(b"\x01" + b"\x00" * 7 + b"m" * 4000)
    assert libc.msgsnd(mq, msg, 4000, 0) == 0
    hand(libc.msgctl, mq, 0)
    hand(libc.semctl, libc.semget(0, 2, 0o1600), 0, sem=True)
    open("/dev/shm/left", "wb").write(b"x" * 8 * MiB)
    assert libc.mq_open(b"/left", os.O_CREAT | os.O_RDWR, 0o600, None) >= 0
err = sweep.as_uid(300001, leave)
before = sweep.residue()
start = time.perf_counter()
wiped = sweep.wipe_all()
after = sweep.residue()
took = time.perf_counter() - start
ipc = {k: len(open(f"/proc/sysvipc/{k}").read().splitlines()) - 1 for k in ("shm", "msg", "sem")}
print("@@RLVR-RESULT@@" + json.dumps({"err": err, "before": before, "wiped": wiped,
      "after": after, "ipc": ipc, "shmem": sweep.memory_stat()["shmem"], "took": took}))
"""

# As an answer's uid, with the pool's settings: no SysV object or POSIX queue can be made, and
# no directory outside /tmp, /dev/shm and /dev/mqueue takes a new file.
DENIED_IPC = r"""
import ctypes, errno, json, os
libc = ctypes.CDLL(None, use_errno=True)
libc.mq_open.restype = ctypes.c_int
def err(r):
    return ctypes.get_errno() if r < 0 else 0
got = {"shm": err(libc.shmget(0, 4096, 0o1600)), "msg": err(libc.msgget(0, 0o1600)),
       "sem": err(libc.semget(0, 1, 0o1600)),
       "mq": err(libc.mq_open(b"/q", os.O_CREAT | os.O_RDWR, 0o600, None))}
writable = []
for top, dirs, _ in os.walk("/"):
    if top in ("/proc", "/sys"):
        dirs[:] = []
        continue
    if os.access(top, os.W_OK):
        writable.append(top)
    dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(top, d))]
got["writable"] = writable
print("@@RLVR-RESULT@@" + json.dumps(got))
"""


def test_ipc_objects_of_any_owner_are_wiped_or_the_residue_is_named(monkeypatch):
    import errno

    import rlvr.sandbox.container as D
    from rlvr.sandbox.results import RawResult

    c = D.Container(_spec(memory_mb=256))
    try:
        r = c.exec(["python3", "-I", "-c", DENIED_IPC], D.SANDBOX_USER, {}, 60, RawResult).result
    finally:
        c.remove()
    assert r is not None
    assert [r[k] for k in ("shm", "msg", "sem", "mq")] == [errno.ENOSPC, errno.ENOSPC,
                                                           errno.EINVAL, errno.ENOSPC]  # fmt: skip
    assert set(r["writable"]) <= {"/tmp", "/dev/shm", "/dev/mqueue"}, r["writable"]

    monkeypatch.setattr(D, "IPC_SYSCTLS", {})
    c = D.Container(_spec(memory_mb=256))
    try:
        r = c.exec(["python3", "-I", "-c", LEAVE_IPC], D.RUNNER_USER, {}, 60, RawResult).result
    finally:
        c.remove()
    assert r is not None and r["err"] is None, r
    seen = " | ".join(r["before"])
    assert "SysV shm" in seen and "owner uid 0" in seen and "SysV msg" in seen, seen
    assert "MiB of shared memory still charged" in seen and "/dev/shm" in seen, seen
    assert r["wiped"] and r["after"] == [] and r["ipc"] == {"shm": 0, "msg": 0, "sem": 0}, r


def _stop_own_containers() -> None:
    """What a daemon restart does to running containers (no live-restore): they stop."""
    import docker

    real = docker.DockerClient(base_url="unix:///var/run/docker.sock")
    for c in real.containers.list(filters={"label": f"{POOL_LABEL}={os.getpid()}"}):
        c.kill()


def test_grading_waits_for_a_daemon_that_comes_back_and_reaps_what_it_stopped(
    monkeypatch, tmp_path
):
    import rlvr
    from rlvr.sandbox.docker import close_all_pools

    proxy = through_proxy(monkeypatch, tmp_path, 90.0)
    try:
        env = rlvr.load_env("python")
        task = env.task("python/reverse_words")
        slow = "import time\ntime.sleep(1.0)\n"  # so that jobs are in flight at the cut
        wrong = slow + "def reverse_words(s):\n    return s\n"
        answers = [slow + (task.reference or ""), wrong] * 24
        got: list = []
        grading = threading.Thread(target=lambda: got.extend(env.grade(task, answers)))
        grading.start()
        time.sleep(2.0)
        assert grading.is_alive(), "grading ended before the outage: make the answers slower"
        proxy.cut()
        _stop_own_containers()
        time.sleep(5.0)
        proxy.up.set()
        grading.join()
        assert [(v.status, v.reward) for v in got] == [("scored", 1.0), ("scored", 0.0)] * 24, [
            v.reason for v in got if v.status != "scored"
        ][:3]
        # idle containers the restart stopped are dropped once the daemon answers again,
        # without waiting for the pool's next use
        label = {"label": f"{POOL_LABEL}={os.getpid()}", "status": "exited"}
        for _ in range(50):  # removals run on their own threads
            exited = get_client().containers.list(all=True, filters=label)
            if not exited:
                break
            time.sleep(0.2)
        idle = [c.id for c in env.grader.pool._idle]
        assert exited == [], [(c.short_id, c.id in idle, c.attrs["State"]) for c in exited]
    finally:
        close_all_pools()
        proxy.close()


def test_a_restart_while_the_pool_is_idle_is_noticed_at_its_next_use(monkeypatch, tmp_path):
    """No job saw the outage, so nobody waited for the daemon: the first job after it meets a
    stopped container, drops every stopped one and runs on a fresh one, unmasked."""
    import rlvr
    from rlvr.sandbox.docker import close_all_pools

    proxy = through_proxy(monkeypatch, tmp_path, 30.0)
    try:
        env = rlvr.load_env("python")
        task = env.task("python/reverse_words")
        assert env.grade(task, [task.reference or ""])[0].passed  # a warm, idle pool
        proxy.cut()
        _stop_own_containers()
        proxy.up.set()
        v = env.grade(task, [task.reference or "", "def reverse_words(s):\n    return s\n"])
        assert [(x.status, x.reward) for x in v] == [("scored", 1.0), ("scored", 0.0)], v
        label = {"label": f"{POOL_LABEL}={os.getpid()}", "status": "exited"}
        for _ in range(50):
            exited = get_client().containers.list(all=True, filters=label)
            if not exited:
                break
            time.sleep(0.2)
        assert exited == []
    finally:
        close_all_pools()
        proxy.close()


def test_a_daemon_that_stays_away_masks_with_a_message_that_says_so(monkeypatch, tmp_path):
    import rlvr
    from rlvr.sandbox.docker import close_all_pools

    proxy = through_proxy(monkeypatch, tmp_path, 3.0)
    try:
        env = rlvr.load_env("python")
        task = env.task("python/reverse_words")
        assert env.grade(task, [task.reference or ""])[0].passed  # a warm pool
        proxy.cut()
        verdicts = env.grade(task, [task.reference or ""] * 4)
        assert {v.status for v in verdicts} == {"infra_error"}
        assert all("did not answer for 3 s" in v.reason for v in verdicts), verdicts[0].reason
        # given up, the outage is closed: a later one gets a whole window of its own, not one
        # already used up (which once masked a later episode's 5 s outage at once)
        assert daemon_status() is None
    finally:
        proxy.up.set()
        close_all_pools()
        proxy.close()
