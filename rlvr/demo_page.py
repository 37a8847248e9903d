"""runs/demo/index.html: the demo's one page, with the curves inline.

It shows the held-out pass@1 before and after training (95% intervals, the paired difference
and its p-value), the held-out curve beside the training reward, the frontier histogram, and
links to the full frontier, training and evaluation reports. Images are referenced relative to
the page, so the folder can be moved or archived as a whole.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any


def _interval(est: Any) -> str:
    if est is None or est.mean is None or est.ci95 is None:
        return "-"
    return f"{est.mean:.3f} [{est.ci95[0]:.3f}, {est.ci95[1]:.3f}]"


def _rel(path: Path, base: Path) -> str:
    return html.escape(str(path.resolve().relative_to(base)))


def _held_out(result: Any) -> str:
    before, after, paired = result.before, result.after, result.paired
    if before is None or after is None or paired is None:
        return ""
    rows = "".join(
        f"<tr><td>{key}</td><td>{_interval(before.pass_at.get(key))}</td>"
        f"<td>{_interval(after.pass_at.get(key))}</td></tr>"
        for key in before.pass_at
    )
    lo, hi = paired.ci95
    return (
        f"<h2>Held-out pass@1: before and after training</h2>"
        f"<p>{before.n_tasks} held-out easy tasks (test split, never trained on), "
        f"{before.n_samples} samples each at temperature {before.temperature}; intervals are "
        f"95% bootstrap intervals over tasks.</p>"
        f"<table><tr><th></th><th>before ({html.escape(before.model)})</th>"
        f"<th>after (the trained run)</th></tr>{rows}</table>"
        f"<p><b>Paired difference (after - before): {paired.diff:+.3f}</b> "
        f"[{lo:+.3f}, {hi:+.3f}], p = {paired.p_value:.3g} ({html.escape(paired.test)}); "
        f"{paired.better} tasks better, {paired.worse} worse, {paired.ties} tied.</p>"
    )


def write_index(result: Any, frontier_page: Path, histogram: Path, run_page: Path) -> Path:
    """Write result.index; every path is linked relative to its folder."""
    base = result.index.parent.resolve()
    f = result.frontier
    flags = ", ".join(f"{k}: {v}" for k, v in sorted(result.flag_counts.items())) or "none"
    run = result.run_dir
    curves = "".join(
        f"<figure><img alt='{name}' src='{_rel(run / f'{name}.png', base)}'></figure>"
        for name in ("eval", "reward")
        if (run / f"{name}.png").is_file()
    )
    hist = f"<img alt='frontier' src='{_rel(histogram, base)}'>" if histogram.is_file() else ""
    evals = "".join(
        f"<a href='{name}/report.html'>{name}</a> "
        for name in ("eval-before", "eval-after")
        if (base / name / "report.html").is_file()
    )
    page = (
        "<!doctype html><meta charset='utf-8'><title>rlvr demo</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}"
        "figure{display:inline-block;margin:4px}</style>"
        "<h1>rlvr demo: math (easy) with the tiny model</h1>"
        f"{_held_out(result)}"
        f"<h2>Training (GRPO)</h2><p>Training reward {_fmt(result.reward_first)} over the "
        f"first steps, {_fmt(result.reward_last)} over the last. "
        f"<a href='{_rel(run_page, base)}'>training report</a>; evaluations: {evals}</p>"
        f"{curves}"
        f"<h2>Frontier</h2><p>{f['tasks']} train-split tasks sampled {f['k']} times: "
        f"{f['always_pass']} always pass, {f['always_fail']} always fail, {f['kept']} kept "
        f"({f['saved_fraction']:.0%} of sampling saved). "
        f"<a href='{_rel(frontier_page, base)}'>frontier report</a></p>{hist}"
        f"<h2>Hack audit of the training answers</h2><p>{html.escape(flags)}</p>"
    )
    result.index.write_text(page, encoding="utf-8")
    return result.index


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"
