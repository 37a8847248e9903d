"""Soak the sandbox with faults: a stream of answers graded while the Docker daemon restarts and
pool containers are killed.

Grades `--answers` answers (default 5,000) of the function-judged `python`, `javascript`, `go`
and `rust` environments through the normal grader path (`Environment.grade_groups`, groups of
8 answers of one task, the function judge batching them into `docker exec`s on its warm pool),
one grading thread per stack. The mix, per stack:

- correct: the reference of any task of the stack (each answer made distinct by a comment, so
  that no verdict is shared between copies);
- wrong, timeout, memory (a native hog, or `oom_mask.py`: memory no process maps, at the
  runner's OOM score), fork bomb, ipc (`park.py`: SysV objects handed to root, queues, POSIX
  shm; the container's IPC sysctls now refuse them, the rest of it still runs), state (files in
  /tmp, $HOME and /dev/shm, a named and an abstract unix socket, a detached process) and output
  flood: all on the stack's fizzbuzz / reverse_words task, in the shapes of
  `tests/abuse_payloads/state/` (the javascript, go and rust answers start the python scripts
  with `python3 -c`).

A fault thread (`--faults`, the default) kills a random pool container of this process
(`docker kill`) every `--kill-every` seconds on average, and restarts the Docker daemon
`--restarts` times at random points of the stream: it stops dockerd (SIGTERM to the pid in its
pidfile, as `pkill dockerd` would send), waits for it to exit, keeps it down for a few seconds
and starts it again the way `.ci/setup` does (`setsid dockerd >LOG 2>&1 < /dev/null &`), then
waits for `docker info`.

`--daemon own` (the default) does all this to a daemon of the bench's own, started with
`--daemon-dir` as its socket, data and exec root, a bridge of its own (`rlvrsoak0`; never
`--bridge=none`, with which dockerd deletes the machine daemon's docker0) and
`--iptables=false`, with the four stack images copied in from the system daemon the first time
(`docker save | docker load`, a few minutes); other users of the machine's daemon are not
disturbed, and the bench stops its daemon at the end. `--daemon system` restarts the machine's
own dockerd (`/var/run/docker.pid`, log /tmp/rlvr-dockerd.log): every other container on the
machine dies with it. Either way the daemon is answering again when the bench exits (also on
Ctrl-C, which stops sending answers, lets the calls in flight finish and reports on those).

The mix is mostly correct and wrong answers (an abusive answer costs the container it ran in,
and its replacement's start), and mostly python (the go and rust drivers compile per answer):
72% python, 18% javascript, 5% go, 5% rust. Runs as root (it starts dockerd and a bridge).

Prints answers graded, scored (reward 1 / 0), masked (with causes), lost (answers without
exactly one verdict: must be 0), this process's containers left after the run (`docker ps -a
--filter label=rlvr.pool=<pid>`: must be 0), every correct answer that did not pass and every
other answer that did, a table per stack and kind, the faults injected and the machine's load;
`--out` keeps one JSON line per answer.

    python bench/sandbox_soak.py                                  # 5,000 answers, faults
    python bench/sandbox_soak.py --answers 200 --no-faults --stacks python,go
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

ROOT = Path(__file__).resolve().parent.parent
STATE = ROOT / "tests" / "abuse_payloads" / "state"
SYSTEM_HOST = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
BRIDGE, BRIDGE_NET = "rlvrsoak0", "172.31.213.1/24"  # the bench daemon's (--daemon own)
STACKS = ("python", "javascript", "go", "rust")
IMAGES = {s: f"rlvr-{s}:bookworm" for s in STACKS}
FENCE = {"python": "python", "javascript": "javascript", "go": "go", "rust": "rust"}
ABUSE_TASK = {"python": "python/reverse_words", "javascript": "js-fizzbuzz",
              "go": "go-fizzbuzz", "rust": "rust-fizzbuzz"}  # fmt: skip
KINDS = {  # share of each kind in a stack's stream (an abusive answer costs its container)
    "correct": 56, "wrong": 20, "timeout": 2, "memory": 4, "fork": 4, "ipc": 5, "state": 5,
    "flood": 4,
}  # fmt: skip

# --- payloads ------------------------------------------------------------------------------
# Native shapes per stack (the answer's own code); "script" kinds run a python script through
# the stack's template in tests/abuse_payloads/state/ (inline for python).
NATIVE: dict[str, dict[str, str]] = {
    "python": {
        "wrong": "def reverse_words(s: str) -> str:\n    return s\n",
        "timeout": "def reverse_words(s: str) -> str:\n    while True:\n        pass\n",
        "timeout-sleep": "import time\n\n\ndef reverse_words(s: str) -> str:\n"
        "    time.sleep(3600)\n    return s\n",
        "memory": "def reverse_words(s: str) -> str:\n    keep = []\n    while True:\n"
        '        keep.append(b"x" * (16 << 20))\n',
        "flood": "import sys\n\n\ndef reverse_words(s: str) -> str:\n    while True:\n"
        '        sys.stdout.write("x" * 65536)\n        sys.stderr.write("y" * 65536)\n',
    },
    "javascript": {
        "wrong": "function fizzBuzz(n) {\n  return [];\n}\nmodule.exports = { fizzBuzz };\n",
        "timeout": "function fizzBuzz(n) {\n"
        "  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);\n  return [];\n}\n"
        "module.exports = { fizzBuzz };\n",
        "memory": "function fizzBuzz(n) {\n  const keep = [];\n"
        "  for (;;) keep.push(Buffer.alloc(16 << 20, 1));\n}\nmodule.exports = { fizzBuzz };\n",
        "flood": "const fs = require('fs');\nfunction fizzBuzz(n) {\n"
        "  const line = 'x'.repeat(65536);\n"
        "  for (;;) { try { fs.writeSync(1, line); fs.writeSync(2, line); } catch (e) {} }\n}\n"
        "module.exports = { fizzBuzz };\n",
    },
    "go": {
        "wrong": "package solution\n\nfunc FizzBuzz(n int) []string {\n\treturn []string{}\n}\n",
        "timeout": 'package solution\n\nimport "time"\n\nfunc FizzBuzz(n int) []string {\n'
        "\ttime.Sleep(time.Hour)\n\treturn nil\n}\n",
        "memory": "package solution\n\nvar keep [][]byte\n\nfunc FizzBuzz(n int) []string {\n"
        "\tfor {\n\t\tb := make([]byte, 16<<20)\n\t\tfor i := range b {\n\t\t\tb[i] = 1\n\t\t}\n"
        "\t\tkeep = append(keep, b)\n\t}\n}\n",
        "flood": 'package solution\n\nimport (\n\t"os"\n\t"strings"\n)\n\n'
        'func FizzBuzz(n int) []string {\n\tline := strings.Repeat("x", 65536)\n\tfor {\n'
        "\t\tos.Stdout.WriteString(line)\n\t\tos.Stderr.WriteString(line)\n\t}\n}\n",
    },
    "rust": {
        "wrong": "pub fn fizz_buzz(_n: i64) -> Vec<String> {\n    Vec::new()\n}\n",
        "timeout": "pub fn fizz_buzz(_n: i64) -> Vec<String> {\n"
        "    std::thread::sleep(std::time::Duration::from_secs(3600));\n    Vec::new()\n}\n",
        "memory": "pub fn fizz_buzz(_n: i64) -> Vec<String> {\n"
        "    let mut keep: Vec<Vec<u8>> = Vec::new();\n    loop {\n"
        "        keep.push(vec![1u8; 16 << 20]);\n"
        "        if keep.len() % 4096 == 4095 {\n"
        '            eprintln!("{}", keep.iter().map(|v| v[7] as usize).sum::<usize>());\n'
        "        }\n    }\n}\n",
        "flood": "pub fn fizz_buzz(_n: i64) -> Vec<String> {\n"
        '    let line = "x".repeat(65536);\n    loop {\n        print!("{}", line);\n'
        '        eprint!("{}", line);\n    }\n}\n',
    },
}
# A fork bomb that ends: every process forks again until the pids limit refuses, then all but
# the first sleep (left for the sweep) and the first goes on (to a wrong answer).
FORK = """import os, time
first = os.getpid()
for _ in range(12):
    try:
        os.fork()
    except OSError:
        pass
