"""The `rlvr frontier` job: estimate each task's pass rate, keep the frontier, report the savings.

k answers per task give a pass-rate estimate (stored as scored groups next to the output, so an
interrupted estimate resumes). Tasks inside the band (default strictly between 0 and 1) are
written as Task JSONL, loadable with `--tasks FILE`; beside it go a JSON report, a PNG
histogram of pass rates and an HTML page. The compute saved is the samples a training epoch
would spend on dropped tasks: (always-pass + always-fail + other dropped) x G.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from rlvr.env import Environment
from rlvr.frontier import band_filter, pass_rates
from rlvr.policies.base import Policy
from rlvr.rollout import Progress, RolloutConfig, collect
from rlvr.store import GroupStore
from rlvr.types import ScoredGroup, Task


class FrontierReport(BaseModel):
    """Counts of a frontier filter and the compute it saves."""

    env: str
    k: int = Field(description="Answers sampled per task for the estimate.")
    low: float
    high: float
    exclusive: bool
    tasks: int
    always_pass: int
    always_fail: int
    kept: int
    dropped_other: int = Field(description="Outside the band but neither always-pass nor -fail.")
    unknown: int = Field(description="No scored answer (all masked or not sampled): dropped.")
    group_size: int = Field(description="G used for the per-epoch compute figures.")
    samples_per_epoch_before: int
    samples_per_epoch_after: int
    samples_saved_per_epoch: int
    samples_saved_on_always: int = Field(description="Of those, on always-pass/always-fail tasks.")
    saved_fraction: float
    estimate_samples: int = Field(description="Samples spent on the estimate itself.")
    pass_rates: dict[str, float] = Field(description="Estimated pass rate per task id.")


def frontier_from_groups(
    groups: Iterable[ScoredGroup],
    tasks: Sequence[Task],
    env: str,
    k: int,
    low: float = 0.0,
    high: float = 1.0,
    exclusive: bool = True,
    group_size: int | None = None,
) -> tuple[list[Task], FrontierReport]:
    """Kept tasks (in task order) and the report, from groups already scored."""
    wanted = {t.id for t in tasks}
    groups = [g for g in groups if g.env == env and g.task_id in wanted]
    rates = {tid: rate for (_env, tid), rate in pass_rates(groups).items()}
    kept_rates = band_filter(rates, low, high, exclusive)
    kept = [t for t in tasks if t.id in kept_rates]
    always_pass = sum(r == 1.0 for r in rates.values())
    always_fail = sum(r == 0.0 for r in rates.values())
    always_dropped = sum(r in (0.0, 1.0) and tid not in kept_rates for tid, r in rates.items())
    g = group_size or k
    before, after = len(tasks) * g, len(kept) * g
    report = FrontierReport(
        env=env,
        k=k,
        low=low,
        high=high,
        exclusive=exclusive,
        tasks=len(tasks),
        always_pass=always_pass,
        always_fail=always_fail,
        kept=len(kept),
        dropped_other=len(rates) - len(kept_rates) - always_dropped,
        unknown=len(tasks) - len(rates),
        group_size=g,
        samples_per_epoch_before=before,
        samples_per_epoch_after=after,
        samples_saved_per_epoch=before - after,
        samples_saved_on_always=always_dropped * g,
        saved_fraction=(before - after) / before if before else 0.0,
        estimate_samples=sum(len(grp.samples) for grp in groups),
        pass_rates={t.id: rates[t.id] for t in tasks if t.id in rates},
    )
    return kept, report


def report_paths(out: Path) -> dict[str, Path]:
    """Where the job writes, all beside the kept-tasks file."""
    stem = out.name.removesuffix(".jsonl")
    return {
        "tasks": out,
        "groups": out.with_name(f"{stem}.groups.jsonl"),
        "report": out.with_name(f"{stem}.report.json"),
        "histogram": out.with_name(f"{stem}.hist.png"),
        "html": out.with_name(f"{stem}.html"),
    }


def plot_histogram(report: FrontierReport, path: Path) -> None:
    """Histogram of estimated pass rates with the kept band shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    k = max(1, report.k)
    edges = [(i - 0.5) / k for i in range(k + 2)]
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=100)
    ax.axvspan(report.low, report.high, color="tab:green", alpha=0.12, label="kept band")
    ax.hist(list(report.pass_rates.values()), bins=edges, color="tab:blue", edgecolor="white")
    ax.set_xlabel(f"estimated pass rate ({report.k} samples per task)")
    ax.set_ylabel("tasks")
    ax.set_title(
        f"{report.env}: {report.kept} kept, {report.always_pass} always pass, "
        f"{report.always_fail} always fail"
    )
    ax.legend(loc="upper left", fontsize="small", framealpha=0.9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def render_html(report: FrontierReport, histogram: str) -> str:
    """A standalone page: counts, compute saved, the histogram and every task's rate."""
    counts = [
        ("tasks", report.tasks),
        ("kept", report.kept),
        ("always pass", report.always_pass),
        ("always fail", report.always_fail),
        ("other dropped", report.dropped_other),
        ("unknown (no scored answer)", report.unknown),
        ("samples per epoch before", report.samples_per_epoch_before),
        ("samples per epoch after", report.samples_per_epoch_after),
        (
            "samples saved per epoch",
            f"{report.samples_saved_per_epoch} ({report.saved_fraction:.0%})",
        ),
        ("samples spent on the estimate", report.estimate_samples),
    ]
    rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{v}</td></tr>" for k, v in counts)
    band = f"{report.low} {'<' if report.exclusive else '<='} p {'<' if report.exclusive else '<='}"
    tasks = "".join(
        f"<tr><td>{html.escape(tid)}</td><td>{rate:.3f}</td></tr>"
        for tid, rate in sorted(report.pass_rates.items(), key=lambda x: (x[1], x[0]))
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>frontier: {html.escape(report.env)}</title>"
        "<style>body{font-family:sans-serif;max-width:50em;margin:2em auto}"
        "td,th{padding:2px 10px;text-align:left}</style></head><body>"
        f"<h1>Frontier of {html.escape(report.env)}</h1>"
        f"<p>Band: {band} {report.high}, from {report.k} samples per task; "
        f"compute figures for G = {report.group_size}.</p>"
        f"<table>{rows}</table><p><img src='{html.escape(histogram)}' alt='histogram'></p>"
        f"<h2>Pass rate per task</h2><table><tr><th>task</th><th>pass rate</th></tr>{tasks}"
        "</table></body></html>\n"
    )


def write_frontier(kept: Sequence[Task], report: FrontierReport, out: Path) -> dict[str, Path]:
    """Write the kept tasks, the JSON report, the histogram and the HTML page."""
    paths = report_paths(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with paths["tasks"].open("w", encoding="utf-8") as fh:
        for task in kept:
            fh.write(task.model_dump_json() + "\n")
    paths["report"].write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    plot_histogram(report, paths["histogram"])
    paths["html"].write_text(render_html(report, paths["histogram"].name), encoding="utf-8")
    return paths


def run_frontier(
    env: Environment,
    policy: Policy,
    tasks: Sequence[Task],
    config: RolloutConfig,
    out: str | Path,
    low: float = 0.0,
    high: float = 1.0,
    exclusive: bool = True,
    group_size: int | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> tuple[FrontierReport, dict[str, Path]]:
    """Sample `config.g` (= k) answers per task, filter to the band, write everything."""
    out = Path(out)
    band_filter({}, low, high)  # reject a bad band before spending any compute
    store = GroupStore(report_paths(out)["groups"])
    collect(env, policy, config, store, tasks, progress=progress)
    kept, report = frontier_from_groups(
        store, tasks, env.name, config.g, low, high, exclusive, group_size
    )
    return report, write_frontier(kept, report, out)


def summary_line(report: FrontierReport) -> dict[str, object]:
    """The report without the per-task rates, for one JSON line on stdout."""
    return json.loads(report.model_dump_json(exclude={"pass_rates"}))
