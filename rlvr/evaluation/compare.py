"""`rlvr eval --compare A B`: did B do better than A on the same held-out tasks?

The unit is the task: for every task both folders evaluated, the difference of its pass@k
(B - A). The result is their mean, a 95% bootstrap interval over tasks, and the p-value of a
paired sign-flip permutation test (rlvr.evaluation.passk). Pairing removes the spread between
easy and hard tasks, so it finds differences that two separate intervals would hide.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError
from rlvr.evaluation.passk import Paired, paired_difference
from rlvr.evaluation.run import read_per_task


def compare_evals(
    folder_a: str | Path, folder_b: str | Path, metric: str = "pass@1", seed: int = 0
) -> tuple[Paired, dict[str, Any]]:
    """The paired difference B - A of `metric`, and facts about what was compared."""
    sum_a, rows_a = read_per_task(folder_a)
    sum_b, rows_b = read_per_task(folder_b)
    if sum_a["env"] != sum_b["env"]:
        raise RlvrError(
            f"{folder_a} evaluated {sum_a['env']!r} but {folder_b} evaluated {sum_b['env']!r}",
            "compare evaluations of the same environment",
        )
    a = {r["task_id"]: r.get(metric) for r in rows_a}
    b = {r["task_id"]: r.get(metric) for r in rows_b}
    if not any(v is not None for v in a.values()):
        raise RlvrError(f"{folder_a} has no {metric}", "use a metric both evaluations report (-k)")
    shared = [t for t in a if t in b and a[t] is not None and b[t] is not None]
    if not shared:
        raise RlvrError(
            f"{folder_a} and {folder_b} share no task with a {metric} value",
            "evaluate both on the same split (and the same --n-tasks subset)",
        )
    paired = paired_difference([a[t] for t in shared], [b[t] for t in shared], seed=seed)
    facts = {
        "env": sum_a["env"],
        "split_a": sum_a["split"],
        "split_b": sum_b["split"],
        "model_a": sum_a["model"],
        "model_b": sum_b["model"],
        "metric": metric,
        "only_in_a": sum(t not in b for t in a),
        "only_in_b": sum(t not in a for t in b),
    }
    return paired, facts
