"""runs/demo/index.html: the demo's one page, with the curves inline.

One section per demo stage (rlvr.demo.Stage): the held-out pass@1 before and after training
(95% intervals, the paired difference and its p-value), the held-out curve beside the training
reward, the frontier histogram, the hack audit, and links to the full frontier, training and
evaluation reports. The code stage (rlvr.demo_code) is evaluation only: its section shows the
sandbox's pass@1 with its interval, answers per second and a few passed and failed answers,
and says plainly when it did not run. Images and links are relative to the page, so the folder
can be moved or archived as a whole.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from rlvr.demo_transcripts import figures_html, transcripts_html
from rlvr.models import TINY_BUILDERS, resolve_model
from rlvr.shorten import shorten


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
        f"<h3>Held-out pass@1: before and after training</h3>"
        f"<p>{before.n_tasks} held-out tasks of {html.escape(before.env)} (test split, never "
        f"trained on), {before.n_samples} samples each at temperature {before.temperature}; "
        f"intervals are 95% bootstrap intervals over tasks.</p>"
        f"<table><tr><th></th><th>before ({html.escape(before.model)})</th>"
        f"<th>after (the trained run)</th></tr>{rows}</table>"
        f"<p><b>Paired difference (after - before): {paired.diff:+.3f}</b> "
        f"[{lo:+.3f}, {hi:+.3f}], p = {paired.p_value:.3g} ({html.escape(paired.test)}); "
        f"{paired.better} tasks better, {paired.worse} worse, {paired.ties} tied.</p>"
    )


def warm_start_sentence(model: str) -> str:
    """What the stage's warm start did, from its sft.json: where a warm start built to a
    strength (rlvr.warm_strength) stopped, and what its checks read ("" for other models)."""
    if model not in TINY_BUILDERS:
        return ""
    record_path = Path(resolve_model(model)) / "sft.json"
    if not record_path.is_file():
        return ""
    return sft_sentence(json.loads(record_path.read_text(encoding="utf-8")))


def sft_sentence(record: dict[str, Any]) -> str:
    """One sentence on a warm start's sft.json record (steps, and a strength rule's checks)."""
    strength = record.get("strength")
    if not strength:
        return f"The warm start trained {record['steps']} SFT steps."
    rule, checks = strength["rule"], strength["checks"]
    reads = ", ".join(f"{c['pass_at_1']:.3f} at step {c['step']}" for c in checks) or "none"
    ending = (
        f"stopped at step {record['steps']}, the first check to reach {rule['target']}"
        if strength["reached"]
        else f"trained all {record['steps']} steps without reaching {rule['target']}"
    )
    return (
        f"The warm start {ending}: sampled pass@1 ({rule['samples']} answers a pair) on the "
        f"{strength['probe_tasks']} validation pairs of the train split left out of it read "
        f"{reads}."
    )


def _section(result: Any, base: Path) -> str:
    """One stage: before/after, training curves, frontier, hack audit."""
    stage, f, run = result.stage, result.frontier, result.run_dir
    name = html.escape(stage.name)
    flags = ", ".join(f"{k}: {v}" for k, v in sorted(result.flag_counts.items())) or "none"
    curves = "".join(
        f"<figure><img alt='{name} {kind}' src='{_rel(run / f'{kind}.png', base)}'></figure>"
        for kind in ("eval", "reward")
        if (run / f"{kind}.png").is_file()
    )
    hist = result.pages["histogram"]
    hist_img = f"<img alt='{name} frontier' src='{_rel(hist, base)}'>" if hist.is_file() else ""
    evals = "".join(
        f"<a href='{_rel(run.parent / kind / 'report.html', base)}'>{kind}</a> "
        for kind in ("eval-before", "eval-after")
        if (run.parent / kind / "report.html").is_file()
    )
    return (
        f"<h2 id='{name}'>{html.escape(stage.title)}</h2>"
        f"<p>{html.escape(stage.env)}, starting from {html.escape(stage.model)}. "
        f"{html.escape(stage.why)}</p><p>{html.escape(warm_start_sentence(stage.model))}</p>"
        f"{_held_out(result)}{figures_html(result.before, result.after)}"
        f"{transcripts_html(stage.env, run.parent / 'eval-before', run.parent / 'eval-after')}"
        f"<h3>Training (GRPO)</h3><p>Training reward {_fmt(result.reward_first)} over the "
        f"first steps, {_fmt(result.reward_last)} over the last. "
        f"<a href='{_rel(result.pages['run'], base)}'>training report</a>; evaluations: "
        f"{evals}</p>{curves}"
        f"<h3>Frontier</h3><p>{f['tasks']} train-split tasks sampled {f['k']} times: "
        f"{f['always_pass']} always pass, {f['always_fail']} always fail, {f['kept']} kept "
        f"({f['saved_fraction']:.0%} of sampling saved). "
        f"<a href='{_rel(result.pages['frontier'], base)}'>frontier report</a></p>{hist_img}"
        f"<h3>Hack audit of the training answers</h3><p>{html.escape(flags)}</p>"
    )


def _answers(title: str, examples: list[Any]) -> str:
    items = "".join(
        f"<details><summary>{html.escape(e.task_id)}: {html.escape(e.reason[:200])}</summary>"
        f"<pre>{html.escape(shorten(e.text, 1500))}</pre><p>verdict: "
        f"{'passed' if e.passed else 'failed'}; {html.escape(e.reason)}</p></details>"
        for e in examples
    )
    return f"<h3>{title}</h3>{items or '<p>none</p>'}"


def _code_section(code: Any, base: Path) -> str:
    """The evaluation-only code stage: pass@1 in the sandbox, speed, passed/failed answers."""
    stage = code.stage
    head = (
        f"<h2 id='{html.escape(stage.name)}'>{html.escape(stage.title)}</h2>"
        f"<p>{html.escape(stage.env)}, answered by {html.escape(stage.model)}. "
        f"{html.escape(stage.why)}</p>"
    )
    if code.skipped is not None or code.summary is None:
        return head + f"<p><b>Not run</b>: {html.escape(code.skipped or 'no result')}</p>"
    s = code.summary
    speed = "-" if code.answers_per_s is None else f"{code.answers_per_s:.2f}"
    stage_s = "-" if code.seconds is None else f"{code.seconds:.0f} s"
    link = (
        f"<a href='{_rel(code.report, base)}'>evaluation report</a>"
        if code.report.is_file()
        else ""
    )
    return head + (
        f"<h3>Held-out pass@1, graded in the sandbox (no training)</h3>"
        f"<p><b>pass@1 {_interval(s.pass_at.get('pass@1'))}</b> on {s.n_tasks} test-split tasks, "
        f"one greedy answer each (95% bootstrap interval over tasks); {s.masked} answers masked "
        f"(not scored by the sandbox). {speed} answers/s sampled and graded; the stage took "
        f"{stage_s} with the model load. {link}</p>"
        f"{_answers('Passed answers', code.passed)}{_answers('Failed answers', code.failed)}"
    )


def write_index(results: list[Any], index: Path, code: Any = None) -> Path:
    """Write `index` with one section per stage result, then the code stage's section when
    `code` (an rlvr.demo_code.CodeResult) is given; every path is relative to the page."""
    index.parent.mkdir(parents=True, exist_ok=True)
    base = index.parent.resolve()
    sandbox = "; a real model's code graded in the sandbox" if code is not None else ""
    stages = [r.stage for r in results] + ([code.stage] if code is not None else [])
    toc = " &middot; ".join(
        f"<a href='#{html.escape(s.name)}'>{html.escape(s.title)}</a>" for s in stages
    )
    page = (
        "<!doctype html><meta charset='utf-8'><title>rlvr demo</title>"
        "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px}"
        "figure{display:inline-block;margin:4px}</style>"
        f"<h1>rlvr demo: GRPO on the tiny model, held-out before and after{sandbox}</h1>"
        f"<p>{toc}</p>"
        + "".join(_section(r, base) for r in results)
        + (_code_section(code, base) if code is not None else "")
    )
    index.write_text(page, encoding="utf-8")
    return index


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"
