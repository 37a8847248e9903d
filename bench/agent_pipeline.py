"""Distil, then RL, on episodes: SmolLM2 -> distilled on verified teacher episodes -> GRPO on
repair episodes, with a held-out evaluation after each stage, paired against the stage before.

    python bench/agent_pipeline.py --out runs/agent-pipeline      # SmolLM2 on the CPU: hours
    python bench/agent_pipeline.py --out /tmp/ap --quick          # tiny-code, tiny budgets (a test)
    python bench/agent_pipeline.py --out runs/agent-gpu --gpu     # SmolLM2 on one CUDA GPU
                                                                  # (bench/gpu_code_curves.sh)

Every stage is an rlvr command in a subprocess, as a user types it (bench/stack_curves.py's
`run_stage`: its log, CPU and wall time), recorded in stages.json so a rerun resumes:

1. teachers, on train-split tasks, judged like any policy's and kept only where they passed:
   `rlvr rollout --model reference` on repair-python and on terminal (each task's reference
   as an episode), and a served teacher, bench/teacher_server.py on loopback, answering with
   structured `tool_calls` on other repair-python tasks;
2. `rlvr sft --episodes` of the base model on the repair episodes (reference and served), and
   separately on the terminal episodes: the loss on the model's own turns only;
3. held-out evaluations, greedy, one episode per task: the base model and each distilled one on
   repair-python's and terminal's test splits, and the base model single-turn on synth-python
   (the level a one-shot answer reaches);
4. `rlvr train --algo grpo` from the repair student on repair-python episodes of other train
   tasks, then its held-out evaluation.

The table: per environment and model, the episodes with a valid call, pass@1 with its 95%
interval, and the paired difference to the model before it with its p-value; and the share
of GRPO groups with reward variance (what RL needs). Results: bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stack_curves as sc
from teacher_server import TeacherServer

ROOT = Path(__file__).resolve().parents[1]
REPAIR, TERMINAL, SINGLE = "repair-python", "terminal", "synth-python"


class Budget(BaseModel):
    """How much of each stage runs (the CPU recipe, --quick's, or the GPU's)."""

    model: str = "smollm2-135m"
    reference_tasks: int = 48
    served_tasks: int = 16
    terminal_tasks: int = 44
    sft_steps: int = 16
    sft_batch: int = 4
    sft_lr: float = 1e-4
    test_tasks: int = 32
    terminal_test_tasks: int = 15
    max_new_tokens: int = 320
    grpo_tasks: int = 32
    grpo_steps: int = 4
    group_size: int = 4
    prompts_per_step: int = 4
    grpo_lr: float = 1e-5
    temperature: float = 0.8
    device: str | None = None  # None: rlvr's default (cuda when seen)

    def sft_flags(self) -> list[str]:
        """rlvr sft and rlvr eval flags for the device."""
        return ["--device", self.device] if self.device else []

    def grpo_settings(self) -> dict[str, Any]:
        """GRPO config fields for the device: bf16 and more grading workers on a GPU."""
        if self.device == "cuda":
            return {"device": "cuda", "bf16": True, "grade_workers": 16}
        return {"threads": 2}

    @staticmethod
    def gpu() -> Budget:
        """SmolLM2 on an H200: more teachers, steps and held-out tasks (bench/README.md)."""
        return Budget(
            reference_tasks=256, served_tasks=64, sft_steps=100, sft_batch=16, sft_lr=3e-5,
            test_tasks=200, max_new_tokens=384, grpo_tasks=256, grpo_steps=30, group_size=8,
            prompts_per_step=16, grpo_lr=2e-6, temperature=1.0, device="cuda",
        )  # fmt: skip

    @staticmethod
    def quick() -> Budget:
        return Budget(
            model="tiny-code", reference_tasks=2, served_tasks=1, terminal_tasks=1, sft_steps=1,
            sft_batch=2, sft_lr=1e-3, test_tasks=2, terminal_test_tasks=1, max_new_tokens=24,
            grpo_tasks=2, grpo_steps=1, group_size=2, prompts_per_step=1,
        )  # fmt: skip


class Pipeline:
    """The bench's folder: its task slices, stages, records and table."""

    def __init__(self, out: Path, budget: Budget) -> None:
        self.dir, self.b = out, budget
        out.mkdir(parents=True, exist_ok=True)
        recipe = out / "budget.json"
        now = budget.model_dump(mode="json")
        if recipe.is_file() and json.loads(recipe.read_text()) != now:
            raise SystemExit(f"{out} was run with another budget ({recipe}); use a new --out")
        recipe.write_text(json.dumps(now, indent=1))
        self.record = out / "stages.json"
        self.done: dict[str, Any] = (
            json.loads(self.record.read_text()) if self.record.is_file() else {}
        )

    def stage(self, name: str, argv: list[str]) -> None:
        if name in self.done:
            print(f"  {name}: done before, skipped", flush=True)
            return
        self.done[name] = sc.run_stage(name, argv, self.dir / f"{name}.log")
        self.record.write_text(json.dumps(self.done, indent=1))

    def slices(self) -> dict[str, Path]:
        """Disjoint seeded slices of repair-python's train split (reference teacher, served
        teacher, GRPO) and terminal's train tasks, as task files."""
        import rlvr

        paths = {
            k: self.dir / f"tasks-{k}.jsonl" for k in ("reference", "served", "grpo", "terminal")
        }
        if not all(p.is_file() for p in paths.values()):
            ids = sorted(t.id for t in rlvr.load_env(REPAIR).tasks_in("train") if t.reference)
            random.Random("agent-pipeline").shuffle(ids)
            b = self.b
            cut = [b.reference_tasks, b.reference_tasks + b.served_tasks]
            parts = {"reference": ids[: cut[0]], "served": ids[cut[0] : cut[1]],
                     "grpo": ids[cut[1] : cut[1] + b.grpo_tasks]}  # fmt: skip
            terminal = sorted(
                t.id for t in rlvr.load_env(TERMINAL).tasks_in("train") if t.reference
            )
            parts["terminal"] = terminal[: b.terminal_tasks]
            for k, chosen in parts.items():
                paths[k].write_text("".join(json.dumps({"id": i}) + "\n" for i in chosen))
        return paths

    def teachers(self, tasks: dict[str, Path]) -> None:
        d = self.dir
        self.stage("teacher_reference", ["rollout", "-e", REPAIR, "-m", "reference", "-G", "1",
                                         "--tasks", str(tasks["reference"]),
                                         "-o", str(d / "teacher-reference.jsonl")])  # fmt: skip
        if "teacher_served" not in self.done:
            with TeacherServer([REPAIR]) as server:
                self.stage("teacher_served", ["rollout", "-e", REPAIR, "-m", server.url, "-G", "1",
                                              "--tasks", str(tasks["served"]),
                                              "-o", str(d / "teacher-served.jsonl")])  # fmt: skip
                self.done["teacher_served"]["server"] = dict(server.stats)
                self.record.write_text(json.dumps(self.done, indent=1))
        self.stage("teacher_terminal", ["rollout", "-e", TERMINAL, "-m", "reference", "-G", "1",
                                        "--tasks", str(tasks["terminal"]),
                                        "-o", str(d / "teacher-terminal.jsonl")])  # fmt: skip
        both = d / "teacher-repair.jsonl"
        if not both.is_file():
            both.write_text((d / "teacher-reference.jsonl").read_text()
                            + (d / "teacher-served.jsonl").read_text())  # fmt: skip

    def run(self) -> None:
        """Teachers, then the repair chain (distil, evals, GRPO, eval: the figures that matter
        most come first on a slow machine), then terminal and the single-turn level."""
        b, d = self.b, self.dir
        tasks = self.slices()
        self.teachers(tasks)
        self.distil(REPAIR, "repair")
        self.evaluate("base", REPAIR, b.model, b.test_tasks)
        self.evaluate("distil", REPAIR, str(d / "distil-repair"), b.test_tasks)
        settings = {"group_size": b.group_size, "prompts_per_step": b.prompts_per_step,
                    "lr": b.grpo_lr, "temperature": b.temperature,
                    "max_new_tokens": b.max_new_tokens, "eval_tasks": 0, "save_every": 0,
                    **b.grpo_settings()}  # fmt: skip
        sets = [x for k, v in settings.items() for x in ("--set", f"{k}={json.dumps(v)}")]
        self.stage("grpo", ["train", "-e", REPAIR, "--model", str(d / "distil-repair"),
                            "--algo", "grpo", "--steps", str(b.grpo_steps),
                            "--tasks", str(tasks["grpo"]), *sets,
                            "--out", str(d / "grpo")])  # fmt: skip
        self.evaluate("grpo", REPAIR, str(d / "grpo"), b.test_tasks)
        self.distil(TERMINAL, "terminal")
        self.evaluate("base", TERMINAL, b.model, b.terminal_test_tasks)
        self.evaluate("distil", TERMINAL, str(d / "distil-terminal"), b.terminal_test_tasks)
        self.evaluate("base", SINGLE, b.model, b.test_tasks)

    def distil(self, env: str, name: str) -> None:
        """`rlvr sft --episodes` of the base model on one teacher file."""
        b = self.b
        sft = ["--steps", str(b.sft_steps), "--batch-size", str(b.sft_batch), "--lr", str(b.sft_lr),
               *b.sft_flags()]  # fmt: skip
        self.stage(f"distil_{name}", ["sft", "-e", env, "--model", b.model, *sft,
                                      "--episodes", str(self.dir / f"teacher-{name}.jsonl"),
                                      "--out", str(self.dir / f"distil-{name}")])  # fmt: skip

    def evaluate(self, label: str, env: str, model: str, n: int) -> None:
        """Greedy, one episode (or answer) per held-out task."""
        b = self.b
        greedy = ["-n", "1", "--temperature", "0", "--max-new-tokens", str(b.max_new_tokens),
                  *b.sft_flags()]  # fmt: skip
        out = self.dir / f"eval-{label}-{env}"
        self.stage(f"eval_{label}_{env}", ["eval", "-e", env, "-m", model, *greedy,
                                           "--n-tasks", str(n), "--out", str(out)])  # fmt: skip

    def figures(self) -> dict[str, Any]:
        """The table's rows and the GRPO groups' variance, as results.json holds them."""
        sys.path.insert(0, str(ROOT))
        from rlvr.evaluation.compare import compare_evals

        rows = []
        chains = {
            REPAIR: ["base", "distil", "grpo"],
            TERMINAL: ["base", "distil"],
            SINGLE: ["base"],
        }
        for env, labels in chains.items():
            for k, label in enumerate(labels):
                folder = self.dir / f"eval-{label}-{env}"
                s = json.loads((folder / "summary.json").read_text())
                valid = (s.get("episodes") or {}).get("valid_call_frac")
                row = {"env": env, "model": label, "n_tasks": s["n_tasks"], "pass@1": s["pass@1"],
                       "valid_call_frac": valid}  # fmt: skip
                if k:
                    paired, _ = compare_evals(self.dir / f"eval-{labels[k - 1]}-{env}", folder)
                    row.update(diff=paired.diff, diff_ci95=paired.ci95, p_value=paired.p_value)
                rows.append(row)
        lines = (self.dir / "grpo" / "metrics.jsonl").read_text().splitlines()
        metrics = [json.loads(x) for x in lines if x.strip()]
        zero_var = [m["zero_variance_frac"] for m in metrics if "zero_variance_frac" in m]
        served = self.done.get("teacher_served", {}).get("server", {})
        wall = sum(v["wall_s"] for v in self.done.values()) / 60
        return {"rows": rows, "grpo_zero_var_frac": zero_var, "served_teacher": served,
                "kept": self._kept(), "wall_min": wall}  # fmt: skip

    def _kept(self) -> dict[str, int]:
        """Teacher episodes the judge passed, per teacher (what distillation trained on)."""
        out = {}
        for name in ("reference", "served", "terminal"):
            groups = [
                json.loads(x) for x in (self.dir / f"teacher-{name}.jsonl").read_text().splitlines()
            ]
            out[name] = sum(v["reward"] == 1.0 for g in groups for v in g["verdicts"])
        return out


