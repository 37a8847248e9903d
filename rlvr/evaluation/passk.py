"""pass@k, its confidence interval over tasks, and the paired comparison of two evaluations.

- `pass_at_k(n, c, k)`: the unbiased estimator of Chen et al. 2021 ("Evaluating Large Language
  Models Trained on Code", eq. 1): 1 - C(n-c, k) / C(n, k) for a task with c of n samples
  correct, computed as a product so that large n does not overflow.
- `bootstrap_ci`: a percentile bootstrap over tasks. Tasks are the unit that was sampled from
  a population of problems; the samples within a task are already averaged by the estimator.
- `paired_difference`: per-task differences B - A on the tasks both evaluations share, a
  bootstrap interval of their mean, and a two-sided paired sign-flip permutation test (under
  H0 each task's difference is as likely to be negative as positive). Exact over all 2^m sign
  patterns when at most 16 tasks differ, otherwise 20,000 random patterns with the +1
  correction of Phipson & Smyth (2010), so p is never 0.

Example:
    >>> round(pass_at_k(n=10, c=3, k=1), 3), round(pass_at_k(n=10, c=3, k=5), 3)
    (0.3, 0.917)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, Field

EXACT_MAX = 16
N_BOOT = 10_000
N_PERM = 20_000


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k samples drawn without replacement from n (c correct)
    is correct."""
    if not 0 <= c <= n or k < 1:
        raise ValueError(f"need 0 <= c <= n and k >= 1, got n={n}, c={c}, k={k}")
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} samples, got n={n}")
    if n - c < k:
        return 1.0
    return 1.0 - float(np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


class Estimate(BaseModel):
    """A mean over tasks with its 95% bootstrap interval."""

    mean: float | None
    ci95: list[float] | None = Field(description="[lo, hi]; None when there is no task.")
    n_tasks: int


def bootstrap_ci(
    values: Sequence[float], level: float = 0.95, n_boot: int = N_BOOT, seed: int = 0
) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of `values` (resampling the values)."""
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        raise ValueError("no values to bootstrap")
    rng = np.random.default_rng(seed)
    means = np.empty(n_boot)
    chunk = max(1, 2_000_000 // x.size)
    for start in range(0, n_boot, chunk):
        stop = min(n_boot, start + chunk)
        idx = rng.integers(0, x.size, size=(stop - start, x.size))
        means[start:stop] = x[idx].mean(axis=1)
    alpha = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [alpha, 1.0 - alpha])
    return float(lo), float(hi)


def estimate(values: Sequence[float], seed: int = 0) -> Estimate:
    """Mean and 95% interval over tasks; an empty list gives mean None."""
    if not values:
        return Estimate(mean=None, ci95=None, n_tasks=0)
    lo, hi = bootstrap_ci(values, seed=seed)
    return Estimate(mean=float(np.mean(values)), ci95=[lo, hi], n_tasks=len(values))


class Paired(BaseModel):
    """B minus A on the tasks both evaluated."""

    n_tasks: int
    mean_a: float
    mean_b: float
    diff: float = Field(description="mean(B - A) over the shared tasks")
    ci95: list[float]
    p_value: float = Field(description="two-sided paired sign-flip permutation test")
    test: str
    better: int = Field(description="tasks where B scored higher")
    worse: int = Field(description="tasks where B scored lower")
    ties: int


def sign_flip_p(diffs: Sequence[float], n_perm: int = N_PERM, seed: int = 0) -> tuple[float, str]:
    """Two-sided p-value of mean(diffs) under random sign flips, and how it was computed."""
    d = np.asarray([x for x in diffs if x != 0.0], dtype=np.float64)
    if d.size == 0:
        return 1.0, "exact"
    observed = abs(d.sum()) - 1e-12
    if d.size <= EXACT_MAX:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=d.size)))
        return float(np.mean(np.abs(signs @ d) >= observed)), "exact"
    rng = np.random.default_rng(seed)
    extreme = 0
    for start in range(0, n_perm, 2_000):
        size = min(2_000, n_perm - start)
        signs = rng.choice((1.0, -1.0), size=(size, d.size))
        extreme += int(np.sum(np.abs(signs @ d) >= observed))
    return (extreme + 1) / (n_perm + 1), f"monte carlo, {n_perm} sign patterns"


def paired_difference(a: Sequence[float], b: Sequence[float], seed: int = 0) -> Paired:
    """Compare two evaluations task by task (a[i] and b[i] are the same task)."""
    if len(a) != len(b) or not a:
        raise ValueError(f"need two equally long, non-empty lists, got {len(a)} and {len(b)}")
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    diffs = y - x
    lo, hi = bootstrap_ci(diffs.tolist(), seed=seed)
    p, how = sign_flip_p(diffs.tolist(), seed=seed)
    return Paired(
        n_tasks=len(diffs),
        mean_a=float(x.mean()),
        mean_b=float(y.mean()),
        diff=float(diffs.mean()),
        ci95=[lo, hi],
        p_value=p,
        test=f"paired sign-flip permutation test ({how}), two-sided",
        better=int(np.sum(diffs > 0)),
        worse=int(np.sum(diffs < 0)),
        ties=int(np.sum(diffs == 0)),
    )
