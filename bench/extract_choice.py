"""Which fenced block to grade: every rule of `rlvr.graders.code.extract.choose_block` on the
same stored answers, graded by the environment's own judge.

Instruct models often answer with the function and then an "Example usage" block; grading the
last block then grades the example. This regrades the answers an `rlvr eval` stored (on a
validation slice of the TRAIN split: never tune on the test split) with each rule: the chosen
block is handed to the judge as the answer's only block, so the judge still decides and an
answer is still one program. It also counts the tokens a stop string at the first closed fence
would have saved.

    rlvr eval --env synth-python --model smollm2-135m --split train --n-tasks 160 \\
        -n 1 --temperature 0 --max-new-tokens 256 --out runs/val-greedy
    python bench/extract_choice.py runs/val-greedy [more eval folders] [--env-path DIR]

With several folders it also compares each against the first on their shared tasks under the
rule in use (a prompt variant is an environment copy with another template, given by
--env-path).

Prints one table per folder: per rule pass@1 [95% interval], the paired difference against
"last" (the rule before this measurement) with its sign-flip p-value, and how many answers
load (neither a build failure nor no code): a finer signal than pass@1 on a weak model.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import rlvr
from rlvr.discovery import add_env_path
from rlvr.evaluation.passk import estimate, paired_difference
from rlvr.graders.code.extract import BLOCK_RULES, choose_block, fenced_blocks, first_fence_end
from rlvr.grading import GradeItem, grade_items

PY_TAGS = ["python", "py", "python3"]
CHOSEN = "entry-first"  # what rlvr.graders.code.extract.function_program uses


def load_samples(folder: Path) -> tuple[str, list[dict]]:
    """(env name, one dict per sample: task_id, text, tokens) from an eval folder's store."""
    env = json.loads((folder / "eval.json").read_text())["env"]
    rows = []
    for line in (folder / "groups.jsonl").read_text().splitlines():
        group = json.loads(line)
        for s in group["samples"]:
            rows.append(
                {"task_id": group["task_id"], "text": s["text"], "tokens": len(s["token_ids"])}
            )
    return env, rows


def as_answer(text: str, rule: str, entry_point: str | None) -> str:
    """The answer the judge sees under `rule`: the chosen block alone, fenced (no block: as is)."""
    block = choose_block(text, PY_TAGS, rule, entry_point)
    return text if block is None else f"```python\n{block}```\n"


def stop_savings(env: rlvr.Environment, rows: list[dict]) -> tuple[int, int]:
    """(tokens generated, tokens past the first closed fence), the latter estimated by the
    share of characters after it."""
    total = past = 0
    for r in rows:
        total += r["tokens"]
        end = first_fence_end(r["text"])
        if end is not None and r["text"]:
            past += round(r["tokens"] * (len(r["text"]) - end) / len(r["text"]))
    return total, past


def per_task(rows: list[dict], rewards: list[float]) -> dict[str, float]:
    by: dict[str, list[float]] = defaultdict(list)
    for r, x in zip(rows, rewards, strict=True):
        by[r["task_id"]].append(x)
    return {t: sum(v) / len(v) for t, v in by.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--env-path", type=Path, action="append", default=[],
                    help="a folder of extra environments (a prompt variant's copy)")  # fmt: skip
    args = ap.parse_args()
    for extra in args.env_path:
        add_env_path(extra)
    chosen: dict[Path, dict[str, float]] = {}
    for folder in args.folders:
        env_name, rows = load_samples(folder)
        env = rlvr.load_env(env_name)
        entry = {r["task_id"]: env.task(r["task_id"]).entry_point for r in rows}
        scores: dict[str, dict[str, float]] = {}
        builds: dict[str, int] = {}
        for rule in BLOCK_RULES:
            items = [GradeItem(r["task_id"], as_answer(r["text"], rule, entry[r["task_id"]]))
                     for r in rows]  # fmt: skip
            graded = grade_items(env, items)
            if any(g["status"] != "scored" for g in graded):
                print(f"  {rule}: {sum(g['status'] != 'scored' for g in graded)} masked")
            scores[rule] = per_task(rows, [float(g.get("reward") or 0.0) for g in graded])
            builds[rule] = sum(g.get("cause") not in ("build_failed", "no_code") for g in graded)
        tasks = sorted(scores["last"])
        n_blocks = sum(len(fenced_blocks(r["text"])) > 1 for r in rows)
        total, past = stop_savings(env, rows)
        print(f"\n{folder} ({env_name}): {len(tasks)} tasks, {len(rows)} answers, "
              f"{n_blocks} with 2+ blocks; tokens {total}, "
              f"{past} past the first closed fence")  # fmt: skip
        chosen[folder] = scores[CHOSEN]
        base = [scores["last"][t] for t in tasks]
        for rule in BLOCK_RULES:
            vals = [scores[rule][t] for t in tasks]
            est = estimate(vals)
            d = paired_difference(base, vals)
            lo, hi = est.ci95
            print(f"  {rule:12s} pass@1 {est.mean:.3f} [{lo:.3f}, {hi:.3f}]   "
                  f"vs last {d.diff:+.3f} (p={d.p_value:.3f}, "
                  f"better/worse {d.better}/{d.worse}); "
                  f"answers that load {builds[rule]}/{len(rows)}")  # fmt: skip

    if len(chosen) > 1:
        across(chosen)


def across(chosen: dict[Path, dict[str, float]]) -> None:
    """Folders against the first on their shared tasks, graded with the chosen rule: how a
    prompt variant or a sampling setting compares (each folder may be another environment)."""
    first, *rest = chosen
    print(f"\nunder {CHOSEN!r}, against {first}:")
    for folder in rest:
        shared = sorted(set(chosen[first]) & set(chosen[folder]))
        if not shared:
            print(f"  {folder}: no shared task")
            continue
        d = paired_difference([chosen[first][t] for t in shared],
                              [chosen[folder][t] for t in shared])  # fmt: skip
        lo, hi = d.ci95
        print(f"  {folder}: {d.mean_a:.3f} -> {d.mean_b:.3f} on {d.n_tasks} tasks, "
              f"{d.diff:+.3f} [{lo:+.3f}, {hi:+.3f}] (p={d.p_value:.3f})")  # fmt: skip


if __name__ == "__main__":
    main()
