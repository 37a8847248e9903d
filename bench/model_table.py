"""Baseline table: models x environments on the test split, greedy and sampled pass@1.

    python bench/model_table.py --out runs/model-table                       # everything
    python bench/model_table.py --out runs/mt --stacks python --n-tasks 20   # a slice
    python bench/model_table.py --out runs/mt --quick                        # tiny budgets

For each model (default `smollm2-135m` and `tiny-code-sft`) and each environment
(`synth-<stack>` and `humaneval-<stack>`; HumanEval's python one is `humaneval`), this runs
`rlvr eval` twice in a subprocess, as a user would: greedy (`-n 1 --temperature 0`) and sampled
(`-n SAMPLES --temperature T`). Each cell is pass@1 with its 95% bootstrap interval over tasks;
answers/s and generated tokens/s are the eval's answers and their token count over its wall time
(sampling and grading together, as `rlvr eval` runs them). Every eval folder resumes, so a
killed table started again goes on where it stopped. The markdown table goes to stdout and
OUT/table.md; every figure to OUT/results.json.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STACKS = ("python", "javascript", "go", "rust")
MODELS = ("smollm2-135m", "tiny-code-sft")


def env_names(stack: str) -> list[str]:
    return [f"synth-{stack}", "humaneval" if stack == "python" else f"humaneval-{stack}"]


def rlvr() -> list[str]:
    return [sys.executable, "-m", "rlvr.cli"]


def run_eval(args: argparse.Namespace, model: str, env: str, mode: str) -> dict[str, Any]:
    """One `rlvr eval` (resumed when its folder exists); its summary and throughput."""
    out = args.out / model / env / mode
    greedy = mode == "greedy"
    argv = [*rlvr(), "eval", "--env", env, "--model", model, "--out", str(out), "--json",
            "--split", "test", "--max-new-tokens", str(args.max_new_tokens),
            "--batch-tasks", str(args.batch_tasks),
            "-n", "1" if greedy else str(args.samples), "-k", "1",
            "--temperature", "0" if greedy else str(args.temperature)]  # fmt: skip
    if args.n_tasks:
        argv += ["--n-tasks", str(args.n_tasks)]
    if args.threads:
        argv += ["--threads", str(args.threads)]
    log = out.parent / f"{mode}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as fh:
        done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=fh, text=True, cwd=ROOT)
    if done.returncode != 0:
        return {"error": f"rlvr eval exited {done.returncode}; see {log}"}
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    answers = tokens = 0
    for line in (out / "groups.jsonl").read_text().splitlines():
        for sample in json.loads(line)["samples"]:
            answers += 1
            tokens += len(sample.get("token_ids") or [])
    wall = float(summary.get("wall_s") or 0.0)
    return {
        "pass@1": summary["pass@1"],
        "answers": answers,
        "tokens": tokens,
        "wall_s": wall,
        "answers_per_s": answers / wall if wall else None,
        "tokens_per_s": tokens / wall if wall else None,
    }


def cell(r: dict[str, Any]) -> str:
    if "error" in r:
        return "error"
    est = r["pass@1"]
    lo, hi = est["ci95"]
    return f"{est['mean']:.3f} [{lo:.2f}, {hi:.2f}]"


def speed(r: dict[str, Any]) -> str:
    if "error" in r or not r.get("wall_s"):
        return "-"
    return f"{r['answers_per_s']:.2f} / {r['tokens_per_s']:.0f}"


def table(rows: list[dict[str, Any]], args: argparse.Namespace) -> str:
    head = (
        f"| model | env | tasks | greedy pass@1 | sampled pass@1 (T={args.temperature}, "
        f"n={args.samples}) | answers/s / tokens/s (greedy) | (sampled) |\n"
        "| --- | --- | --- | --- | --- | --- | --- |\n"
    )
    body = ""
    for r in rows:
        g, s = r["greedy"], r["sampled"]
        n = g.get("pass@1", {}).get("n_tasks", "-")
        body += (
            f"| {r['model']} | {r['env']} | {n} | {cell(g)} | {cell(s)} | {speed(g)} "
            f"| {speed(s)} |\n"
        )
    return head + body


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--stacks", default=",".join(STACKS))
    ap.add_argument("--n-tasks", type=int, default=None, help="a stable subset per env")
    ap.add_argument("--samples", type=int, default=4, help="answers per task when sampled")
    ap.add_argument("--temperature", type=float, default=1.0)
    ap.add_argument("--max-new-tokens", type=int, default=256)
    ap.add_argument("--batch-tasks", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="2 tasks, 2 samples, 32 tokens")
    args = ap.parse_args(argv)
    if args.quick:
        args.n_tasks, args.samples, args.max_new_tokens = 2, 2, 32
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for model in args.models.split(","):
        for stack in args.stacks.split(","):
            for env in env_names(stack):
                row = {"model": model, "env": env}
                for mode in ("greedy", "sampled"):
                    row[mode] = run_eval(args, model, env, mode)
                rows.append(row)
                print(f"{model} {env}: {cell(row['greedy'])} / {cell(row['sampled'])}",
                      file=sys.stderr, flush=True)  # fmt: skip
    text = table(rows, args)
    (args.out / "table.md").write_text(text)
    (args.out / "results.json").write_text(json.dumps(rows, indent=1))
    print(text)


if __name__ == "__main__":
    main()
