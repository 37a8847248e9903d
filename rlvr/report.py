"""A run's curves as PNG files and one self-contained HTML page.

Reads RUN_DIR/metrics.jsonl (one row per step, as every learner writes it) and RUN_DIR/
config.json. Draws the curves to watch in a run: reward, KL, length, entropy and the
zero-variance rate, plus loss and margin curves for DPO runs. A panel whose figures are all
missing (e.g. KL with beta = 0, which loads no reference) is left out and listed as such. The
HTML embeds the images as base64, so the page can be mailed or archived alone.
"""

from __future__ import annotations

import base64
import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError


@dataclass(frozen=True)
class Panel:
    """One PNG: a file stem, a title, and the metrics drawn on it."""

    name: str
    title: str
    keys: tuple[str, ...]


PANELS = (
    Panel(
        "reward", "Reward (mean over scored answers) and pass rate", ("reward_mean", "pass_rate")
    ),
    Panel(
        "eval",
        "Held-out pass@1 (test split, 95% interval) beside the training reward",
        ("reward_mean", "eval/pass@1"),
    ),
    Panel(
        "kl", "KL to the reference (kl) and to the sampling policy (approx_kl)", ("kl", "approx_kl")
    ),
    Panel("length", "Completion length (tokens)", ("completion_len_mean", "completion_len_max")),
    Panel("entropy", "Token entropy", ("entropy",)),
    Panel(
        "zero_variance",
        "Zero-variance groups, masked answers, truncation",
        ("zero_variance_frac", "masked_frac", "trunc_rate"),
    ),
    Panel("value", "Critic (PPO)", ("value_loss", "explained_variance")),
    Panel("dpo_loss", "DPO loss and pair accuracy", ("loss", "reward_accuracy")),
    Panel("dpo_margin", "DPO implicit rewards", ("chosen_reward", "rejected_reward", "margin")),
)


def read_metrics(run_dir: str | Path) -> list[dict[str, Any]]:
    """The metrics rows of a run, in step order (a torn last line is skipped)."""
    path = Path(run_dir) / "metrics.jsonl"
    if not path.is_file():
        raise RlvrError(
            f"{run_dir}: no metrics.jsonl",
            "point `rlvr report` at a folder written by `rlvr train --out`",
        )
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return sorted(rows, key=lambda r: r.get("step", 0))


def series(rows: list[dict[str, Any]], key: str) -> tuple[list[int], list[float]]:
    """(steps, values) of the rows where `key` has a number."""
    pts = [(r["step"], float(r[key])) for r in rows if isinstance(r.get(key), int | float)]
    return [s for s, _ in pts], [v for _, v in pts]


def plot_panels(rows: list[dict[str, Any]], out_dir: Path) -> tuple[list[Path], list[str]]:
    """Write one PNG per panel with data; returns (written files, titles of empty panels)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written, empty = [], []
    flagged = sorted({k for r in rows for k in r if k.startswith("flagged_")})
    hacks = Panel("hack_flags", "Answers with hack flags (share, in all and per kind)",
                  tuple(flagged) or ("flagged_frac",))  # fmt: skip
    for panel in (*PANELS, hacks):
        lines = [(k, *series(rows, k)) for k in panel.keys]
        lines = [(k, x, y) for k, x, y in lines if x]
        held_out = any(k == "eval/pass@1" for k, _, _ in lines)
        if not lines or (panel.name == "eval" and not held_out):
            empty.append(panel.title)
            continue
        fig, ax = plt.subplots(figsize=(6, 3.2), dpi=80)
        for key, x, y in lines:
            ax.plot(x, y, marker="." if len(x) < 40 or "/" in key else None, label=key)
            _interval_band(ax, rows, key)
        ax.set_title(panel.title, fontsize=10)
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = out_dir / f"{panel.name}.png"
        fig.savefig(path)
        plt.close(fig)
        written.append(path)
    return written, empty


def _interval_band(ax: Any, rows: list[dict[str, Any]], key: str) -> None:
    """Shade `key`'s 95% interval where rows carry `<key>_ci95` = [lo, hi]."""
    pts = [(r["step"], *r[f"{key}_ci95"]) for r in rows if r.get(f"{key}_ci95")]
    if pts:
        ax.fill_between([p[0] for p in pts], [p[1] for p in pts], [p[2] for p in pts], alpha=0.2)


