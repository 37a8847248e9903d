"""Preference pairs: best scored answer against worst, with a margin, never from masked ones."""

from __future__ import annotations

import json

import pytest

import rlvr
from rlvr.pairs import best_and_worst, preference_pairs, write_pairs
from rlvr.types import Sample, ScoredGroup, Verdict


@pytest.fixture(scope="module")
def env() -> rlvr.Environment:
    return rlvr.load_env("math")


def group(task_id: str, verdicts: list[Verdict]) -> ScoredGroup:
    samples = [Sample(task_id=task_id, index=i, text=f"answer {i}") for i in range(len(verdicts))]
    return ScoredGroup(env="math", task_id=task_id, samples=samples, verdicts=verdicts)


def test_best_against_worst_with_ties_going_to_the_earliest(env) -> None:
    g = group(
        "math/add1-001",
        [Verdict.reject("x"), Verdict.score(1.0), Verdict.score(1.0), Verdict.reject("y")],
    )
    assert best_and_worst(g) == (1, 0, 1.0)
    records, counts = preference_pairs([g], env)
    task = env.task("math/add1-001")
    assert records == [
        {"prompt": env.format_prompt(task), "chosen": "answer 1", "rejected": "answer 0"}
    ]
    assert (counts.groups, counts.pairs) == (1, 1)


def test_masked_answers_are_never_chosen_or_rejected(env) -> None:
    g = group(
        "math/add1-002",
        [Verdict.error("timeout", "slow"), Verdict.score(0.5), Verdict.error("infra_error", "x")],
    )
    _, counts = preference_pairs([g], env)
    assert counts.pairs == 0 and counts.too_few_scored == 1
    g2 = group(
        "math/add1-002",
        [Verdict.error("grader_error", "bad gold"), Verdict.score(0.2), Verdict.score(0.9)],
    )
    records, _ = preference_pairs([g2], env, with_meta=True)
    assert records[0]["chosen"] == "answer 2" and records[0]["rejected"] == "answer 1"
    assert records[0]["margin"] == pytest.approx(0.7) and records[0]["task_id"] == "math/add1-002"


def test_margin_filter_and_ties(env) -> None:
    tie = group("math/add1-003", [Verdict.score(1.0), Verdict.score(1.0)])
    small = group("math/add1-004", [Verdict.score(0.6), Verdict.score(0.5)])
    wide = group("math/add1-005", [Verdict.score(0.0), Verdict.score(1.0)])
    records, counts = preference_pairs([tie, small, wide], env, min_margin=0.5)
    assert len(records) == 1 and records[0]["chosen"] == "answer 1"
    assert (counts.groups, counts.pairs, counts.below_margin) == (3, 1, 2)


def test_conversational_records_and_jsonl(env, tmp_path) -> None:
    g = group("math/sub1-001", [Verdict.score(1.0), Verdict.reject("wrong")])
    records, _ = preference_pairs([g], env, conversational=True)
    (record,) = records
    assert record["prompt"] == env.messages(env.task("math/sub1-001"))
    assert record["chosen"] == [{"role": "assistant", "content": "answer 0"}]
    assert record["rejected"] == [{"role": "assistant", "content": "answer 1"}]
    path = tmp_path / "pairs.jsonl"
    assert write_pairs(records, path) == 1
    assert json.loads(path.read_text()) == record
