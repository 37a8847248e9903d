"""What a demo stage's held-out episodes did, before and after training: figures and transcripts.

An agent's pass@1 says how often it succeeds, not what it does. The figures split it: how many
episodes made a well-formed call, how much passed in the first turn and how much the later turns
added. A handful of transcripts shows it. The transcripts' tasks are chosen by a fixed rule over
the two evaluations' stores (never by hand): the first held-out tasks whose first episode failed
before and passed after, then the first that went the other way, so the page shows a loss as
readily as a gain.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from rlvr.registry import load_env


def first_episodes(store: Path) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """task id -> (first sample, its verdict) of an evaluation's groups.jsonl (episodes only)."""
    out: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    if not store.is_file():
        return out
    for line in store.read_text(encoding="utf-8").splitlines():
        try:
            group = json.loads(line)
        except ValueError:  # a torn last line of an interrupted run
            continue
        samples, verdicts = group.get("samples") or [], group.get("verdicts") or []
        if samples and verdicts and samples[0].get("episode"):
            out.setdefault(samples[0]["task_id"], (samples[0], verdicts[0]))
    return out


def pick(
    before: dict[str, tuple[dict[str, Any], dict[str, Any]]],
    after: dict[str, tuple[dict[str, Any], dict[str, Any]]],
    gains: int = 3,
    losses: int = 1,
) -> list[str]:
    """Task ids: the first `gains` that failed before and passed after, then the first
    `losses` the other way (in the before store's order)."""
    common = [t for t in before if t in after]
    up = [t for t in common if not before[t][1].get("passed") and after[t][1].get("passed")]
    down = [t for t in common if before[t][1].get("passed") and not after[t][1].get("passed")]
    return up[:gains] + down[:losses]


def render_episode(sample: dict[str, Any], verdict: dict[str, Any]) -> str:
    """One episode as the model and the tool spoke, then the judge's reward."""
    lines = []
    for turn in sample["episode"].get("turns", []):
        lines.append(f"model: {turn.get('text', '')}")
        lines += [f"tool:  {o.get('content', '')}" for o in turn.get("observations", [])]
    lines.append(f"judge: reward {verdict.get('reward')}")
    return f"<pre>{html.escape(chr(10).join(lines))}</pre>"


def transcripts_html(env_name: str, eval_before: Path, eval_after: Path) -> str:
    """The section's HTML (empty when the evaluations hold no episodes)."""
    before = first_episodes(eval_before / "groups.jsonl")
    after = first_episodes(eval_after / "groups.jsonl")
    chosen = pick(before, after)
    if not chosen:
        return ""
    prompt_of = {t.id: t.prompt for t in load_env(env_name).tasks()}
    rows = "".join(
        f"<tr><td colspan='2'><b>{html.escape(t)}</b>: {html.escape(prompt_of.get(t, ''))}"
        f"</td></tr><tr><td>{render_episode(*before[t])}</td>"
        f"<td>{render_episode(*after[t])}</td></tr>"
        for t in chosen
    )
    return (
        "<h3>Transcripts: the same held-out task before and after</h3>"
        "<p>Each task's first sampled episode in the two evaluations, chosen by a fixed rule: the "
        "first tasks that failed before and passed after, then the first that passed before "
        "and failed after.</p>"
        f"<table><tr><th>before</th><th>after</th></tr>{rows}</table>"
    )


def episode_figures(summary: Any) -> dict[str, float] | None:
    """An evaluation's episode figures (None for single-turn answers): the share of episodes
    with a well-formed call, pass@1 in the first turn, and what later turns added to it."""
    ep = getattr(summary, "episodes", None)
    if not ep:
        return None
    by_turns = ep["pass@1_by_turns"]
    first = by_turns["1"]["mean"]
    last = by_turns[max(by_turns, key=int)]["mean"]
    return {"called": ep["valid_call_frac"], "first_turn": first, "later_turns": last - first}


def figures_html(before: Any, after: Any) -> str:
    """The figures of both evaluations as a small table (empty for single-turn stages)."""
    b, a = episode_figures(before), episode_figures(after)
    if b is None or a is None:
        return ""
    labels = {"called": "episodes with a well-formed tool call",
              "first_turn": "pass@1 in the first turn",
              "later_turns": "pass@1 added by later turns (after a tool's reply)"}  # fmt: skip
    rows = "".join(f"<tr><td>{v}</td><td>{b[k]:.3f}</td><td>{a[k]:.3f}</td></tr>"
                   for k, v in labels.items())  # fmt: skip
    return (
        "<h3>What the episodes did</h3>"
        f"<table><tr><th></th><th>before</th><th>after</th></tr>{rows}</table>"
    )
