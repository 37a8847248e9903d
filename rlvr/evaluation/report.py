"""An evaluation's page: DIR/report.png (pass@k and the breakdown with their intervals, and
the spread of per-task pass rates) embedded in a self-contained DIR/report.html."""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rlvr.evaluation.passk import Estimate
from rlvr.evaluation.results import EvalSummary, TaskResult
from rlvr.evaluation.transcripts import transcripts_html
from rlvr.types import ScoredGroup


def _bars(ax: Any, items: list[tuple[str, Estimate]], title: str) -> None:
    labels = [name for name, _ in items]
    means = [e.mean or 0.0 for _, e in items]
    lows = [(e.mean or 0.0) - (e.ci95 or [0, 0])[0] for _, e in items]
    highs = [(e.ci95 or [0, 0])[1] - (e.mean or 0.0) for _, e in items]
    ax.bar(range(len(items)), means, yerr=[lows, highs], capsize=4, color="#4c72b0")
    ax.set_xticks(range(len(items)), labels, rotation=30 if len(items) > 4 else 0, fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)


def plot(summary: EvalSummary, results: Sequence[TaskResult], path: Path) -> Path:
    """Left: pass@k and pass@1 per label of the first breakdown key; right: histogram."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6), dpi=80)
    items: list[tuple[str, Estimate]] = list(summary.pass_at.items())
    key = "difficulty" if "difficulty" in summary.breakdown else next(iter(summary.breakdown), "")
    if key:
        items += [(f"{key}={label}", e) for label, e in summary.breakdown[key].items()]
    _bars(left, items, f"{summary.env} ({summary.split}), 95% bootstrap intervals")
    rates = [r.pass_at["pass@1"] for r in results if r.pass_at.get("pass@1") is not None]
    right.hist(rates, bins=min(20, max(2, summary.n_samples + 1)), range=(0, 1), color="#55a868")
    right.set_title(f"per-task pass@1 ({len(rates)} tasks)", fontsize=10)
    right.set_xlabel("pass@1")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _fmt(e: Estimate) -> str:
    if e.mean is None or e.ci95 is None:
        return "-"
    return f"{e.mean:.3f} [{e.ci95[0]:.3f}, {e.ci95[1]:.3f}]"


def write_report(
    out: Path,
    summary: EvalSummary,
    results: Sequence[TaskResult],
    groups: Iterable[ScoredGroup] = (),
) -> Path:
    """Write report.png and report.html into the evaluation folder; returns the page. For a
    multi-turn environment the page adds pass@1 by turn budget and a few transcripts."""
    image = plot(summary, results, out / "report.png")
    rows = "".join(
        f"<tr><td>{html.escape(k)}</td><td>{_fmt(e)}</td><td>{e.n_tasks}</td></tr>"
        for k, e in summary.pass_at.items()
    )
    for key, labels in summary.breakdown.items():
        rows += "".join(
            f"<tr><td>pass@1, {html.escape(key)} = {html.escape(label)}</td><td>{_fmt(e)}</td>"
            f"<td>{e.n_tasks}</td></tr>"
            for label, e in labels.items()
        )
    if summary.episodes is not None:
        for turns, e in summary.episodes["pass@1_by_turns"].items():
            est = Estimate.model_validate(e)
            rows += f"<tr><td>pass@1 within {turns} turn(s)</td><td>{_fmt(est)}</td>"
            rows += f"<td>{est.n_tasks}</td></tr>"
        rows += (
            f"<tr><td>mean turns</td><td>{summary.episodes['turns_mean']:.2f}</td><td></td></tr>"
        )
        rate = summary.episodes["tool_error_rate"]
        rows += f"<tr><td>tool-call error rate</td><td>{rate:.3f}</td><td></td></tr>"
        if "valid_call_frac" in summary.episodes:
            valid = summary.episodes["valid_call_frac"]
            rows += f"<tr><td>episodes with a valid call</td><td>{valid:.3f}</td><td></td></tr>"
        if "answered_call_frac" in summary.episodes:
            answered = summary.episodes["answered_call_frac"]
            rows += ("<tr><td>episodes with a call the tool carried out</td>"
                     f"<td>{answered:.3f}</td><td></td></tr>")  # fmt: skip
        if "pass@1_after_retry" in summary.episodes:
            est = Estimate.model_validate(summary.episodes["pass@1_after_retry"])
            rows += f"<tr><td>pass@1 after a retry</td><td>{_fmt(est)}</td>"
            rows += f"<td>{est.n_tasks}</td></tr>"
    episodes = transcripts_html(groups)
    worst = sorted(
        (r for r in results if r.pass_at.get("pass@1") is not None),
        key=lambda r: r.pass_at["pass@1"] or 0.0,
    )[:10]
    failing = "".join(f"<li>{html.escape(r.task_id)}: {r.correct}/{r.n_scored}</li>" for r in worst)
    png = base64.b64encode(image.read_bytes()).decode()
    warnings = "".join(
        f'<p style="color:#b00"><b>Warning: {html.escape(w)}</b></p>' for w in summary.warnings
    )
    page = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>rlvr eval {html.escape(summary.env)}</title>
<style>body{{font-family:sans-serif;max-width:1000px;margin:2em auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 8px}}</style></head>
<body><h1>{html.escape(summary.model)} on {html.escape(summary.env)} ({summary.split} split)</h1>
{warnings}
<p>{summary.n_tasks} tasks x {summary.n_samples} samples at temperature {summary.temperature};
{summary.masked} masked samples (left out), {summary.masked_tasks} tasks without enough scored
samples. Intervals: 95% percentile bootstrap over tasks.</p>
<table><tr><th>metric</th><th>mean [95% interval]</th><th>tasks</th></tr>{rows}</table>
<figure><img alt="evaluation" src="data:image/png;base64,{png}"></figure>
<h2>Lowest pass@1</h2><ul>{failing}</ul>
{episodes}
</body></html>
"""
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