if os.getpid() != first:
    time.sleep(600)
    os._exit(0)"""
# State in every place an answer can write: files, sockets, a detached process that keeps an
# abstract socket.
LEAVE = """import os, socket, time
for d in ("/tmp", os.environ.get("HOME", "/tmp"), "/dev/shm"):
    try:
        with open(os.path.join(d, "soak-left"), "w") as fh:
            fh.write("left")
    except OSError:
        pass
try:
    named = socket.socket(socket.AF_UNIX)
    named.bind("/tmp/soak-left.sock")
    named.listen()
except OSError:
    pass
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        try:
            held = socket.socket(socket.AF_UNIX)
            held.bind(b"\\0soak-left")
            held.listen()
        except OSError:
            pass
        time.sleep(3600)
    os._exit(0)"""
SCRIPTS = {"fork": FORK, "state": LEAVE}


def script(kind: str, variant: int) -> str:
    if kind == "ipc":
        return (STATE / "park.py").read_text(encoding="utf-8").rstrip("\n")
    if kind == "memory":  # odd variants: the OOM mask attempt
        return (STATE / "oom_mask.py").read_text(encoding="utf-8").rstrip("\n")
    return SCRIPTS[kind]


def payload(stack: str, kind: str, n: int) -> str:
    """Answer number `n` of `kind` in `stack`, as a fenced completion, distinct from every other."""
    mark = f"# soak {n}" if stack == "python" else f"// soak {n}"
    if kind == "timeout" and n % 2 and "timeout-sleep" in NATIVE[stack]:
        kind = "timeout-sleep"  # half of python's deadlines spent asleep, half on the CPU
    native = NATIVE[stack].get(kind)
    if native is not None and not (kind == "memory" and n % 2):
        return f"```{FENCE[stack]}\n{native}{mark}\n```"
    text = (STATE / f"answer.{stack}.txt").read_text(encoding="utf-8")
    if "`" in script(kind, n):  # the go and javascript templates quote it with backquotes
        raise ValueError(f"the {kind} script must hold no backquote")
    body = text.replace("{ATTACK}", script(kind, n)).rstrip("\n")
    assert body.endswith("```")
    return body[:-3] + mark + "\n```"


def correct(stack: str, reference: str, n: int) -> str:
    mark = f"# soak {n}" if stack == "python" else f"// soak {n}"
    return f"```{FENCE[stack]}\n{reference.rstrip()}\n{mark}\n```"


# --- the stream ----------------------------------------------------------------------------
@dataclass
class Answer:
    stack: str
    task: str
    kind: str
    text: str
    verdicts: list[Any] = field(default_factory=list)
    sent: bool = False


def stream(stack: str, env: Any, count: int, rng: random.Random, start: int) -> list[list[Answer]]:
    """`count` answers of `stack` in groups of up to 8 answers of one task, in random order."""
    tasks = {t.id: t for t in env.tasks() if t.reference}
    abuse = ABUSE_TASK[stack]
    kinds, weights = zip(*KINDS.items(), strict=True)
    by_task: dict[str, list[Answer]] = defaultdict(list)
    for i in range(count):
        n = start + i
        kind = rng.choices(kinds, weights)[0]
        if kind == "correct":  # a third beside the attacks, the rest on every other task
            tid = abuse if rng.random() < 1 / 3 else rng.choice(sorted(tasks))
            text = correct(stack, tasks[tid].reference, n)
        else:
            tid, text = abuse, payload(stack, kind, n)
        by_task[tid].append(Answer(stack, tid, kind, text))
    groups = [rows[k : k + 8] for rows in by_task.values() for k in range(0, len(rows), 8)]
    rng.shuffle(groups)
    return groups


def make_plan(envs: dict[str, Any], total: int, seed: int) -> dict[str, list[list[Answer]]]:
    """Each stack's groups; answers numbered across stacks, so every answer text is distinct."""
    counts = split(total, list(envs))
    plan, start = {}, 0
    for s, env in envs.items():
        plan[s] = stream(s, env, counts[s], random.Random(f"{seed}-{s}"), start)
        start += counts[s]
    return plan


