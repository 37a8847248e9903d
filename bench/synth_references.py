"""Check every synth reference in its stack's sandbox image, many tasks per container.

`rlvr envs validate --references synth-<stack>` is the authority: one sandbox job per task,
which on a small shared machine takes hours for go and rust (a compile and a link per task).
This bench runs the same translators' drivers in bulk: python and javascript run each task's
own driver in a loop inside one container; go and rust compile one program per chunk of tasks
out of the drivers' own case calls (one link instead of one per task). Every result line is
judged on the host by rlvr.functions.judge, as the function grader does. Containers run with no
network, all capabilities dropped, as the sandbox uid, with memory and pid limits.

Prints per stack: tasks checked, passed, each failure with its first failing case, seconds.

Run: python bench/synth_references.py [--stacks python,javascript,go,rust] [--limit N]
(needs Docker and the stack images: rlvr sandbox build <stack>)
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rlvr.functions.judge import judge_cases, read_driver_output
from rlvr.functions.task import FunctionTask, read_function_tasks
from rlvr.functions.translator import load_translator
from rlvr.graders.code.function import stack_sandbox

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "datasets" / "synth" / "functions.jsonl"
MARK = "@@RLVR-TASK "
RUST_ATTRS = "#![allow(unused_imports, dead_code, unused_variables, unused_mut, non_snake_case)]\n"


def answer(tr: Any, task: FunctionTask) -> str:
    """The answer file the grader would build from the fenced reference."""
    program = tr.program(task, f"```{tr.LANGUAGES[0]}\n{task.references[tr.STACK]}```\n")
    if program is None:
        raise ValueError(f"{task.id}: the {tr.STACK} translator finds no code in the reference")
    return program


def loop_job(tr: Any, tasks: list[FunctionTask]) -> tuple[dict[str, str], str]:
    """Each task's own driver and answer in jobs/<n>/, run one after the other."""
    files: dict[str, str] = {}
    for n, task in enumerate(tasks):
        for path, text in {**tr.driver(task), tr.SANDBOX["answer_file"]: answer(tr, task)}.items():
            files[f"jobs/{n:05d}/{path}"] = text
    cmd = shlex.join(tr.SANDBOX["test_command"])
    script = (
        "for d in jobs/*/; do n=$(basename $d); printf '\\n%s%s\\n' '" + MARK + "' $n; "
        f'(cd "$d" && timeout 20 {cmd}); done\n'
    )
    return files, script


def go_job(tr: Any, tasks: list[FunctionTask], chunk: int) -> tuple[dict[str, str], str]:
    """One main package per chunk calling the tasks' packages t<n>, from the drivers' calls."""
    files = {"go.mod": "module rlvrjob\n\ngo 1.19\n"}
    for start in range(0, len(tasks), chunk):
        imports, calls, head = [], [], ""
        for n in range(start, min(start + chunk, len(tasks))):
            task, pkg = tasks[n], f"t{n:05d}"
            files[f"{pkg}/solution.go"] = re.sub(
                r"(?m)^package solution\b", f"package {pkg}", answer(tr, task), count=1
            )
            main = tr.driver(task)["main.go"]
            head, body = main.split("\nfunc main() {\n", 1)
            imports.append(f'\t{pkg} "rlvrjob/{pkg}"\n')
            calls.append(f'\trlvrEmit("{MARK}{n:05d}")\n')
            calls.append(re.sub(r"\bsol\.", f"{pkg}.", body.rsplit("\n}", 1)[0]) + "\n")
        assert '\tsol "rlvrjob/solution"\n' in head, "the go driver's layout changed"
        head = head.replace('\tsol "rlvrjob/solution"\n', "".join(imports))
        files[f"cmd/c{start:05d}/main.go"] = f"{head}\nfunc main() {{\n{''.join(calls)}}}\n"
    script = (
        "export GOCACHE=/tmp/gocache GOFLAGS=-mod=mod GOPROXY=off CGO_ENABLED=0\n"
        "mkdir -p /tmp/bin && go build -o /tmp/bin/ ./cmd/... && for b in /tmp/bin/*; do $b; done\n"
    )
    return files, script


