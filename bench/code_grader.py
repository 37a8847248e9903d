"""Benchmark the code grader: HumanEval's canonical solutions, 8 copies each (one GRPO group).

The problems HumanEval's environment judges with typed cases (its function form), graded in
these ways, same parallelism (one worker per CPU):

- pool:  `humaneval` as shipped: the function judge, one driver job per answer in rlvr's warm
         container pool, expected values compared on the host (the 155 problems it judges
         that way; the bench keeps to them); a group's 8 jobs share one `docker exec`.
- pool-single: the same with `batch_size = 1`: one `docker exec` per answer (the path before
         batching).
- check: HumanEval's check() path through the same pool: one `docker exec` per group; per
         answer, an answer server under a fresh uid and a forked judge under another.
- fresh: one new container per job (`containers.run` through the SDK) with the check harness.
- floor: one plain local subprocess per job with the check harness, no isolation at all (the
         answer and `check` in one forked child, as before the boundary existed).
- floor-function: one plain local subprocess per job with the function driver, no isolation.

    python bench/code_grader.py [--limit N] [--copies 8] [--modes pool,pool-single,floor-function]
    python bench/code_grader.py --stacks go,java [--copies 8] [--limit N]

`--stacks` compares function-judged stacks instead: every environment named grades the
references of the problems they share (same entry point and docstring: the 17 hand-written
tasks of `go` and `java`, or `humaneval-go,humaneval-java`) through its pool, the same way
(pool mode), and the run ends with each stack's cost against the first's: wall time per job
and CPU per job.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import rlvr
from rlvr.graders.code.extract import function_program
from rlvr.sandbox.asserts import strict_asserts
from rlvr.sandbox.docker import CAPABILITIES, RUNNER_USER, sandbox_dir
from rlvr.types import Task

ROOT = Path(__file__).resolve().parent.parent
FLOOR_PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


def job_for(task: Task, answer: str, timeout_s: float) -> dict:
    return {
        "job": "bench0", "nonce": "bench-nonce", "answers": [function_program(task.prompt, answer,
        task.entry_point or "")], "prompt": task.prompt, "entry_point": task.entry_point,
        "test": strict_asserts(task.hidden_tests or "", import_line=False),
        "timeout_s": timeout_s, "output_limit": 16384,
    }  # fmt: skip


def parse_result(stdout: bytes) -> bool:
    from rlvr.sandbox.results import CheckResult
    from rlvr.sandbox.results import parse_result as first_result

    res = first_result(stdout, CheckResult)
    return res is not None and [r["outcome"] for r in res.get("results", [])] == ["passed"]


def run_pool(
    env: rlvr.Environment, groups: list[tuple[Task, list[str]]], workers: int, grader: Any = None
):
    """Latency per job = latency of its group (all eight finish together)."""
    grader = grader or env.grader
    grader.grade_group(groups[0][0], groups[0][1][:1])  # warm the pool's first container

    def one(item: tuple[Task, list[str]]) -> tuple[list[float], int]:
        task, answers = item
        t = time.perf_counter()
        verdicts = grader.grade_group(task, answers)
        dt = time.perf_counter() - t
        return [dt] * len(answers), sum(v.passed for v in verdicts)

    return _timed(groups, one, workers)


def run_pool_single(env: rlvr.Environment, groups: list[tuple[Task, list[str]]], workers: int):
    """The function judge with one exec per answer (batch_size 1), same pool size."""
    single = rlvr.load_env("humaneval", grader_options={"pool_size": workers, "batch_size": 1})
    return run_pool(env, groups, workers, single.grader)


def run_check(env: rlvr.Environment, groups: list[tuple[Task, list[str]]], workers: int):
    """The in-process check() harness through the same warm pool (the path before the judge)."""
    from rlvr.graders.code import CodeGrader

    grader = CodeGrader(sandbox={**(env.sandbox or {}), "runner": "python-check"},
                        extract="function", pool_size=workers)  # fmt: skip
    return run_pool(env, groups, workers, grader)


def run_floor_function(env: rlvr.Environment, groups: list[tuple[Task, list[str]]], workers: int):
    """The function driver as a plain local subprocess per job, judged on the host."""
    import tempfile

    from rlvr.functions.judge import judge_cases, read_driver_output
    from rlvr.functions.task import FunctionTask
    from rlvr.functions.translator import load_translator

    tr = load_translator("python")

    def one_job(task: Task, answer: str) -> bool:
        ft = FunctionTask.model_validate(task.meta["function"])
        files = {**tr.driver(ft), "solution.py": tr.program(ft, answer)}
        with tempfile.TemporaryDirectory() as d:
            for name, text in files.items():
                Path(d, name).write_text(text)
            out = subprocess.run([FLOOR_PYTHON, "-I", "-S", "driver.py"], cwd=d,
                                 capture_output=True, text=True, timeout=30)  # fmt: skip
        got = judge_cases(ft, read_driver_output(out.stdout, len(ft.cases)))
        return all(o.outcome == "passed" for o in got)

    return _per_job(groups, one_job, workers)


def run_fresh(env: rlvr.Environment, groups: list[tuple[Task, list[str]]], workers: int):
    """One `docker run` per job with the pool's image, limits and user."""
    from docker.types import Ulimit

    from rlvr.sandbox.client import get_client
    from rlvr.sandbox.spec import load_spec

    spec = load_spec(env.sandbox or {})
    client = get_client()
    runner = str(sandbox_dir() / "runner")
    kw = dict(
        network_mode="none", read_only=True, user=RUNNER_USER, init=True, cap_drop=["ALL"],
        cap_add=CAPABILITIES,
        security_opt=["no-new-privileges"], mem_limit=f"{spec.memory_mb}m",
        memswap_limit=f"{spec.memory_mb}m", pids_limit=spec.pids_limit,
        nano_cpus=int(spec.cpus * 1e9), tmpfs={"/tmp": f"size={spec.tmpfs_mb}m,mode=1777"},
        ulimits=[Ulimit(name="nofile", soft=spec.nofile, hard=spec.nofile)],
        volumes={runner: {"bind": "/opt/rlvr", "mode": "ro"}}, remove=True, stdout=True,
        labels={"rlvr.bench": str(os.getpid())},
    )  # fmt: skip

    def one_job(task: Task, answer: str) -> bool:
        argv = ["python3", "-I", "/opt/rlvr/pycheck.py", "--job-json"]
        argv.append(json.dumps(job_for(task, answer, spec.timeout_s)))
        return parse_result(client.containers.run(spec.image, argv, **kw))

    return _per_job(groups, one_job, workers)