def split(total: int, stacks: list[str]) -> dict[str, int]:
    """Answers per stack: python and javascript grade faster than the compiled stacks."""
    share = {"python": 72, "javascript": 18, "go": 5, "rust": 5}
    weight = sum(share[s] for s in stacks)
    out = {s: total * share[s] // weight for s in stacks}
    out[stacks[0]] += total - sum(out.values())
    return out


# --- the daemon ----------------------------------------------------------------------------
class Daemon:
    """The Docker daemon the bench grades on, and how to stop and start it."""

    def __init__(self, mode: str, folder: Path) -> None:
        self.mode, self.folder = mode, folder
        self.proc: subprocess.Popen | None = None
        if mode == "own":
            self.host = f"unix://{folder}/docker.sock"
            self.pidfile = folder / "dockerd.pid"
            self.log = folder / "dockerd.log"
        else:
            self.host = SYSTEM_HOST
            self.pidfile = Path("/var/run/docker.pid")
            self.log = Path("/tmp/rlvr-dockerd.log")

    def env(self) -> dict[str, str]:
        return {**os.environ, "DOCKER_HOST": self.host}

    def docker(self, *args: str, timeout: float = 60, **kw: Any) -> subprocess.CompletedProcess:
        return subprocess.run(["docker", *args], env=self.env(), capture_output=True, text=True,
                              timeout=timeout, **kw)  # fmt: skip

    def answers(self) -> bool:
        try:
            return self.docker("info", timeout=20).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def pid(self) -> int | None:
        try:
            pid = int(self.pidfile.read_text().strip())
        except (OSError, ValueError):
            return None
        return pid if _running(pid) else None

    def start(self, wait_s: float = 120) -> None:
        """Start dockerd as .ci/setup does (setsid, log, no stdin); wait for `docker info`."""
        argv = ["setsid", "dockerd"]
        if self.mode == "own":
            self.folder.mkdir(parents=True, exist_ok=True)
            own_bridge()
            argv += ["-H", self.host, "--data-root", str(self.folder / "data"),
                     "--exec-root", str(self.folder / "exec"), "--pidfile", str(self.pidfile),
                     f"--bridge={BRIDGE}", "--iptables=false", "--ip-masq=false"]  # fmt: skip
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True,
            )  # fmt: skip
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if self.answers():
                return
            time.sleep(0.5)
        raise RuntimeError(f"dockerd did not answer within {wait_s:.0f} s; see {self.log}")

    def stop(self, wait_s: float = 90) -> None:
        """SIGTERM to the daemon's pid (what `pkill dockerd` sends); wait until it has exited."""
        pid = self.pid()
        if pid is None:
            return
        os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.pid == pid:
                if self.proc.poll() is not None:
                    return
            elif not _running(pid):
                return
            time.sleep(0.2)
        raise RuntimeError(f"dockerd (pid {pid}) did not exit within {wait_s:.0f} s")

    def ensure(self) -> None:
        """Answering, with the stack images (own daemon: copied from the system daemon)."""
        if not self.answers():
            if self.pid() is not None:
                self.stop()
            self.start()
        if self.mode != "own":
            return
        missing = [i for i in IMAGES.values() if self.docker("image", "inspect", i).returncode]
        if missing:
            Console(stderr=True).print(f"copying {', '.join(missing)} into the bench's daemon")
            save = subprocess.Popen(["docker", "save", *missing], stdout=subprocess.PIPE,
                                    env={**os.environ, "DOCKER_HOST": SYSTEM_HOST})  # fmt: skip
            subprocess.run(["docker", "load", "-q"], stdin=save.stdout, env=self.env(), check=True)
            save.wait()


