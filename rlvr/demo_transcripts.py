"""What a demo stage's held-out episodes did, before and after training: figures and transcripts.

An agent's pass@1 says how often it succeeds, not what it does. The figures split it: how many
episodes made a call the tool carried out, and how much passed without a retry and after one (an
answer the tool turned down, then a right one). A handful of transcripts shows it. Their tasks
are chosen by a fixed rule over the two evaluations' stores (never by hand): the first held-out
tasks whose first episode failed before and passed after, then the first that went the other
way, so the page shows a loss as readily as a gain.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from rlvr.registry import load_env
from rlvr.shorten import shorten
from rlvr.store import GroupStore
from rlvr.types import Sample, Verdict

TURN_CHARS = 1500


Firsts = dict[str, tuple[Sample, Verdict]]
"""task id -> the first sampled episode of its group and that episode's verdict."""


def first_episodes(store: Path) -> Firsts:
    """Each task's first episode in an evaluation's groups.jsonl (single-turn answers left out)."""
    out: Firsts = {}
    for group in GroupStore(store):  # a torn last line of an interrupted run is skipped
        if group.samples and group.samples[0].episode is not None:
            out.setdefault(group.task_id, (group.samples[0], group.verdicts[0]))
    return out


def pick(
    before: Firsts,
    after: Firsts,
    gains: int = 3,
    losses: int = 1,
) -> list[str]:
    """Task ids: the first `gains` that failed before and passed after, then the first
    `losses` the other way (in the before store's order)."""
    common = [t for t in before if t in after]
    up = [t for t in common if not before[t][1].passed and after[t][1].passed]
    down = [t for t in common if before[t][1].passed and not after[t][1].passed]
    return up[:gains] + down[:losses]


def render_episode(sample: Sample, verdict: Verdict) -> str:
    """One episode as the model and the tool spoke, then the judge's reward."""
    assert sample.episode is not None  # first_episodes keeps episodes only
    lines = []
    for turn in sample.episode.turns:
        lines.append(f"model: {shorten(turn.text, TURN_CHARS)}")
        lines += [f"tool:  {shorten(o.content, TURN_CHARS)}" for o in turn.observations]
    lines.append(f"judge: reward {verdict.reward}")
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
    with a call the tool carried out, pass@1 without a retry, and pass@1 after one (an answer
    the tool had turned down, then a right one). An answer a malformed call left in the text
    counts as no retry: only a turned-down answer is feedback."""
    ep = getattr(summary, "episodes", None)
    if not ep:
        return None
    by_turns = ep["pass@1_by_turns"]
    passed = by_turns[max(by_turns, key=int)]["mean"]
    after = ep["pass@1_after_retry"]["mean"]
    called = ep["answered_call_frac"]
    return {"called": called, "without_retry": passed - after, "after_retry": after}


def figures_html(before: Any, after: Any) -> str:
    """The figures of both evaluations as a small table (empty for single-turn stages)."""
    b, a = episode_figures(before), episode_figures(after)
    if b is None or a is None:
        return ""
    labels = {"called": "episodes with a call the tool carried out",
              "without_retry": "pass@1 without a retry",
              "after_retry": "pass@1 after a retry (turned down, then right)"}  # fmt: skip
    rows = "".join(f"<tr><td>{v}</td><td>{b[k]:.3f}</td><td>{a[k]:.3f}</td></tr>"
                   for k, v in labels.items())  # fmt: skip
    return (
        "<h3>What the episodes did</h3>"
        f"<table><tr><th></th><th>before</th><th>after</th></tr>{rows}</table>"
    )
