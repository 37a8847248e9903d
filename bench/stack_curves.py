"""Learning shown per stack: tiny-code -> SFT -> GRPO -> held-out pass@1, on synth-<stack>.

    python bench/stack_curves.py --out runs/stack-curves                  # all four stacks
    python bench/stack_curves.py --out runs/stack-curves --stacks python  # one stack
    python bench/stack_curves.py --out /tmp/sc --stacks python --quick    # tiny budgets (a test)

For each stack the bench runs rlvr's own commands, as a user would, in a subprocess each:

1. `rlvr sft --model tiny-code --split train`: the warm start on train-split references, all but
   a seeded slice of train tasks (the pool), which the warm start never sees;
2. `rlvr frontier` on the pool at the SFT model's pass rate: GRPO's tasks are the pool tasks
   inside the band (the project's difficulty-mix tool). Holding the pool out of SFT makes the
   frontier measure what the warm start generalises to, as on held-out tasks, instead of what
   it memorised, and gives GRPO tasks whose answers it has not been shown;
3. `rlvr eval` of the SFT model on the test split (sampled pass@1, n answers per task);
4. `rlvr train --algo grpo` from the SFT model on the frontier tasks with sandbox grading,
   evaluating on the test split every `eval_every` steps (the held-out curve);
5. `rlvr eval` of the GRPO run's newest checkpoint on the same test tasks;
6. `rlvr eval --compare`: the paired per-task difference, its interval and p-value.

Every stage is skipped when OUT/<stack>/stages.json says it finished (its CPU figures are kept
there), so a killed bench started again goes on where it stopped; `rlvr eval` and `rlvr train`
also resume their own half-done folders. The table goes to stdout and OUT/results.json; the
four held-out curves to OUT/stack_curves.png and OUT/index.html.

CPU time, as counted here: user + system time of each stage's process tree (getrusage of the
waited children, so every process the stage started and reaped), plus the CPU time of the
sandbox containers the stage's processes started (each container's cgroup `cpuacct.usage`,
sampled every 2 s while it lives, so up to 2 s of a container's last work can be
missed). Not counted: the Docker daemon's and containerd's own work for exec calls, which
other engineers' containers share.

Tuning was done on train-split figures (the frontier's pass rates, GRPO's training reward),
never on the test split. Results and their command: bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

ROOT = Path(__file__).resolve().parents[1]
STACKS = ("python", "javascript", "go", "rust")
CGROUP = Path("/sys/fs/cgroup/cpuacct/docker")


class Recipe(BaseModel):
    """Budgets and settings of one stack's run; `quick()` shrinks them for a test."""

    model_config = ConfigDict(extra="forbid")

    sft_steps: int = Field(default=800, description="Warm-start optimiser steps.")
    sft_batch: int = Field(default=16, description="References per SFT step.")
    sft_lr: float = Field(default=3e-3, description="SFT peak learning rate.")
    pool_tasks: int = Field(default=200, description="Train tasks the frontier estimate samples.")
    frontier_k: int = Field(default=8, description="Answers per pool task for its pass rate.")
    band: tuple[float, float] = Field(default=(0.0, 1.0), description="Kept pass-rate band.")
    steps: int = Field(default=40, description="GRPO steps.")
    lr: float = Field(default=1e-4, description="GRPO peak learning rate.")
    warmup_steps: int = Field(default=10, description="GRPO linear warm-up steps.")
    group_size: int = Field(default=8, description="GRPO G.")
    prompts_per_step: int = Field(default=8, description="Tasks per GRPO step.")
    temperature: float = Field(default=1.0, description="Sampling temperature of GRPO.")
    max_new_tokens: int = Field(default=160, description="Completion cap (train and eval).")
    eval_every: int = Field(default=10, description="Held-out evaluation every N GRPO steps.")
    eval_tasks: int = Field(default=64, description="Held-out tasks per evaluation in training.")
    eval_samples: int = Field(default=2, description="Answers per held-out task in training.")
    test_tasks: int = Field(default=200, description="Test tasks of the before/after evals.")
    test_samples: int = Field(default=4, description="Answers per test task (sampled pass@1).")

    @staticmethod
    def quick() -> Recipe:
        return Recipe(
            sft_steps=2, sft_batch=2, pool_tasks=3, frontier_k=2, steps=2, group_size=2,
            prompts_per_step=2, max_new_tokens=16, eval_every=1, eval_tasks=2, eval_samples=1,
            test_tasks=3, test_samples=1,
        )  # fmt: skip