def own_bridge() -> None:
    """The bench daemon's own bridge. Never `--bridge=none`: a daemon started with it deletes
    the interface named docker0, which the machine's daemon uses."""
    if subprocess.run(["ip", "link", "show", BRIDGE], capture_output=True).returncode == 0:
        return
    for argv in (["ip", "link", "add", "name", BRIDGE, "type", "bridge"],
                 ["ip", "addr", "add", BRIDGE_NET, "dev", BRIDGE],
                 ["ip", "link", "set", "dev", BRIDGE, "up"]):  # fmt: skip
        subprocess.run(argv, check=True, capture_output=True)


def _running(pid: int) -> bool:
    """A live process (a zombie is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# --- faults --------------------------------------------------------------------------------
class Faults(threading.Thread):
    """Kills pool containers at random intervals; restarts the daemon at random progress points."""

    def __init__(self, daemon: Daemon, rng: random.Random, kill_every: float, restarts: int,
                 progress: Any, total: int) -> None:  # fmt: skip
        super().__init__(daemon=True, name="soak-faults")
        self.d, self.rng, self.kill_every = daemon, rng, kill_every
        self.points = sorted(rng.uniform(0.1, 0.85) * total for _ in range(restarts))
        self.progress, self.total = progress, total
        self.done = threading.Event()
        self.killed = 0
        self.kill_errors: Counter[str] = Counter()
        self.outages: list[tuple[float, float, int]] = []  # (at answer, seconds down, killed)
        self.note = ""
        self.error: str | None = None

    def graded(self) -> int:
        return int(self.progress.tasks[0].completed)

    def run(self) -> None:
        try:
            next_kill = time.monotonic() + self.rng.expovariate(1 / self.kill_every)
            while not self.done.wait(0.5):
                if self.points and self.graded() >= self.points[0]:
                    self.points.pop(0)
                    self.restart()
                elif time.monotonic() >= next_kill:
                    self.kill_one()
                    next_kill = time.monotonic() + self.rng.expovariate(1 / self.kill_every)
        except Exception as e:  # reported; main restores the daemon
            self.error = f"{type(e).__name__}: {e}"

    def kill_one(self) -> None:
        ps = self.d.docker("ps", "-q", "--filter", f"label=rlvr.pool={os.getpid()}")
        ids = ps.stdout.split()
        if not ids:
            return
        r = self.d.docker("kill", self.rng.choice(ids))
        if r.returncode == 0:
            self.killed += 1
        else:
            self.kill_errors[(r.stderr.strip().splitlines() or ["?"])[-1][:80]] += 1

    def restart(self) -> None:
        at = self.graded()
        running = len(self.d.docker("ps", "-q").stdout.split())
        self.note = f"restarting dockerd at answer {at}"
        t0 = time.monotonic()
        self.d.stop()
        time.sleep(self.rng.uniform(1, 8))
        self.d.start()
        self.outages.append((at, time.monotonic() - t0, running))
        self.note = f"dockerd restarted {len(self.outages)}x"


# --- main ----------------------------------------------------------------------------------
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--answers", type=int, default=5000)
    ap.add_argument("--stacks", default=",".join(STACKS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--faults", action=argparse.BooleanOptionalAction, default=True)
    ap.add_argument("--restarts", type=int, default=3, help="daemon restarts in the stream")
    ap.add_argument("--kill-every", type=float, default=20.0, help="mean s between kills")
    ap.add_argument("--daemon", choices=("own", "system"), default="own")
    ap.add_argument("--daemon-dir", type=Path, default=Path("/tmp/rlvr-soak"))
    ap.add_argument("--groups-per-call", type=int, default=6)
    ap.add_argument("--out", type=Path, default=None, help="JSON lines, one per answer")
    args = ap.parse_args()
    stacks = [s.strip() for s in args.stacks.split(",") if s.strip()]
    if bad := [s for s in stacks if s not in STACKS]:
        ap.error(f"unknown stacks {bad}; choose from {', '.join(STACKS)}")
    console = Console()
    daemon = Daemon(args.daemon, args.daemon_dir)
    daemon.ensure()
    os.environ["DOCKER_HOST"] = daemon.host  # before rlvr makes its client
    try:
        return soak(args, stacks, daemon, console)
    finally:
        if not daemon.answers():  # whatever happened, leave a daemon that answers
            console.print("the daemon does not answer: starting it again")
            if daemon.pid() is not None:
                daemon.stop()
            daemon.start()
        if args.daemon == "own":
            from rlvr.sandbox.docker import close_all_pools

            close_all_pools()
            daemon.stop()
        system = Daemon("system", args.daemon_dir)
        console.print(f"docker info on {SYSTEM_HOST}: "
                      + ("answers" if system.answers() else "DOES NOT ANSWER"))  # fmt: skip


def grade_stack(env: Any, groups: list[list[Answer]], per_call: int, halt: threading.Event,
                advance: Any, lost: list) -> None:  # fmt: skip
    """Grade one stack's groups, `per_call` groups per `grade_groups` call, in order."""
    for k in range(0, len(groups), per_call):
        if halt.is_set():  # Ctrl-C: the calls in flight finish, no new one starts
            return
        chunk = groups[k : k + per_call]
        call = [(env.task(g[0].task), [a.text for a in g]) for g in chunk]
        for a in (a for g in chunk for a in g):
            a.sent = True
        try:
            rows = env.grade_groups(call, advance)
        except Exception as e:  # every answer of the call is lost
            why = f"grade_groups raised {type(e).__name__}: {str(e)[:200]}"
            lost.extend((a.stack, a.task, why) for g in chunk for a in g)
            advance(sum(len(g) for g in chunk))
            continue
        for g, row in zip(chunk, rows, strict=False):
            if len(row) != len(g):
                lost.append((g[0].stack, g[0].task, f"{len(row)} verdicts for {len(g)}"))
            for a, v in zip(g, row, strict=False):
                a.verdicts.append(v)


