"""The demo page's episode view: which transcripts are shown (a fixed rule) and the figures."""

from __future__ import annotations

import json
from types import SimpleNamespace

from rlvr.demo_transcripts import episode_figures, figures_html, pick, transcripts_html


def _group(task_id: str, passed: bool, text: str = "x") -> dict:
    turn = {"text": text, "observations": [{"content": "correct" if passed else "wrong."}]}
    return {
        "task_id": task_id,
        "samples": [{"task_id": task_id, "index": 0, "text": text,
                     "episode": {"turns": [turn], "end": "submit"}}],
        "verdicts": [{"passed": passed, "reward": float(passed)}],
    }  # fmt: skip


def test_pick_takes_gains_first_then_a_loss_in_store_order():
    outcome = {"a": (0, 1), "b": (1, 1), "c": (0, 1), "d": (1, 0), "e": (0, 1), "f": (0, 1),
               "g": (1, 0)}  # fmt: skip
    before = {t: ({}, {"passed": bool(b)}) for t, (b, _) in outcome.items()}
    after = {t: ({}, {"passed": bool(a)}) for t, (_, a) in outcome.items()}
    assert pick(before, after) == ["a", "c", "e", "d"]
    assert pick(before, {}) == []


def test_transcripts_show_each_turn_and_the_reply_escaped(tmp_path):
    for name, passed in (("before", False), ("after", True)):
        folder = tmp_path / name
        folder.mkdir()
        text = '32 + 23 = 55. <b>{"name": "submit_answer"}'
        lines = [json.dumps(_group("math-columns/add2-001", passed, text)), "{torn"]
        (folder / "groups.jsonl").write_text("\n".join(lines))
    page = transcripts_html("math-columns-retry", tmp_path / "before", tmp_path / "after")
    assert "What is 32 + 23?" in page  # the task's question, from the environment
    assert page.count("model: 32 + 23 = 55. &lt;b&gt;") == 2 and "tool:  correct" in page
    assert "judge: reward 1.0" in page and "judge: reward 0.0" in page
    assert transcripts_html("math-columns-retry", tmp_path / "x", tmp_path / "y") == ""


def test_figures_split_pass_at_1_into_first_turn_and_later_turns():
    ep = {"valid_call_frac": 0.5, "pass@1_by_turns": {"1": {"mean": 0.7}, "2": {"mean": 0.75}}}
    figures = episode_figures(SimpleNamespace(episodes=ep))
    assert figures is not None
    assert figures["called"] == 0.5 and figures["first_turn"] == 0.7
    assert abs(figures["later_turns"] - 0.05) < 1e-12
    assert episode_figures(SimpleNamespace(episodes=None)) is None
    assert figures_html(SimpleNamespace(episodes=None), SimpleNamespace(episodes=ep)) == ""
    assert "0.050" in figures_html(SimpleNamespace(episodes=ep), SimpleNamespace(episodes=ep))