MAX_NEW_TOKENS = {"python": 128, "javascript": 160, "go": 192, "rust": 192}


def recipe_for(stack: str, quick: bool) -> Recipe:
    """The recipe of a stack: the defaults with its completion cap (its longest references)."""
    if quick:
        return Recipe.quick()
    return Recipe(max_new_tokens=MAX_NEW_TOKENS[stack])


# ---------------------------------------------------------------- CPU time of a stage


def _descendants(root: int) -> set[int]:
    """Pids of `root` and every process below it (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out, todo = set(), [root]
    while todo:
        pid = todo.pop()
        out.add(pid)
        todo.extend(children.get(pid, []))
    return out


class ContainerMeter:
    """Polls the CPU time of the sandbox containers a process tree owns (rlvr.pool=<pid>).

    Cheap on a loaded machine: one container listing every `every` seconds, and a /proc scan
    only when a container names a pool pid not seen before."""

    def __init__(self, root_pid: int, every: float = 2.0) -> None:
        self.root_pid, self.every = root_pid, every
        self.usage_ns: dict[str, int] = {}
        self.ours: dict[int, bool] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> ContainerMeter:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _poll(self, client: Any) -> None:
        for c in client.containers.list(filters={"label": "rlvr.pool"}, ignore_removed=True):
            pid = int((c.labels or {}).get("rlvr.pool", "0"))
            if pid not in self.ours:
                tree = _descendants(self.root_pid)
                self.ours[pid] = pid in tree
            if not self.ours[pid]:
                continue
            try:
                ns = int((CGROUP / c.id / "cpuacct.usage").read_text())
            except (OSError, ValueError):
                continue
            self.usage_ns[c.id] = max(ns, self.usage_ns.get(c.id, 0))

    def _run(self) -> None:
        import docker

        try:
            client = docker.from_env()
        except Exception:  # no daemon (the unsafe local judge's hosts): no containers to meter
            return
        while not self._stop.wait(self.every):
            try:
                self._poll(client)
            except Exception:  # a container removed mid-listing: try again next second
                continue

    @property
    def seconds(self) -> float:
        return sum(self.usage_ns.values()) / 1e9


def run_stage(name: str, argv: list[str], log: Path) -> dict[str, float]:
    """Run `python -m rlvr.cli ARGV` with this tree first on the path; its CPU and wall time."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env.setdefault("HF_HUB_OFFLINE", "1")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.time()
    print(f"  {name}: rlvr {' '.join(argv)}", flush=True)
    with log.open("a", encoding="utf-8") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "rlvr.cli", *argv], stdout=fh, stderr=fh, env=env
        )
        with ContainerMeter(proc.pid) as meter:
            code = proc.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if code != 0:
        tail = log.read_text(encoding="utf-8", errors="replace")[-3000:]
        raise SystemExit(f"stage {name} failed (exit {code}); log {log}:\n{tail}")
    procs = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"process_cpu_s": procs, "container_cpu_s": meter.seconds, "wall_s": time.time() - start}


# ---------------------------------------------------------------- the stages of one stack