def _est(e: dict[str, Any]) -> str:
    return f"{e['mean']:.3f} [{e['ci95'][0]:.3f}, {e['ci95'][1]:.3f}]"


def table(fig: dict[str, Any]) -> str:
    lines = ["| env | model | tasks | valid call | pass@1 [95% CI] | paired diff [95% CI] | p |",
             "| --- | --- | --- | --- | --- | --- | --- |"]  # fmt: skip
    for r in fig["rows"]:
        valid = "-" if r["valid_call_frac"] is None else f"{r['valid_call_frac']:.2f}"
        diff = (f"{r['diff']:+.3f} [{r['diff_ci95'][0]:+.3f}, {r['diff_ci95'][1]:+.3f}]"
                if "diff" in r else "-")  # fmt: skip
        p = f"{r['p_value']:.3g}" if "p_value" in r else "-"
        lines.append(f"| {r['env']} | {r['model']} | {r['n_tasks']} | {valid} | "
                     f"{_est(r['pass@1'])} | {diff} | {p} |")  # fmt: skip
    zv = fig["grpo_zero_var_frac"]
    lines.append("")
    lines.append(f"GRPO groups with zero reward variance, per step: {[round(x, 2) for x in zv]}")
    lines.append(f"teacher episodes kept: {fig['kept']}; served teacher: {fig['served_teacher']}")
    lines.append(f"wall: {fig['wall_min']:.1f} min")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", default="runs/agent-pipeline", help="Bench folder (re-use: resume).")
    ap.add_argument("--quick", action="store_true", help="tiny-code, tiny budgets (a test).")
    ap.add_argument("--gpu", action="store_true", help="SmolLM2 on a CUDA GPU, larger budgets.")
    ap.add_argument("--model", help="Starting model (default smollm2-135m; --quick: tiny-code).")
    args = ap.parse_args(argv)
    budget = Budget.quick() if args.quick else Budget.gpu() if args.gpu else Budget()
    if args.model:
        budget = budget.model_copy(update={"model": args.model})
    pipeline = Pipeline(Path(args.out), budget)
    pipeline.run()
    fig = pipeline.figures()
    (pipeline.dir / "results.json").write_text(json.dumps(fig, indent=1))
    print(table(fig), end="")


if __name__ == "__main__":
    main()
