"""Write an audit to disk: JSONL per task, a summary, a PNG histogram and one HTML page.

The HTML page is self-contained apart from the PNG next to it: a summary table, the histogram
of per-task mutation scores, a table of every task, and one section per specification gap with
the failing reference, the trivial answers that passed and each surviving mutant as a diff.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from rlvr.audit.specgap.audit import GapSummary, TaskAudit

HISTOGRAM = "mutation_scores.png"
MAX_DIFFS = 5


def histogram_png(scores: list[float], path: Path, title: str) -> Path:
    """A histogram of mutation scores in [0, 1], ten bins."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    ax.hist(scores, bins=[i / 10 for i in range(11)], color="#4c72b0", edgecolor="white")
    ax.set_xlabel("mutation score (share of mutants the tests kill)")
    ax.set_ylabel("tasks")
    ax.set_title(title)
    ax.set_xlim(0, 1)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return html.escape(str(value))


def _summary_table(s: GapSummary) -> str:
    shown = s.model_dump(exclude={"checks", "note"})
    rows = "".join(
        f"<tr><th>{html.escape(k)}</th><td>{_cell(v)}</td></tr>" for k, v in shown.items()
    )
    return f"<table class='summary'>{rows}</table>"


def _checks(s: GapSummary) -> str:
    items = "".join(f"<li>{html.escape(c)}</li>" for c in s.checks)
    note = f"<p class='note'>{html.escape(s.note)}</p>" if s.note else ""
    return f"<h2>Checks that ran ({html.escape(s.language or '?')})</h2><ul>{items}</ul>{note}"


def _task_table(audits: list[TaskAudit]) -> str:
    head = (
        "task",
        "reference passes",
        "trivials fail",
        "mutants",
        "killed",
        "stillborn",
        "score",
        "gap",
    )
    rows = []
    for a in audits:
        cells = (
            f"<a href='#{html.escape(a.task_id)}'>{html.escape(a.task_id)}</a>"
            if a.gap
            else html.escape(a.task_id),
            _cell(a.reference_passed),
            _cell(a.trivial_failed),
            _cell(a.mutants),
            _cell(a.mutants_killed),
            _cell(a.mutants_stillborn),
            _cell(a.mutation_score),
            _cell(a.gap),
        )
        cls = " class='gap'" if a.gap else ""
        rows.append(f"<tr{cls}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    header = "".join(f"<th>{h}</th>" for h in head)
    return f"<table><tr>{header}</tr>{''.join(rows)}</table>"


def _gap_section(a: TaskAudit) -> str:
    parts = [f"<h3 id='{html.escape(a.task_id)}'>{html.escape(a.task_id)}</h3><ul>"]
    parts += [f"<li>{html.escape(r)}</li>" for r in a.reasons]
    parts.append("</ul>")
    for g in a.surviving[:MAX_DIFFS]:
        parts.append(
            f"<p>surviving mutant <b>{html.escape(g.name)}</b> ({html.escape(g.operator)})</p>"
        )
        parts.append(f"<pre>{html.escape(g.diff)}</pre>")
    if len(a.surviving) > MAX_DIFFS:
        parts.append(f"<p>... and {len(a.surviving) - MAX_DIFFS} more in tasks.jsonl</p>")
    return "".join(parts)


STYLE = """body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;
margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}tr.gap{background:#fff3e0}
pre{background:#f6f8fa;padding:8px;overflow-x:auto}"""


def write_gap_report(out_dir: Path, audits: list[TaskAudit], s: GapSummary) -> Path:
    """Write tasks.jsonl, summary.json, the histogram and report.html into out_dir."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / "tasks.jsonl").open("w", encoding="utf-8") as fh:
        for a in audits:
            fh.write(a.model_dump_json() + "\n")
    (out_dir / "summary.json").write_text(s.model_dump_json(indent=2) + "\n", encoding="utf-8")
    scores = [a.mutation_score for a in audits if a.mutation_score is not None]
    histogram_png(
        scores, out_dir / HISTOGRAM, f"{s.env}: mutation score per task ({len(scores)} tasks)"
    )
    gaps = [a for a in audits if a.gap]
    body = [
        f"<h1>Specification-gap audit: {html.escape(s.env)}</h1>",
        _summary_table(s),
        _checks(s),
        f"<img src='{HISTOGRAM}' alt='histogram of mutation scores'>",
        f"<h2>Specification gaps ({len(gaps)} of {len(audits)} tasks)</h2>",
        *(_gap_section(a) for a in gaps),
        "<h2>All tasks</h2>",
        _task_table(audits),
    ]
    title = f"<title>audit {html.escape(s.env)}</title>"
    page = f"<!doctype html><meta charset='utf-8'>{title}<style>{STYLE}</style>"
    path = out_dir / "report.html"
    path.write_text(page + "\n".join(body) + "\n", encoding="utf-8")
    return path


def load_audits(path: Path) -> list[TaskAudit]:
    """Read back a tasks.jsonl written by `write_gap_report`."""
    return [
        TaskAudit.model_validate(json.loads(line))
        for line in path.read_text().splitlines()
        if line.strip()
    ]
