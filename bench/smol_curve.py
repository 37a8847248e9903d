"""A CPU learning attempt with a real model: SmolLM2-135M-Instruct -> GRPO -> held-out pass@1.

    python bench/smol_curve.py --out runs/smol-curve          # synth-python, about 1 CPU hour
    python bench/smol_curve.py --out /tmp/smc --quick         # tiny-code, tiny budgets (a test)

No warm start: SmolLM2 already writes Python. The stages run rlvr's own commands in a
subprocess each, as a user would, and resume as bench/stack_curves.py's do (its docstring says
how CPU time is counted):

1. `rlvr eval` of the starting model on a stable slice of the test split, sampled at the
   training temperature (pass@1 over n answers per task);
2. `rlvr frontier` on a seeded slice of the train split (k answers per task at the training
   temperature): GRPO's tasks are those the model sometimes passes and sometimes fails, since
   a group whose answers all score alike carries no signal (on 12 steps over unfiltered train
   tasks, 75-100% of groups carried none; bench/README.md);
3. `rlvr train --algo grpo` with LoRA adapters on the frontier tasks (the whole slice when none
   is in the band), graded in the Docker sandbox with the answer-extraction rules `rlvr eval`
   uses (the block that defines the entry point, the closed-fence stop);
4. `rlvr eval` of the trained model on the same test tasks;
5. the paired per-task difference (`rlvr eval --compare`'s), its interval and p-value.

The budgets are a CPU's: on 2 cores a GRPO step of 4 tasks x 4 answers takes minutes, so the
run is short and its held-out slice small. The figure it gives is what one CPU hour moves, with
its interval; the learning threshold belongs to the GPU recipe (bench/gpu_code_curves.sh).
Results: bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import stack_curves as sc

ROOT = Path(__file__).resolve().parents[1]


def cpu_recipe(quick: bool) -> sc.Recipe:
    """The CPU budgets (pool_tasks is the train slice GRPO draws from)."""
    if quick:
        return sc.Recipe.quick()
    return sc.Recipe(
        pool_tasks=128, frontier_k=4, steps=24, lr=5e-5, warmup_steps=2, group_size=4,
        prompts_per_step=4, temperature=0.6, max_new_tokens=sc.MAX_NEW_TOKENS["python"],
        eval_every=0, eval_tasks=0, test_tasks=50, test_samples=2,
    )  # fmt: skip


class SmolRun(sc.StackRun):
    """synth-python from a pretrained model: eval -> GRPO (LoRA) -> eval."""

    def __init__(self, out: Path, recipe: sc.Recipe, model: str, lora_rank: int) -> None:
        self.model, self.lora_rank = model, lora_rank
        self.grpo_settings = {"lora_rank": lora_rank} if lora_rank else {}
        super().__init__(out, "python", recipe)

    def run(self) -> None:
        r, d, env = self.recipe, self.dir, ["--env", self.env]
        sample = ["--max-new-tokens", str(r.max_new_tokens), "--threads", "1",
                  "--temperature", str(r.temperature)]  # fmt: skip
        test = ["--split", "test", "-n", str(r.test_samples), "--n-tasks", str(r.test_tasks)]
        self.stage("eval_before", ["eval", *env, "--model", self.model, *test, *sample,
                                   "--out", str(d / "eval-before")])  # fmt: skip
        band = ["-k", str(r.frontier_k), "--low", str(r.band[0]), "--high", str(r.band[1])]
        self.stage("frontier", ["frontier", *env, "--model", self.model, "--split", "train",
                                "--tasks", str(self.pool_file()), *band, *sample,
                                "--out", str(d / "frontier.jsonl")])  # fmt: skip
        self.stage("grpo", ["train", *env, "--model", self.model, "--algo", "grpo",
                            "--steps", str(r.steps), "--split", "train",
                            "--tasks", str(self.grpo_tasks()), *self.grpo_sets(),
                            "--out", str(d / "grpo")])  # fmt: skip
        self.stage("eval_after", ["eval", *env, "--model", str(d / "grpo"), *test, *sample,
                                  "--out", str(d / "eval-after")])  # fmt: skip

    def figures(self) -> dict[str, Any]:
        """Before and after on the held-out slice, the paired test, GRPO's signal, CPU."""
        from rlvr.evaluation.compare import compare_evals
        from rlvr.report import read_metrics, series

        r = self.recipe

        paired, _ = compare_evals(self.dir / "eval-before", self.dir / "eval-after")
        before, after = (
            json.loads((self.dir / name / "summary.json").read_text())["pass@1"]
            for name in ("eval-before", "eval-after")
        )
        cpu = {k: (v["process_cpu_s"] + v["container_cpu_s"]) / 60 for k, v in self.done.items()}
        metrics = read_metrics(self.dir / "grpo")
        return {
            "model": self.model,
            "lora_rank": self.lora_rank,
            "n_tasks": paired.n_tasks,
            "before": before,
            "after": after,
            "diff": paired.diff,
            "diff_ci95": paired.ci95,
            "p_value": paired.p_value,
            "test": paired.test,
            "train_reward_by_step": series(metrics, "reward_mean")[1],
            "zero_variance_frac_by_step": series(metrics, "zero_variance_frac")[1],
            "frontier_kept": f"{self.kept()}/{r.pool_tasks}",
            "cpu_min": sum(cpu.values()),
            "cpu_min_by_stage": cpu,
            "wall_min": sum(v["wall_s"] for v in self.done.values()) / 60,
            "recipe": self.recipe.model_dump(mode="json"),
        }

    def kept(self) -> int:
        """Pool tasks the frontier kept."""
        return sum(1 for line in (self.dir / "frontier.jsonl").open() if line.strip())


