"""The sandbox runner's exit codes when its sweep (`reap`, a wait on any child) collects a
program before the runner reads its status: Popen then reads ECHILD as exit code 0, so a
program killed at its time limit read as a success to the judge's `ws.run`.

Each case runs in a fresh interpreter: `reap` waits on every child of its process, which in a
test worker would include other tests' processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

RUNNER = Path(__file__).resolve().parents[1] / "sandbox" / "runner"
PRELUDE = f"""
import os, signal, subprocess, sys, time
sys.path.insert(0, {str(RUNNER)!r})
import sweep

def zombie(proc):
    while True:  # until it has exited and waits to be collected
        with open(f"/proc/{{proc.pid}}/stat") as fh:
            if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
                return proc
        time.sleep(0.01)
"""
CASES = {
    "Popen alone, after the sweep (the bug)": (
        "proc = subprocess.Popen(['sleep', '30'])\n"
        "os.kill(proc.pid, signal.SIGKILL); zombie(proc); sweep.reap()\n"
        "print(proc.wait())  # ECHILD, read as success",
        0,
    ),
    "killed, collected by the sweep": (
        "proc = sweep.tracked(subprocess.Popen(['sleep', '30']))\n"
        "os.kill(proc.pid, signal.SIGKILL); zombie(proc); sweep.reap()\n"
        "code = sweep.exit_status(proc)\n"
        "assert proc.poll() == -9  # the Popen holds it too: nothing polls the freed pid again\n"
        "print(code)",
        -9,
    ),
    "exit 3, collected by the sweep": (
        "proc = zombie(sweep.tracked(subprocess.Popen(['sh', '-c', 'exit 3'])))\n"
        "sweep.reap(); print(sweep.exit_status(proc))",
        3,
    ),
    "waited for by the runner itself": (
        "proc = sweep.tracked(subprocess.Popen(['sh', '-c', 'exit 5']))\n"
        "proc.wait(); sweep.reap(); print(sweep.exit_status(proc))",
        5,
    ),
    "still running after the sweep: killed": (
        "proc = sweep.tracked(subprocess.Popen(['sleep', '30']))\n"
        "sweep.reap(); print(sweep.exit_status(proc))",
        -9,
    ),
    "collected by the runner, then its pid recorded for another process": (
        "proc = sweep.tracked(subprocess.Popen(['sh', '-c', 'exit 1']))\n"
        "proc.wait(); sweep.REAPED[proc.pid] = 0  # a later process given the same pid\n"
        "print(sweep.exit_status(proc))",
        1,
    ),
    "a stale record of a reused pid": (
        "proc = subprocess.Popen(['sh', '-c', 'exit 0'])\n"
        "sweep.REAPED[proc.pid] = -9  # an earlier program with this pid, killed\n"
        "sweep.tracked(proc); proc.wait(); print(sweep.exit_status(proc))",
        0,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_exit_status_survives_the_sweep(case: str) -> None:
    code, expected = CASES[case]
    run = subprocess.run([sys.executable, "-c", PRELUDE + code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert int(run.stdout.strip()) == expected