def write_lines(path: Path, answers: list[Answer]) -> None:
    """One JSON line per answer: stack, task, kind, how many verdicts, and the verdict."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        for a in answers:
            v = a.verdicts[0] if len(a.verdicts) == 1 else None
            fh.write(json.dumps({
                "stack": a.stack, "task": a.task, "kind": a.kind, "verdicts": len(a.verdicts),
                "status": v and v.status, "reward": v and v.reward, "cause": v and v.cause,
                "reason": v and v.reason,
            }) + "\n")  # fmt: skip


def soak(args: argparse.Namespace, stacks: list[str], daemon: Daemon, console: Console) -> int:
    import rlvr
    from rlvr.sandbox.client import daemon_status
    from rlvr.sandbox.docker import close_all_pools

    rng = random.Random(args.seed)
    envs = {s: rlvr.load_env(s) for s in stacks}
    plan = make_plan(envs, args.answers, args.seed)
    total = sum(len(g) for gs in plan.values() for g in gs)
    lost: list[tuple[str, str, str]] = []
    halt = threading.Event()
    load = [os.getloadavg()[0]]
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("{task.fields[status]}"))  # fmt: skip
    t0 = time.monotonic()
    with Progress(*columns, console=console, transient=False) as progress:
        bar = progress.add_task("grading", total=total, status="")
        faults = (Faults(daemon, rng, args.kill_every, args.restarts, progress, total)
                  if args.faults else None)  # fmt: skip

        def advance(n: int) -> None:
            progress.advance(bar, n)

        threads = [
            threading.Thread(target=grade_stack, name=f"soak-{s}", daemon=True,
                             args=(envs[s], plan[s], args.groups_per_call, halt, advance, lost))
            for s in stacks
        ]  # fmt: skip
        if faults:
            faults.start()
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            try:
                load.append(os.getloadavg()[0])
                note = daemon_status() or (faults.note if faults else "")
                if halt.is_set():
                    note = "stopping: finishing the calls in flight (Ctrl-C again to quit)"
                progress.update(bar, status=note)
                if not console.is_terminal and len(load) % 60 == 0:  # a line a minute in a log
                    done = int(progress.tasks[0].completed)
                    print(f"{time.strftime('%H:%M:%S')} {done}/{total} {note}", flush=True)
                time.sleep(1)
            except KeyboardInterrupt:
                if halt.is_set():
                    raise
                halt.set()
        if faults:
            faults.done.set()
            faults.join()
    wall = time.monotonic() - t0
    close_all_pools()
    left = daemon.docker("ps", "-a", "-q", "--filter", f"label=rlvr.pool={os.getpid()}")
    leaked = len(left.stdout.split()) if left.returncode == 0 else -1
    answers = [a for s in stacks for g in plan[s] for a in g]
    if halt.is_set():  # answers never sent are not lost: the report leaves them out
        answers = [a for a in answers if a.verdicts or a.sent]
    report(console, args, stacks, answers, lost, leaked, faults, wall, load)
    if args.out:
        write_lines(args.out, answers)
    bad = [a for a in answers if len(a.verdicts) != 1]
    ok = (
        not lost
        and not bad
        and leaked == 0
        and all(a.verdicts[0].reward == 1.0 for a in answers if a.kind == "correct")
    )
    return 0 if ok else 1


def report(
    console: Console, args: argparse.Namespace, stacks: list[str], answers: list[Answer],
    lost: list, leaked: int, faults: Faults | None, wall: float, load: list[float],
) -> None:  # fmt: skip
    one = [a for a in answers if len(a.verdicts) == 1]
    v_of = {id(a): a.verdicts[0] for a in one}
    scored = [a for a in one if v_of[id(a)].status == "scored"]
    masked = Counter(
        f"{v_of[id(a)].status} ({v_of[id(a)].cause or '-'}): {v_of[id(a)].reason[:90]}"
        for a in one
        if v_of[id(a)].status != "scored"
    )
    no_verdict = [a for a in answers if len(a.verdicts) != 1]
    print_ = console.print
    print_()
    print_(f"command: python bench/sandbox_soak.py {' '.join(sys.argv[1:])}")
    if len(answers) < args.answers:
        print_(f"stopped early: {len(answers)} of {args.answers} answers sent")
    print_(f"load average (1 min) during the run: start {load[0]:.1f}, mean "
           f"{sum(load) / len(load):.1f}, max {max(load):.1f}; {os.cpu_count()} CPUs; "
           f"wall {wall / 60:.1f} min, {len(one) / wall:.2f} answers/s")  # fmt: skip
    print_()
    lines = ["| | answers |", "| --- | --- |"]
    lines.append(f"| graded (one verdict each) | {len(one)} of {len(answers)} |")
    n1 = sum(v_of[id(a)].reward == 1.0 for a in scored)
    lines.append(f"| scored | {len(scored)} (reward 1: {n1}, reward 0: {len(scored) - n1}) |")
    lines.append(f"| masked | {len(one) - len(scored)} |")
    for why, n in masked.most_common():
        lines.append(f"| - {why} | {n} |")
    lines.append(f"| lost (no verdict, or more than one) | {len(no_verdict)} |")
    lines.append(f"| containers left after the run (`label=rlvr.pool={os.getpid()}`) | "
                 f"{leaked} |")  # fmt: skip
    good = [a for a in answers if a.kind == "correct"]
    passed = sum(id(a) in v_of and v_of[id(a)].reward == 1.0 for a in good)
    lines.append(f"| correct answers that passed | {passed} of {len(good)} |")
    bad_pass = [a for a in one if a.kind != "correct" and v_of[id(a)].reward == 1.0]
    lines.append(f"| other answers that passed (must be 0) | {len(bad_pass)} |")
    if faults:
        downs = ", ".join(f"{s:.0f} s at answer {at} ({n} containers)"
                          for at, s, n in faults.outages)  # fmt: skip
        lines.append(f"| dockerd restarts | {len(faults.outages)}: {downs or '-'} |")
        lines.append(f"| pool containers killed (`docker kill`) | {faults.killed} |")
        if faults.error:
            lines.append(f"| fault thread error | {faults.error} |")
    print_("\n".join(lines), markup=False, highlight=False)
    print_()
    table = ["| stack | kind | answers | reward 1 | reward 0 | masked |",
             "| --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for s in stacks:
        for kind in KINDS:
            rows = [a for a in one if a.stack == s and a.kind == kind]
            if not rows:
                continue
            r1 = sum(v_of[id(a)].reward == 1.0 for a in rows)
            r0 = sum(v_of[id(a)].reward == 0.0 for a in rows)
            table.append(f"| {s} | {kind} | {len(rows)} | {r1} | {r0} | {len(rows) - r1 - r0} |")
    print_("\n".join(table), markup=False, highlight=False)
    causes = Counter((a.kind, v_of[id(a)].cause) for a in scored if v_of[id(a)].reward == 0.0)
    print_()
    why0 = ", ".join(f"{k}/{c}: {n}" for (k, c), n in sorted(causes.items(), key=str))
    print_(f"causes of reward 0 by kind: {why0}", markup=False)
    failed = [a for a in good if id(a) not in v_of or v_of[id(a)].reward != 1.0]
    if failed:
        print_("\ncorrect answers that did not pass:", style="bold red")
        for a in failed:
            v = v_of.get(id(a))
            what = f"{v.status} {v.reward} {v.cause}: {v.reason[:200]}" if v else "no verdict"
            print_(f"  {a.stack} {a.task}: {what}", markup=False)
    for a in bad_pass:
        print_(f"  PASSED but {a.kind}: {a.stack} {a.task}", markup=False, style="bold red")
    for stack, task, why in lost[:20]:
        print_(f"  lost: {stack} {task}: {why}", markup=False, style="bold red")


if __name__ == "__main__":
    sys.exit(main())