class StackRun:
    """One stack's folder: its stages, their records (stages.json), its figures."""

    model = "tiny-code"
    """The warm start's starting model (bench/gpu_code_curves.py uses SmolLM2)."""
    sft_flags: tuple[str, ...] = ()
    """More `rlvr sft` flags (e.g. --lora-rank)."""
    grpo_settings: dict[str, Any] = {}  # noqa: RUF012 - read only; subclasses replace it
    """More GRPO config fields (e.g. device, bf16)."""

    def __init__(self, out: Path, stack: str, recipe: Recipe) -> None:
        self.stack, self.recipe = stack, recipe
        self.env = f"synth-{stack}"
        self.dir = out / stack
        self.dir.mkdir(parents=True, exist_ok=True)
        self.record_path = self.dir / "stages.json"
        self.done: dict[str, dict[str, float]] = (
            json.loads(self.record_path.read_text()) if self.record_path.is_file() else {}
        )
        self._check_recipe()

    def _check_recipe(self) -> None:
        path = self.dir / "recipe.json"
        now = self.recipe.model_dump(mode="json")
        if path.is_file() and json.loads(path.read_text()) != now:
            raise SystemExit(
                f"{self.dir} was run with another recipe ({path}); use a new --out to change "
                "settings, or the same flags to resume"
            )
        path.write_text(json.dumps(now, indent=1))

    def stage(self, name: str, argv: list[str]) -> None:
        if name in self.done:
            print(f"  {name}: done before, skipped", flush=True)
            return
        self.done[name] = run_stage(name, argv, self.dir / f"{name}.log")
        self.record_path.write_text(json.dumps(self.done, indent=1))

    def pool_file(self) -> Path:
        """A seeded slice of the train split's task ids: where the frontier is looked for."""
        import rlvr

        path = self.dir / "pool.jsonl"
        if not path.is_file():
            env = rlvr.load_env(self.env)
            ids = sorted(t.id for t in env.tasks_in("train"))
            chosen = random.Random(f"pool-{self.stack}").sample(ids, self.recipe.pool_tasks)
            path.write_text("".join(json.dumps({"id": i}) + "\n" for i in chosen))
        return path

    def sft_file(self) -> Path:
        """The warm start's tasks: the train split without the pool."""
        import rlvr

        path = self.dir / "sft_tasks.jsonl"
        if not path.is_file():
            pool = {json.loads(line)["id"] for line in self.pool_file().open()}
            ids = sorted(
                t.id for t in rlvr.load_env(self.env).tasks_in("train") if t.id not in pool
            )
            path.write_text("".join(json.dumps({"id": i}) + "\n" for i in ids))
        return path

    def run(self) -> None:
        r, d, env = self.recipe, self.dir, ["--env", self.env]
        # one torch thread: a folder model would get torch's default, whose spinning intra-op
        # threads cost CPU time and wall time on a shared, oversubscribed machine
        tokens = ["--max-new-tokens", str(r.max_new_tokens), "--threads", "1"]
        test = ["--split", "test", "-n", str(r.test_samples), "--n-tasks", str(r.test_tasks)]
        sft = ["--steps", str(r.sft_steps), "--batch-size", str(r.sft_batch), "--lr", str(r.sft_lr)]
        self.stage("sft", ["sft", *env, "--model", self.model, "--split", "train", *sft,
                           *self.sft_flags,
                           "--tasks", str(self.sft_file()), "--threads", "1",
                           "--out", str(d / "sft")])  # fmt: skip
        band = ["-k", str(r.frontier_k), "--low", str(r.band[0]), "--high", str(r.band[1])]
        self.stage("frontier", ["frontier", *env, "--model", str(d / "sft"), "--split", "train",
                                "--tasks", str(self.pool_file()), *band, *tokens,
                                "--out", str(d / "frontier.jsonl")])  # fmt: skip
        self.stage("eval_sft", ["eval", *env, "--model", str(d / "sft"), *test, *tokens,
                                "--out", str(d / "eval-sft")])  # fmt: skip
        self.stage("grpo", ["train", *env, "--model", str(d / "sft"), "--algo", "grpo",
                            "--steps", str(r.steps), "--split", "train",
                            "--tasks", str(self.grpo_tasks()), *self.grpo_sets(),
                            "--out", str(d / "grpo")])  # fmt: skip
        self.stage("eval_grpo", ["eval", *env, "--model", str(d / "grpo"), *test, *tokens,
                                 "--out", str(d / "eval-grpo")])  # fmt: skip
        self.stage("report", ["report", str(d / "grpo")])

    def grpo_tasks(self) -> Path:
        """GRPO's tasks: the frontier's, or the whole pool when no pool task is in the band
        (a model that passes nothing, as after --quick's two SFT steps)."""
        frontier = self.dir / "frontier.jsonl"
        return frontier if frontier.read_text().strip() else self.pool_file()

    def grpo_sets(self) -> list[str]:
        """The recipe's GRPO settings as `--set key=value` flags."""
        r = self.recipe
        settings = {
            "lr": r.lr, "warmup_steps": r.warmup_steps, "group_size": r.group_size,
            "prompts_per_step": r.prompts_per_step,
            "temperature": r.temperature, "max_new_tokens": r.max_new_tokens,
            "eval_every": r.eval_every, "eval_tasks": r.eval_tasks,
            "eval_samples": r.eval_samples, "save_every": 0, "threads": 1,
            **self.grpo_settings,
        }  # fmt: skip
        return [x for k, v in settings.items() for x in ("--set", f"{k}={json.dumps(v)}")]

    def figures(self) -> dict[str, Any]:
        """The stack's row: pass@1 after SFT and after GRPO, the paired test, CPU minutes."""
        sys.path.insert(0, str(ROOT))
        from rlvr.evaluation.compare import compare_evals

        paired, _ = compare_evals(self.dir / "eval-sft", self.dir / "eval-grpo")
        sft = json.loads((self.dir / "eval-sft" / "summary.json").read_text())
        grpo = json.loads((self.dir / "eval-grpo" / "summary.json").read_text())
        cpu = {k: (v["process_cpu_s"] + v["container_cpu_s"]) / 60 for k, v in self.done.items()}
        pool = sum(1 for _ in self.pool_file().open())
        kept = sum(1 for _ in (self.dir / "frontier.jsonl").open())
        return {
            "stack": self.stack,
            "env": self.env,
            "n_tasks": paired.n_tasks,
            "sft": sft["pass@1"],
            "grpo": grpo["pass@1"],
            "diff": paired.diff,
            "diff_ci95": paired.ci95,
            "p_value": paired.p_value,
            "test": paired.test,
            "cpu_min": sum(cpu.values()),
            "cpu_min_by_stage": cpu,
            "container_cpu_min": sum(v["container_cpu_s"] for v in self.done.values()) / 60,
            "wall_min": sum(v["wall_s"] for v in self.done.values()) / 60,
            "frontier_kept": f"{kept}/{pool}",
            "recipe": self.recipe.model_dump(mode="json"),
            "curve": held_out_curve(self.dir / "grpo" / "metrics.jsonl"),
        }