def run_floor(env: rlvr.Environment, groups: list[tuple[Task, list[str]]], workers: int):
    """One local subprocess per job: no container, no limits, same harness."""
    script = str(sandbox_dir() / "runner" / "pycheck.py")
    spec_timeout = float((env.sandbox or {}).get("timeout_s", 6))

    def one_job(task: Task, answer: str) -> bool:
        data = json.dumps(job_for(task, answer, spec_timeout)).encode()
        out = subprocess.run([FLOOR_PYTHON, "-I", script, "--local"], input=data,
                             capture_output=True)  # fmt: skip
        return parse_result(out.stdout)

    return _per_job(groups, one_job, workers)


def _per_job(groups, one_job: Callable[[Task, str], bool], workers: int):
    jobs = [(task, a) for task, answers in groups for a in answers]
    one_job(*jobs[0])  # warm-up, not timed

    def one(item: tuple[Task, str]) -> tuple[list[float], int]:
        t = time.perf_counter()
        ok = one_job(*item)
        return [time.perf_counter() - t], int(ok)

    return _timed(jobs, one, workers)


CGROUP = Path("/sys/fs/cgroup/cpuacct/docker")


def _proc_cpu(pid: int) -> float:
    """utime + stime of `pid`, in seconds; 0 when it is gone."""
    try:
        f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def _cpu() -> dict[str, float]:
    """CPU seconds so far: this process and children, its containers (+ shims), the daemons."""
    import resource

    from rlvr.sandbox.client import get_client

    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = {"host": time.process_time() + kids.ru_utime + kids.ru_stime, "containers": 0.0}
    label = {"label": f"rlvr.pool={os.getpid()}"}
    for c in get_client().containers.list(filters=label, ignore_removed=True):
        try:
            out["containers"] += int((CGROUP / c.id / "cpuacct.usage").read_text()) / 1e9
        except (OSError, ValueError):
            continue
        init = int(c.attrs.get("State", {}).get("Pid") or 0)
        if init:
            shim = int(Path(f"/proc/{init}/stat").read_text().rsplit(")", 1)[1].split()[1])
            out["containers"] += _proc_cpu(shim)  # its reaped children are in the cgroup
    daemons = subprocess.run(["pidof", "dockerd", "containerd"], capture_output=True, text=True)
    out["daemons"] = sum(_proc_cpu(int(p)) for p in daemons.stdout.split())
    return out


def _timed(items: list, fn: Callable, workers: int) -> dict:
    cpu0 = _cpu()
    t0 = time.perf_counter()
    with ThreadPoolExecutor(workers) as ex:
        results = list(ex.map(fn, items))
    wall = time.perf_counter() - t0
    cpu1 = _cpu()
    lat = sorted(x for lats, _ in results for x in lats)
    first = sorted(lats[0] for lats, _ in results)  # the pool: one whole group per item
    passed = sum(p for _, p in results)
    return {
        "jobs": len(lat), "passed": passed, "wall_s": wall, "jobs_per_s": len(lat) / wall,
        "p50_s": statistics.median(lat), "p95_s": lat[max(0, int(0.95 * len(lat)) - 1)],
        "item_p50_s": statistics.median(first),
        "item_p95_s": first[max(0, int(0.95 * len(first)) - 1)],
        **{f"cpu_{k}_ms_per_job": 1000 * (cpu1[k] - cpu0[k]) / len(lat) for k in cpu0},
    }  # fmt: skip


def _problem(task: Task) -> str:
    """The same problem in every stack, whatever id prefix its environment gives it."""
    fn = task.meta["function"]
    return f"{fn['entry_point']}\0{fn.get('docstring', '')}"


