"""The demo page's episode view: which transcripts are shown (a fixed rule) and the figures."""

from __future__ import annotations

from types import SimpleNamespace

from rlvr.demo_transcripts import episode_figures, figures_html, pick, transcripts_html
from rlvr.types import Episode, Observation, Sample, ScoredGroup, Turn, Verdict


def _group(task_id: str, passed: bool, text: str = "x") -> ScoredGroup:
    reply = Observation(tool="submit_answer", content="correct" if passed else "wrong.")
    episode = Episode(turns=[Turn(text=text, observations=[reply])], end="submit")
    verdict = Verdict(status="scored", passed=passed, reward=float(passed))
    sample = Sample(task_id=task_id, index=0, text=text, episode=episode)
    return ScoredGroup(env="math-columns-retry", task_id=task_id, samples=[sample],
                       verdicts=[verdict])  # fmt: skip


def test_pick_takes_gains_first_then_a_loss_in_store_order():
    outcome = {"a": (0, 1), "b": (1, 1), "c": (0, 1), "d": (1, 0), "e": (0, 1), "f": (0, 1),
               "g": (1, 0)}  # fmt: skip
    before = {t: _group(t, bool(b)) for t, (b, _) in outcome.items()}
    after = {t: _group(t, bool(a)) for t, (_, a) in outcome.items()}
    before = {t: (g.samples[0], g.verdicts[0]) for t, g in before.items()}
    after = {t: (g.samples[0], g.verdicts[0]) for t, g in after.items()}
    assert pick(before, after) == ["a", "c", "e", "d"]
    assert pick(before, {}) == []


def test_transcripts_show_each_turn_and_the_reply_escaped(tmp_path):
    for name, passed in (("before", False), ("after", True)):
        folder = tmp_path / name
        folder.mkdir()
        text = '32 + 23 = 55. <b>{"name": "submit_answer"}' + "9" * 5000
        lines = [_group("math-columns/add2-001", passed, text).model_dump_json(), "{torn"]
        (folder / "groups.jsonl").write_text("\n".join(lines))
    page = transcripts_html("math-columns-retry", tmp_path / "before", tmp_path / "after")
    assert "What is 32 + 23?" in page  # the task's question, from the environment
    assert page.count("model: 32 + 23 = 55. &lt;b&gt;") == 2 and "tool:  correct" in page
    assert "[... 5042 chars]" in page and "9" * 1600 not in page  # a long turn is cut
    assert "judge: reward 1.0" in page and "judge: reward 0.0" in page
    assert transcripts_html("math-columns-retry", tmp_path / "x", tmp_path / "y") == ""


def test_figures_split_pass_at_1_into_without_and_after_a_retry():
    ep = {"answered_call_frac": 0.5, "pass@1_by_turns": {"1": {"mean": 0.7}, "2": {"mean": 0.75}},
          "pass@1_after_retry": {"mean": 0.05}}  # fmt: skip
    figures = episode_figures(SimpleNamespace(episodes=ep))
    assert figures is not None
    assert figures["called"] == 0.5 and figures["after_retry"] == 0.05
    assert abs(figures["without_retry"] - 0.7) < 1e-12
    assert episode_figures(SimpleNamespace(episodes=None)) is None
    assert figures_html(SimpleNamespace(episodes=None), SimpleNamespace(episodes=ep)) == ""
    assert "0.050" in figures_html(SimpleNamespace(episodes=ep), SimpleNamespace(episodes=ep))
