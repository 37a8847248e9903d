"""Episodes as transcripts for the evaluation page: what the model wrote, the tools it called,
what they answered, and the verdict, for a few passed and a few failed episodes."""

from __future__ import annotations

import html
from collections.abc import Iterable

from rlvr.shorten import shorten
from rlvr.types import ScoredGroup

SHOWN_PER_SIDE = 3
TEXT_CHARS = 2000


def _cut(text: str) -> str:
    return html.escape(shorten(text, TEXT_CHARS))


def transcripts_html(groups: Iterable[ScoredGroup], per_side: int = SHOWN_PER_SIDE) -> str:
    """HTML sections for up to `per_side` passed and failed episodes ("" when none)."""
    passed, failed = [], []
    for g in groups:
        for s, v in zip(g.samples, g.verdicts, strict=True):
            if s.episode is None or not v.is_scored:
                continue
            side = passed if v.passed else failed
            if len(side) < per_side:
                side.append((g.task_id, s, v))
    if not passed and not failed:
        return ""
    parts = []
    for title, items in (("Passed episodes", passed), ("Failed episodes", failed)):
        parts.append(f"<h2>{title}</h2>")
        for task_id, s, v in items:
            ep = s.episode
            assert ep is not None
            parts.append(f"<details><summary>{html.escape(task_id)} #{s.index}: "
                         f"{len(ep.turns)} turns, ended by {ep.end}; reward {v.reward} "
                         f"({html.escape(v.reason[:160])})</summary>")  # fmt: skip
            for k, turn in enumerate(ep.turns, 1):
                parts.append(f"<h4>turn {k}: model</h4><pre>{_cut(turn.text)}</pre>")
                for call, obs in zip(turn.calls, turn.observations, strict=False):
                    parts.append(f"<p>tool call <code>{html.escape(call.name)}</code> "
                                 f"{_cut(str(call.arguments))}</p>")  # fmt: skip
                    parts.append(f"<pre class=obs>{_cut(obs.content)}</pre>")
                for obs in turn.observations[len(turn.calls) :]:
                    parts.append(f"<pre class=obs>{_cut(obs.content)}</pre>")
            flags = ", ".join(f.kind for f in v.flags)
            parts.append(f"<p>flags: {html.escape(flags) or 'none'}</p></details>")
    return "\n".join(parts)