def run_stacks(names: list[str], copies: int, workers: int, limit: int | None) -> dict:
    """Each stack environment grades the references of the tasks all of them share."""
    from rlvr.references import reference_completion

    envs = {n: rlvr.load_env(n, grader_options={"pool_size": workers}) for n in names}
    by_id = {n: {_problem(t): t for t in env.tasks() if t.reference} for n, env in envs.items()}
    common = sorted(set.intersection(*(set(tasks) for tasks in by_id.values())))[:limit]
    print(f"{len(common)} tasks x {copies} copies in {', '.join(names)}, {workers} workers, "
          f"load average {os.getloadavg()}")  # fmt: skip
    out = {}
    for n in names:
        tasks = [by_id[n][i] for i in common]
        groups = [(t, [reference_completion(envs[n], t)] * copies) for t in tasks]
        r = out[n] = run_pool(envs[n], groups, workers)
        r["cpu_ms_per_job"] = r["cpu_host_ms_per_job"] + r["cpu_containers_ms_per_job"]
        print(f"{n:16s} {r['jobs_per_s']:6.2f} jobs/s  wall per job {1 / r['jobs_per_s']:.3f} s  "
              f"group p50 {r['item_p50_s']:.2f} s  CPU per job {r['cpu_ms_per_job']:7.1f} ms  "
              f"passed {r['passed']}/{r['jobs']}", flush=True)  # fmt: skip
    first = names[0]
    for n in names[1:]:
        wall = out[first]["jobs_per_s"] / out[n]["jobs_per_s"]
        cpu = out[n]["cpu_ms_per_job"] / out[first]["cpu_ms_per_job"]
        print(f"{n} / {first}: {wall:.2f}x wall time per job, {cpu:.2f}x CPU per job")
    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}")
    return out


MODES = {"pool": run_pool, "pool-single": run_pool_single, "check": run_check,
         "fresh": run_fresh, "floor": run_floor, "floor-function": run_floor_function}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="first N HumanEval tasks only")
    ap.add_argument("--copies", type=int, default=8, help="answers per task (GRPO group size)")
    ap.add_argument("--modes", default="pool,pool-single,check,floor-function")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", action="store_true", help="also print one JSON line of results")
    ap.add_argument("--stacks", default=None, help="compare these stack environments instead")
    args = ap.parse_args()
    if args.stacks:
        got = run_stacks(args.stacks.split(","), args.copies, args.workers, args.limit)
        if args.json:
            print(json.dumps(got))
        return
    env = rlvr.load_env("humaneval", grader_options={"pool_size": args.workers})
    tasks = [t for t in env.tasks() if t.meta.get("judge") == "function"]
    tasks = tasks[: args.limit] if args.limit else tasks
    groups = [(t, [(t.reference or "")[len(t.prompt) :]] * args.copies) for t in tasks]
    print(f"{len(tasks)} tasks x {args.copies} copies = {len(tasks) * args.copies} jobs, "
          f"{args.workers} workers, floor interpreter {FLOOR_PYTHON}, "
          f"load average {os.getloadavg()}")  # fmt: skip
    out: dict[str, dict] = {}
    for mode in args.modes.split(","):
        r = MODES[mode](env, groups, args.workers)
        out[mode] = r
        print(f"{mode:6s} {r['jobs_per_s']:8.1f} jobs/s  p50 {r['p50_s'] * 1000:7.1f} ms  "
              f"p95 {r['p95_s'] * 1000:7.1f} ms  passed {r['passed']}/{r['jobs']}  "
              f"wall {r['wall_s']:.1f} s", flush=True)  # fmt: skip
        own = r["cpu_host_ms_per_job"] + r["cpu_containers_ms_per_job"]
        r["cpu_ms_per_job"] = own
        print(
            f"{mode} CPU per job: {own:6.1f} ms (host {r['cpu_host_ms_per_job']:.1f}, "
            f"containers {r['cpu_containers_ms_per_job']:.1f}); dockerd+containerd "
            f"{r['cpu_daemons_ms_per_job']:.1f} ms (shared with other work)",
            flush=True,
        )
        if mode.startswith("pool"):
            print(f"{mode} per group of {args.copies}: p50 {r['item_p50_s'] * 1000:7.1f} ms  "
                  f"p95 {r['item_p95_s'] * 1000:7.1f} ms", flush=True)  # fmt: skip
    for mine in ("pool", "pool-single"):
        for other in ("pool-single", "check", "fresh", "floor", "floor-function"):
            if mine in out and other in out and other != mine:
                ratio = out[mine]["jobs_per_s"] / out[other]["jobs_per_s"]
                per_cpu = out[other]["cpu_ms_per_job"] / out[mine]["cpu_ms_per_job"]
                print(
                    f"{mine} / {other}: {ratio:.2f}x throughput (wall clock), "
                    f"{per_cpu:.2f}x jobs per CPU second"
                )
    print(f"load average (1, 5, 15 min) at the end: {os.getloadavg()}")
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
