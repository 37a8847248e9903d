import pytest
from pydantic import ValidationError

from rlvr.types import Flag, GroupStats, Sample, ScoredGroup, Task, TestOutcome, Verdict


def test_task_json_round_trip():
    t = Task(id="t1", prompt="2+2?", gold="4", tools=[{"name": "f"}], meta={"level": 1})
    assert Task.model_validate_json(t.model_dump_json()) == t


def test_sample_round_trip_and_logprob_alignment():
    s = Sample(task_id="t", index=0, text="4", token_ids=[1, 2], logprobs=[-0.1, -0.2])
    assert Sample.model_validate_json(s.model_dump_json()) == s
    with pytest.raises(ValidationError, match="one log-probability per generated token"):
        Sample(task_id="t", index=0, text="4", token_ids=[1, 2], logprobs=[-0.1])


def test_verdict_round_trip_with_flags():
    v = Verdict.score(1.0, "ok", flags=[Flag(kind="early_exit", evidence="os._exit")])
    assert v.passed
    assert Verdict.model_validate_json(v.model_dump_json()) == v


def test_verdict_typed_test_outcomes_and_cause():
    tests = [
        TestOutcome(name="test_a", outcome="passed", visibility="public"),
        TestOutcome(name="test_b", outcome="failed", message="assert 1 == 2", visibility="hidden"),
    ]
    v = Verdict.score(0.0, "1/2 tests passed", tests=tests, cause="tests_failed")
    assert Verdict.model_validate_json(v.model_dump_json()) == v
    with pytest.raises(ValidationError, match="cause"):
        Verdict.score(1.0, "ok", cause="why_not")
    with pytest.raises(ValidationError, match="a passed verdict has no failure cause"):
        Verdict.score(1.0, "ok", cause="timeout")


def test_verdict_reads_tests_from_old_store_lines():
    """Scored groups written before `Verdict.tests` kept the outcomes in details["tests"]."""
    line = [{"name": "t", "outcome": "failed", "message": "boom"}]
    old = {"status": "scored", "reward": 0.0, "reason": "x", "details": {"tests": line}}
    v = Verdict.model_validate(old)
    assert v.tests == [TestOutcome(name="t", outcome="failed", message="boom")]
    odd = {**old, "details": {"tests": [{"outcome": "weird"}]}}
    assert Verdict.model_validate(odd).tests == []  # not the graders' shape: left for humans


def test_non_scored_verdict_cannot_carry_reward():
    with pytest.raises(ValidationError, match="must not carry a reward"):
        Verdict(status="infra_error", reward=0.0)
    v = Verdict.error("timeout", "took too long")
    assert v.reward is None and not v.passed and not v.is_scored


def test_scored_verdict_needs_reward():
    with pytest.raises(ValidationError, match="needs a reward"):
        Verdict(status="scored")


def test_unknown_fields_are_rejected():
    with pytest.raises(ValidationError, match="extra"):
        Task(id="x", prompt="p", answer="typo")


def test_scored_group_alignment_and_round_trip():
    samples = [Sample(task_id="t", index=i, text=str(i)) for i in range(2)]
    verdicts = [Verdict.score(1.0), Verdict.error("infra_error", "daemon gone")]
    g = ScoredGroup(
        env="math",
        task_id="t",
        samples=samples,
        verdicts=verdicts,
        advantages=[0.0, 0.0],
        stats=GroupStats(n=2, n_scored=1, n_masked=1),
    )
    assert g.rewards == [1.0, None]
    assert ScoredGroup.model_validate_json(g.model_dump_json()) == g
    with pytest.raises(ValidationError, match="exactly one verdict"):
        ScoredGroup(env="m", task_id="t", samples=samples, verdicts=verdicts[:1])


@pytest.mark.parametrize("reward", ["1.0", True, "0"])
def test_a_reward_that_is_not_a_number_is_named_not_coerced(reward):
    with pytest.raises(ValidationError, match="reward must be a number"):
        Verdict.model_validate({"status": "scored", "reward": reward, "passed": True})
    assert Verdict.model_validate({"status": "scored", "reward": 1}).reward == 1.0