def table(row: dict[str, Any]) -> str:
    """The markdown row of the run."""
    r, (lo, hi) = row["recipe"], row["diff_ci95"]
    lora = f"LoRA r={row['lora_rank']}" if row["lora_rank"] else "full"
    return (
        "| model | frontier kept | GRPO | held-out tasks x answers (T) | pass@1 before [95%] | "
        "pass@1 after [95%] | after - before [95%] | p (paired) | CPU min |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
        f"| {row['model']} | {row['frontier_kept']} | {r['steps']} steps x "
        f"{r['prompts_per_step']} x {r['group_size']}, {lora} | "
        f"{row['n_tasks']} x {r['test_samples']} "
        f"({r['temperature']}) | {sc._est(row['before'])} | {sc._est(row['after'])} | "
        f"{row['diff']:+.3f} [{lo:+.3f}, {hi:+.3f}] | {row['p_value']:.2g} | "
        f"{row['cpu_min']:.1f} |\n"
    )


def plot(row: dict[str, Any], path: Path) -> Path:
    """Training reward per GRPO step, and held-out pass@1 before and after."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(7.2, 3.0), dpi=90)
    rewards = row["train_reward_by_step"]
    left.plot(range(1, len(rewards) + 1), rewards, marker="o")
    left.set_xlabel("GRPO step")
    left.set_ylabel("mean training reward")
    left.set_ylim(0, 1)
    for x, key in ((0, "before"), (1, "after")):
        e = row[key]
        lo, hi = e["ci95"] or (e["mean"], e["mean"])
        right.errorbar([x], [e["mean"]], yerr=[[e["mean"] - lo], [hi - e["mean"]]], fmt="s",
                       capsize=4)  # fmt: skip
    right.set_xticks([0, 1], ["before GRPO", "after GRPO"])
    right.set_xlim(-0.5, 1.5)
    right.set_ylabel("held-out pass@1")
    right.set_title(f"{row['diff']:+.3f}, p={row['p_value']:.2g}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def page(row: dict[str, Any], png: Path, command: str) -> Path:
    """OUT/index.html: the command, the table and the embedded PNG."""
    import html

    return sc.write_page(
        png, "rlvr: SmolLM2 GRPO on a CPU", "SmolLM2 on synth-python: GRPO on a CPU", command,
        f"<pre>{html.escape(table(row))}</pre>",
    )  # fmt: skip


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", default="runs/smol-curve", help="Bench folder (re-use: resume).")
    ap.add_argument("--quick", action="store_true", help="Tiny budgets on tiny-code (a test).")
    ap.add_argument("--model", help="Starting model (default smollm2-135m; --quick: tiny-code).")
    ap.add_argument("--lora-rank", type=int, default=16, help="LoRA rank of GRPO (0: full).")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    out = Path(args.out)
    model = args.model or ("tiny-code" if args.quick else "smollm2-135m")
    run = SmolRun(out, cpu_recipe(args.quick), model, 2 if args.quick else args.lora_rank)
    run.run()
    row = run.figures()
    command = "python bench/smol_curve.py " + " ".join(sys.argv[1:] if argv is None else argv)
    (out / "results.json").write_text(json.dumps({"command": command, "row": row}, indent=1))
    png = plot(row, out / "smol_curve.png")
    print()
    print(table(row), end="")
    print("CPU min: process-tree CPU time of every stage plus its sandbox containers' CPU time")
    print(f"saved {png} and {page(row, png, command)}")


if __name__ == "__main__":
    main()