def rust_job(tr: Any, tasks: list[FunctionTask], chunk: int) -> tuple[dict[str, str], str]:
    """One crate per chunk: each answer in `mod t<n>`, main made of the drivers' case calls."""
    files, builds = {}, []
    for start in range(0, len(tasks), chunk):
        mods, calls, helpers = [], [], ""
        for n in range(start, min(start + chunk, len(tasks))):
            task, mod = tasks[n], f"t{n:05d}"
            name = tr.entry_name(task)
            program = re.sub(rf"(?m)^fn {name}\b", f"pub fn {name}", answer(tr, task))
            mods.append(f"mod {mod} {{\n{program}\n}}\n")
            main = tr.driver(task)["main.rs"]
            helpers, body = main.split('include!("solution.rs");\n', 1)[1].split("\nfn main() {\n")
            calls.append(f'    println!("\\n{MARK}{n:05d}");\n')
            body = body.rsplit("\n}", 1)[0].replace(f"|| {name}(", f"|| {mod}::{name}(")
            calls.append(body + "\n")
        src = f"{RUST_ATTRS}{helpers}{''.join(mods)}\nfn main() {{\n{''.join(calls)}}}\n"
        files[f"c{start:05d}.rs"] = src
        builds.append(
            f"rustc --edition 2021 -C opt-level=0 -C debuginfo=0 -o /tmp/bin/c{start:05d} "
            f"c{start:05d}.rs && /tmp/bin/c{start:05d}"
        )
    return files, "mkdir -p /tmp/bin\n" + "\n".join(builds) + "\n"


def run_container(image: str, files: dict[str, str], script: str, timeout: float) -> str:
    """Write the files, run the script in the image (no network, sandbox uid); stdout+stderr."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for path, text in {**files, "run.sh": script}.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        root.chmod(0o755)
        for p in root.rglob("*"):
            p.chmod(0o755 if p.is_dir() else 0o644)
        argv = [
            "docker", "run", "--rm", "--network", "none", "--user", "10001:10001",
            "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--pids-limit", "512",
            "--memory", "6g", "--tmpfs", "/tmp:rw,exec,size=3g", "-e", "HOME=/tmp",
            "-e", "TMPDIR=/tmp", "-v", f"{root}:/w:ro", image,
            "sh", "-c", "cp -r /w /tmp/w && cd /tmp/w && sh run.sh 2>&1",
        ]  # fmt: skip
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        return done.stdout + done.stderr


def judge_all(tasks: list[FunctionTask], output: str) -> list[tuple[str, str]]:
    """(task id, why) for each task whose driver output does not pass every case."""
    segments: dict[int, str] = {}
    for part in output.split(f"\n{MARK}")[1:]:
        head, _, rest = part.partition("\n")
        if head.strip().isdigit():
            segments[int(head)] = rest
    failures = []
    for n, task in enumerate(tasks):
        text = segments.get(n)
        if text is None:
            failures.append((task.id, "no output (build failed?): " + output[-400:]))
            continue
        outcomes = judge_cases(task, read_driver_output(text, len(task.cases)))
        bad = [o for o in outcomes if o.outcome != "passed"]
        if bad:
            failures.append((task.id, f"case {bad[0].case}: {bad[0].outcome} {bad[0].reason}"))
    return failures


def check_stack(stack: str, tasks: list[FunctionTask], chunk: int) -> tuple[int, list, float]:
    tr = load_translator(stack)
    kept = [t for t in tasks if tr.unsupported(t) is None]
    build = {"go": go_job, "rust": rust_job}.get(stack)
    files, script = build(tr, kept, chunk) if build else loop_job(tr, kept)
    image = stack_sandbox(tr)["image"]
    start = time.perf_counter()
    output = run_container(image, files, script, timeout=4 * 3600)
    failures = judge_all(kept, output)
    untranslated = [(t.id, tr.unsupported(t)) for t in tasks if tr.unsupported(t) is not None]
    return len(kept), failures + untranslated, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stacks", default="python,javascript,go,rust")
    ap.add_argument("--limit", type=int, default=None, help="check the first N tasks")
    ap.add_argument("--chunk", type=int, default=300, help="go/rust tasks per program")
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    tasks = read_function_tasks(args.data)[: args.limit]
    failed_any = False
    for stack in args.stacks.split(","):
        n, failures, seconds = check_stack(stack, tasks, args.chunk)
        print(f"{stack}: {n - len(failures)}/{len(tasks)} references pass in {seconds:.0f} s")
        for tid, why in failures[:50]:
            print(f"  FAIL {tid}: {why[:300]}")
        failed_any |= bool(failures)
    sys.exit(1 if failed_any else 0)


if __name__ == "__main__":
    main()