def held_out_curve(metrics: Path) -> list[dict[str, Any]]:
    """The evaluation rows of a GRPO run: step, pass@1 and its interval."""
    rows = [json.loads(line) for line in metrics.read_text().splitlines() if line.strip()]
    return [
        {"step": r["step"], "pass@1": r["eval/pass@1"], "ci95": r["eval/pass@1_ci95"]}
        for r in rows
        if "eval/pass@1" in r
    ]


# ---------------------------------------------------------------- table, plot, page


def _est(e: dict[str, Any]) -> str:
    lo, hi = e["ci95"] if e.get("ci95") else (float("nan"), float("nan"))
    return f"{e['mean']:.3f} [{lo:.3f}, {hi:.3f}]"


def table(rows: list[dict[str, Any]]) -> str:
    """A markdown table of the rows (the bench's result)."""
    head = (
        "| stack | SFT warm start | held-out tasks | pass@1 after SFT [95%] | "
        "pass@1 after GRPO [95%] | GRPO - SFT [95%] | p (paired) | CPU min |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |\n"
    )
    lines = []
    for r in rows:
        rec, (lo, hi) = r["recipe"], r["diff_ci95"]
        sft = f"{rec['sft_steps']} steps x {rec['sft_batch']}"
        lines.append(
            f"| synth-{r['stack']} | {sft} | {r['n_tasks']} x {rec['test_samples']} | "
            f"{_est(r['sft'])} | {_est(r['grpo'])} | {r['diff']:+.3f} [{lo:+.3f}, {hi:+.3f}] | "
            f"{r['p_value']:.2g} | {r['cpu_min']:.1f} |"
        )
    return head + "\n".join(lines) + "\n"


