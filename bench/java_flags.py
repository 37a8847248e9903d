"""What a Java answer's job costs under each way of compiling and running it, in rlvr-java's image.

    python bench/java_flags.py [--task java-top-words] [--runs 5]

Writes one task's case file and reference (the `java` environment's) to a temporary folder,
then runs each variant `--runs` times in one container limited to one CPU and prints the
fastest and median wall and CPU (user + sys) seconds: javac then java (two JVMs, as a
javac-based driver would), and rlvr.FunctionDriver compiling in its own JVM with the default
flags, C1 only and the serial collector, and the image's class-data-sharing archive.
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

import rlvr
from rlvr.functions.task import FunctionTask
from rlvr.functions.translator import load_translator

HOME = "/usr/local/share/rlvr-java"
IN_CONTAINER = r"""
import resource, shutil, subprocess, sys, time
HOME, runs = sys.argv[1], int(sys.argv[2])
for f in ("Solution.java", "rlvr-cases.json"):
    shutil.copy("/w/" + f, "/tmp/" + f)
fast = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData"]
driver = ["-cp", HOME + "/rlvr-java.jar", "rlvr.FunctionDriver", "rlvr-cases.json", "Solution.java"]
cds = ["-XX:SharedArchiveFile=" + HOME + "/rlvr-java.jsa"]
two = "javac {j} -d /tmp/o Solution.java && java {f} -cp /tmp/o -version"
jflags = " ".join("-J" + f for f in fast)
variants = {
    "javac + java (two JVMs)": ["sh", "-c", two.format(j="", f="")],
    "javac + java, C1, serial GC": ["sh", "-c", two.format(j=jflags, f=" ".join(fast))],
    "one JVM, default flags": ["java", *driver],
    "one JVM, C1, serial GC": ["java", *fast, *driver],
    "one JVM, CDS, serial GC (C2 on)": ["java", *fast[1:], *cds, *driver],
    "one JVM, CDS, C1, serial GC": ["java", *fast, *cds, *driver],
    "one JVM, CDS, interpreter only": ["java", "-Xint", *fast[1:], *cds, *driver],
}
for name, cmd in variants.items():
    walls, cpus = [], []
    for _ in range(runs):
        r0, t = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd="/tmp")
        walls.append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        assert p.returncode == 0, (name, p.stderr[-500:])
    walls.sort()
    cpus.sort()
    m = runs // 2
    row = f"| {name} | {walls[0]:.2f} / {walls[m]:.2f} | {cpus[0]:.2f} / {cpus[m]:.2f} |"
    print(row, flush=True)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--task", default="java-top-words")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    env = rlvr.load_env("java")
    task = env.task(args.task)
    tr = load_translator("java")
    ftask = FunctionTask.model_validate(task.meta["function"])
    with tempfile.TemporaryDirectory() as d:
        for name, text in {**tr.driver(ftask), "Solution.java": task.reference or ""}.items():
            Path(d, name).write_text(text, encoding="utf-8")
        Path(d, "bench.py").write_text(IN_CONTAINER)
        print("| variant | wall s, fastest / median | CPU s, fastest / median |")
        print("| --- | --- | --- |", flush=True)
        image = (env.sandbox or {}).get("image", "rlvr-java:bookworm")
        cmd = ["docker", "run", "--rm", "--cpus=1", "--network=none", "-v", f"{d}:/w:ro"]
        cmd += [image, "python3", "/w/bench.py", HOME, str(args.runs)]
        subprocess.run(cmd, check=True)


if __name__ == "__main__":
    main()