def summary(rows: list[dict[str, Any]], window: int = 5) -> dict[str, dict[str, float | None]]:
    """First-window mean, last-window mean and change for the headline metrics."""
    out: dict[str, dict[str, float | None]] = {}
    for key in (
        "reward_mean",
        "pass_rate",
        "eval/pass@1",
        "kl",
        "entropy",
        "completion_len_mean",
        "zero_variance_frac",
        "loss",
        "reward_accuracy",
    ):
        _, y = series(rows, key)
        if not y:
            continue
        w = min(window, len(y))
        first, last = sum(y[:w]) / w, sum(y[-w:]) / w
        out[key] = {"first": first, "last": last, "change": last - first}
    return out


def _table(stats: dict[str, dict[str, float | None]]) -> str:
    head = "<tr><th>metric</th><th>first steps</th><th>last steps</th><th>change</th></tr>"
    body = "".join(
        f"<tr><td>{html.escape(k)}</td>"
        + "".join(
            f"<td>{v[c]:+.4g}</td>" if c == "change" else f"<td>{v[c]:.4g}</td>"
            for c in ("first", "last", "change")
        )
        + "</tr>"
        for k, v in stats.items()
    )
    return f"<table>{head}{body}</table>"


UNSAFE_KEY = "unsafe_local_judge"
"""rlvr.sandbox.local.UNSAFE_KEY (a higher layer): the detail a verdict of the unsafe local
judge carries; a run whose groups hold one gets the judge's note at the top of its page."""


def grading_warnings(run_dir: str | Path) -> list[str]:
    """The unsafe local judge's notes found in RUN_DIR/groups.jsonl (empty when none)."""
    path, found = Path(run_dir) / "groups.jsonl", set()
    if not path.is_file():
        return []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if UNSAFE_KEY not in line:
                continue
            try:
                verdicts = json.loads(line).get("verdicts", [])
            except json.JSONDecodeError:
                continue  # a torn last line
            found |= {str(v["details"][UNSAFE_KEY]) for v in verdicts
                      if UNSAFE_KEY in (v.get("details") or {})}  # fmt: skip
    return sorted(found)


def write_report(run_dir: str | Path) -> Path:
    """PNG curves beside the metrics and RUN_DIR/report.html; returns the HTML path."""
    run = Path(run_dir)
    rows = read_metrics(run)
    if not rows:
        raise RlvrError(f"{run}/metrics.jsonl has no rows", "let the run finish at least a step")
    images, empty = plot_panels(rows, run)
    cfg_path = run / "config.json"
    config = cfg_path.read_text(encoding="utf-8") if cfg_path.is_file() else "{}"
    figures = "".join(
        f'<figure><img alt="{p.stem}" src="data:image/png;base64,'
        f'{base64.b64encode(p.read_bytes()).decode()}"></figure>'
        for p in images
    )
    missing = "".join(f"<li>{html.escape(t)}</li>" for t in empty)
    warnings = "".join(
        f'<p style="color:#b00"><b>Warning: {html.escape(w)}</b></p>' for w in grading_warnings(run)
    )
    page = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>rlvr run {html.escape(run.name)}</title>
<style>body{{font-family:sans-serif;max-width:1000px;margin:2em auto}}
table{{border-collapse:collapse}}td,th{{border:1px solid #ccc;padding:2px 8px;text-align:right}}
figure{{display:inline-block;margin:4px}}pre{{background:#f6f6f6;padding:8px;font-size:12px}}
</style></head><body>
<h1>Run {html.escape(run.name)}</h1>
{warnings}
<p>{sum("eval/pass@1" not in r for r in rows)} training steps, last step \
{rows[-1].get("step")}.</p>
{_table(summary(rows))}
{figures}
{f"<p>No data for:</p><ul>{missing}</ul>" if missing else ""}
<h2>Config</h2><pre>{html.escape(config)}</pre>
</body></html>
"""
    out = run / "report.html"
    out.write_text(page, encoding="utf-8")
    return out