def plot(rows: list[dict[str, Any]], path: Path) -> Path:
    """One panel per stack: held-out pass@1 during GRPO (interval band), SFT and GRPO evals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(rows), figsize=(3.6 * len(rows), 3.2), dpi=90, squeeze=False)
    for ax, r in zip(axes[0], rows, strict=True):
        steps = [c["step"] for c in r["curve"]]
        ax.plot(steps, [c["pass@1"] for c in r["curve"]], marker="o", label="during GRPO")
        if all(c["ci95"] for c in r["curve"]):
            lo = [c["ci95"][0] for c in r["curve"]]
            ax.fill_between(steps, lo, [c["ci95"][1] for c in r["curve"]], alpha=0.2)
        last = steps[-1] if steps else 1
        for x, key, color in ((0, "sft", "gray"), (last, "grpo", "green")):
            e = r[key]
            err = [[e["mean"] - e["ci95"][0]], [e["ci95"][1] - e["mean"]]] if e["ci95"] else None
            ax.errorbar([x], [e["mean"]], yerr=err, fmt="s", color=color, capsize=3,
                        label=f"eval after {key.upper()} {e['mean']:.2f}")  # fmt: skip
        ax.set_title(f"synth-{r['stack']}: {r['diff']:+.2f}, p={r['p_value']:.2g}", fontsize=9)
        ax.set_xlabel("GRPO step")
        ax.set_ylabel("held-out pass@1")
        ax.set_ylim(0, 1)
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def page(rows: list[dict[str, Any]], png: Path, command: str) -> Path:
    """OUT/index.html: the table and the embedded PNG."""
    cells = "".join(
        f"<tr><td>synth-{r['stack']}</td><td>{_est(r['sft'])}</td><td>{_est(r['grpo'])}</td>"
        f"<td>{r['diff']:+.3f}</td><td>{r['p_value']:.2g}</td><td>{r['cpu_min']:.1f}</td></tr>"
        for r in rows
    )
    return write_page(
        png, "rlvr: learning per stack", "Held-out pass@1 per stack: SFT warm start, then GRPO",
        command,
        "<table border=1 cellpadding=4><tr><th>stack</th><th>after SFT [95%]</th>"
        "<th>after GRPO [95%]</th><th>GRPO - SFT</th><th>p</th><th>CPU min</th></tr>"
        f"{cells}</table>",
    )  # fmt: skip


def write_page(png: Path, title: str, heading: str, command: str, body: str) -> Path:
    """PNG's folder/index.html: a heading, the bench's command, `body` and the embedded PNG."""
    import base64
    import html

    image = base64.b64encode(png.read_bytes()).decode()
    text = (
        f"<!doctype html><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<h1>{html.escape(heading)}</h1><p><code>{html.escape(command)}</code></p>{body}"
        f"<p><img src='data:image/png;base64,{image}'></p>"
    )
    path = png.with_name("index.html")
    path.write_text(text, encoding="utf-8")
    return path


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", default="runs/stack-curves", help="Bench folder (re-use: resume).")
    ap.add_argument("--stacks", default=",".join(STACKS), help="Comma-separated stacks.")
    ap.add_argument("--quick", action="store_true", help="Tiny budgets: checks the plumbing.")
    args = ap.parse_args(argv)
    args.stacks = [s.strip() for s in args.stacks.split(",") if s.strip()]
    bad = [s for s in args.stacks if s not in STACKS]
    if bad or not args.stacks:
        ap.error(f"--stacks {','.join(bad) or '(empty)'}: choose from {','.join(STACKS)}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    out = Path(args.out)
    rows = []
    for stack in args.stacks:
        print(f"synth-{stack}", flush=True)
        run = StackRun(out, stack, recipe_for(stack, args.quick))
        run.run()
        rows.append(run.figures())
    command = "python bench/stack_curves.py " + " ".join(sys.argv[1:] if argv is None else argv)
    (out / "results.json").write_text(json.dumps({"command": command, "rows": rows}, indent=1))
    png = plot(rows, out / "stack_curves.png")
    print()
    print(table(rows), end="")
    print("CPU min: process-tree CPU time of every stage plus its sandbox containers' CPU time")
    print(f"saved {png} and {page(rows, png, command)}")


if __name__ == "__main__":
    main()
