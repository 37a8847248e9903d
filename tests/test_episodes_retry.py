"""math-columns-retry: submit through a tool, a wrong answer turned down with the question again,
one retry; and the scripted teacher episodes the demo's agent warm start is taught on."""

from __future__ import annotations

import json
import random
from pathlib import Path

from rlvr.distil import encode_episode
from rlvr.episodes.reference_teacher import reference_turns
from rlvr.episodes.retry import wrong_reply
from rlvr.episodes.run import EpisodeRunner
from rlvr.policies.base import SamplingConfig
from rlvr.policies.replay import ReplayPolicy
from rlvr.registry import load_env
from rlvr.sft import IGNORE
from rlvr.tiny import build_tokenizer
from rlvr.tiny_agent import AGENT_ENV, SHAPES, encode_teacher, teacher_episode, with_result
from rlvr.types import Sample

SUBMIT = json.dumps({"name": "submit_answer"})


def run(env, task, scripts: list[list[str]], tmp_path: Path):
    path = tmp_path / "script.jsonl"
    path.write_text("".join(json.dumps({"task_id": task.id, "turns": s}) + "\n" for s in scripts))
    [group] = EpisodeRunner(env, ReplayPolicy(path)).run([task], len(scripts), SamplingConfig())
    graded = env.grade(task, [r.sample.text for r in group])  # as a single-turn answer
    verdicts = [r.verdict or v for r, v in zip(group, graded, strict=True)]  # the session's own
    assert all(v.passed == g.passed for v, g in zip(verdicts, graded, strict=True))
    return [r.sample.episode for r in group], verdicts


def test_held_out_pairs_are_math_columns_own():
    retry, columns = load_env(AGENT_ENV), load_env("math-columns")
    assert [t.id for t in retry.tasks_in("test")] == [t.id for t in columns.tasks_in("test")]
    assert len(retry.tasks_in("test")) == 383


def test_a_wrong_submission_is_turned_down_with_the_question_and_may_be_retried(tmp_path):
    env = load_env(AGENT_ENV)
    task = env.tasks_in("train")[0]
    right, wrong = task.reference, with_result(task, "0")
    episodes, verdicts = run(env, task, [
        [f"{right} {SUBMIT}"],                                 # right at once: ends, passes
        [f"{wrong} {SUBMIT}", f"{right} {SUBMIT}"],            # wrong, retried right: passes
        [f"{wrong} {SUBMIT}", f"{wrong} {SUBMIT}"],            # wrong twice: final, fails
        [right],                                               # no call: final at once
        [wrong, right],                                        # no call: no second chance
        [f"{wrong} " + json.dumps({"name": "submit_answer",    # the argument is the answer
                                   "arguments": {"answer": str(task.gold)}})],
        [SUBMIT, right],                                       # nothing written yet: an error
    ], tmp_path)  # fmt: skip
    assert [e.end for e in episodes] == [
        "submit",
        "submit",
        "submit",
        "no_call",
        "no_call",
        "submit",
        "no_call",
    ]
    assert [len(e.turns) for e in episodes] == [1, 2, 2, 1, 1, 1, 2]
    # a right answer after a "wrong" earns retry_reward (0.5) once: a right first one earns 1
    assert [v.reward for v in verdicts] == [1.0, 0.5, 0.0, 1.0, 0.0, 1.0, 1.0]
    turned_down = episodes[1].turns[0].observations[0]
    assert turned_down.retry and not turned_down.error
    assert turned_down.content == "wrong. " + env.messages(task)[-1]["content"]
    assert task.prompt in turned_down.content
    last = episodes[2].turns[1].observations[0]  # no turn left: no retry is offered
    assert (last.content, last.retry, last.error) == ("wrong", False, False)
    assert episodes[0].turns[0].observations[0].content == "correct"
    assert episodes[6].turns[0].observations[0].error  # "nothing to submit"


def _submit(answer: str) -> str:
    return (
        "<tool_call>"
        + json.dumps({"name": "submit_answer", "arguments": {"answer": answer}})
        + ("</tool_call>")
    )


def test_one_graded_submission_a_turn_and_no_expression_for_a_value(tmp_path):
    """Found by a cold attack: 16 calls a turn were 16 graded guesses (blind guessing scored
    0.305 held-out), and `\\boxed{32 + 23}` (the question restated) passed."""
    env = load_env(AGENT_ENV)
    task = env.tasks_in("train")[0]  # What is 32 + 23?
    a, b = task.prompt.removeprefix("What is ").removesuffix("?").split(" + ")
    gold = str(task.gold)
    guesses = [str(int(gold) + d) for d in (-2, -1, 1)] + [gold]
    episodes, verdicts = run(env, task, [
        ["".join(_submit(g) for g in guesses[:2]), "".join(_submit(g) for g in guesses[2:])],
        [_submit(f"{a} + {b}")],
        [f"\\boxed{{{a} + {b}}}"],
        [_submit(f"\\boxed{{{gold}}}")],
    ], tmp_path)  # fmt: skip
    replies = [[o.content for o in t.observations] for t in episodes[0].turns]
    assert replies[0][1] == "one submission a turn: this one was not graded"
    assert replies[1] == ["wrong"]  # the second guess was final: the gold after it never ran
    assert [v.reward for v in verdicts] == [0.0, 0.0, 0.0, 1.0]
    assert episodes[3].answer == f"\\boxed{{{gold}}}"  # a boxed argument is not boxed twice


def test_every_teacher_shape_replays_through_the_real_loop_and_passes(tmp_path):
    env = load_env(AGENT_ENV)
    task = env.tasks_in("train")[3]
    reply = wrong_reply(env, task)
    taught = [teacher_episode(task, shape, random.Random(1), reply) for shape in SHAPES]
    played, verdicts = run(env, task, [[t.text for t in e.turns] for e in taught], tmp_path)
    assert all(v.passed for v in verdicts)
    assert [v.reward for v in verdicts] == [1.0, 1.0, 0.5]  # a retry's pass earns retry_reward
    for script, real in zip(taught, played, strict=True):  # the teacher says what the tool says
        assert script.end == real.end
        assert [[o.content for o in t.observations] for t in script.turns] == [
            [o.content for o in t.observations] for t in real.turns
        ]


def test_the_wrong_turn_is_context_only():
    env = load_env(AGENT_ENV)
    tok = build_tokenizer()
    tasks = env.tasks_in("train")[:40]
    encoded = encode_teacher(tok, env, tasks, [0.0, 0.0, 1.0], seed=0)  # all "submit, wrong"
    for task, (ids, labels) in zip(tasks, encoded, strict=True):
        trained = tok.decode([i for i, x in zip(ids, labels, strict=True) if x != IGNORE])
        assert trained == f"{task.reference} {SUBMIT}{tok.eos_token}"  # only the right turn
        assert "wrong." in tok.decode(ids)
    direct = teacher_episode(tasks[0], "direct", random.Random(0), "")
    sample = Sample(task_id=tasks[0].id, index=0, text=direct.answer, episode=direct)
    ids, labels = encode_episode(tok, env, tasks[0], sample, 10**6)
    assert tok.decode([i for i, x in zip(ids, labels, strict=True) if x != IGNORE]) == (
        f"{tasks[0].reference}{tok.eos_token}"
    )


def test_a_plain_final_answer_counts_and_a_long_bad_call_is_not_echoed(tmp_path):
    """A second cold attack: "Answer: 55" in a final turn without a call was lost (the
    grader's own answer-line rule did not run), and a 100,000-character tool name or key came
    back whole in the next turn."""
    env = load_env(AGENT_ENV)
    task = env.tasks_in("train")[0]
    gold = str(task.gold)
    long_name = (
        "<tool_call>" + json.dumps({"name": "y" * 100_000, "arguments": {}}) + "</tool_call>"
    )
    long_key = "<tool_call>" + json.dumps(
        {"name": "submit_answer", "arguments": {"answer": "1"}, "y" * 100_000: 1}
    ) + "</tool_call>"  # fmt: skip
    episodes, verdicts = run(env, task, [
        [f"Answer: {gold}"],
        [_submit(str(int(gold) + 1)), f"Answer: {gold}"],     # the last word counts
        [long_name, f"Answer: {gold}"],
        [long_key, f"Answer: {gold}"],
    ], tmp_path)  # fmt: skip
    assert [v.reward for v in verdicts] == [1.0, 0.5, 1.0, 1.0]  # the second after a "wrong"
    assert episodes[1].answer == f"Answer: {gold}"
    for e in episodes[2:]:
        assert len(e.turns[0].observations[0].content) < 1000


def test_the_reference_teacher_submits_each_reference(tmp_path):
    env = load_env(AGENT_ENV)
    tasks = env.tasks_in("train")[:3]
    for task in tasks:
        turns = reference_turns(env, task)
        assert turns is not None and task.reference in turns[0]
        episodes, verdicts = run(env, task, [turns], tmp_path)
        assert episodes[0].end == "submit" and verdicts[0].reward == 1.0


def test_the_figures_count_only_graded_submissions_and_passes_after_a_turn_down(tmp_path):
    """ "Called" is a submission the tool graded, not a refused or malformed one; "after a
    retry" is a pass that followed a "wrong", not an answer a broken call left in the text."""
    from types import SimpleNamespace

    from rlvr.demo_transcripts import episode_figures
    from rlvr.evaluation.run import episode_summary, task_result
    from rlvr.types import ScoredGroup

    env = load_env(AGENT_ENV)
    task = env.tasks_in("train")[0]
    right, wrong, gold = task.reference, with_result(task, "0"), str(task.gold)
    broken = '<tool_call>{"name": "submit_answer", "arguments": {"answer": 55}}</tool_call>'
    episodes, verdicts = run(env, task, [
        [SUBMIT, right],                             # refused ("nothing to submit"), then text
        [f"\\boxed{{{gold}}} {broken}", f"\\boxed{{{gold}}}"],  # a malformed call, then final
        [f"{wrong} {SUBMIT}", f"{right} {SUBMIT}"],  # a real retry
        [f"{right} {SUBMIT}"],                       # right at once through the tool
    ], tmp_path)  # fmt: skip
    assert [v.passed for v in verdicts] == [True, True, True, True]
    samples = [Sample(task_id=task.id, index=i, text="", episode=e) for i, e in enumerate(episodes)]
    group = ScoredGroup(env=AGENT_ENV, task_id=task.id, samples=samples, verdicts=verdicts)
    summary = SimpleNamespace(episodes=episode_summary([task_result(group, task, [1])], 0))
    assert episode_figures(summary) == {"called": 0.5, "without_retry": 0.75, "after_retry": 0.25}


def test_trls_tool_loop_refuses_the_retry_session_with_the_fix():
    """TRL calls tools but never shows an environment the model's text, which the retry session
    grades: refused by name, not a KeyError."""
    import pytest

    from rlvr.errors import RlvrError
    from rlvr.integrations.trl_episodes import trainer_kwargs

    with pytest.raises(RlvrError, match="submit_answer.*rlvr train"):
        trainer_kwargs(load_env(AGENT_ENV))


def test_a_turn_without_a_call_is_graded_as_a_single_turn_answer(tmp_path):
    """A lone line the single-turn grader accepts (`fifty-five`) is the final answer here too,
    and a final turn without an answer does not fall back to an earlier one."""
    env = load_env(AGENT_ENV)
    task = next(t for t in env.tasks_in("train") if str(t.gold) == "55")
    single = load_env("math-columns").grade(task, ["fifty-five"])[0]
    wrong = with_result(task, "56")
    episodes, verdicts = run(env, task, [
        ["fifty-five"],                            # final at once, read as single-turn reads it
        [f"{wrong} {SUBMIT}", "fifty-five"],       # after a retry
        [f"{task.reference} {SUBMIT[:-1]}", "I am done."],  # a broken call, then no answer
    ], tmp_path)  # fmt: skip
    assert single.passed
    assert [v.passed for v in verdicts] == [True, True, False]
    assert [e.end for e in episodes] == ["no_call", "no_call", "no_call"]


def test_retry_reward_is_a_manifest_field_and_one_keeps_the_graders_reward(tmp_path):
    env = load_env(AGENT_ENV)
    assert env.episode is not None and env.episode.retry_reward == 0.5
    env.episode.retry_reward = 1.0
    task = env.tasks_in("train")[0]
    episodes, verdicts = run(env, task, [[f"{with_result(task, '0')} {SUBMIT}",
                                          f"{task.reference} {SUBMIT}"]], tmp_path)  # fmt: skip
    assert [v.reward for v in verdicts] == [1.0] and episodes[0].turns[0].observations[0].retry


def test_a_penalised_episode_is_penalised_once_whatever_its_retry_reward(tmp_path):
    """Found by a cold attack: the session graded through env.grade (which applies the hack
    audit) and score_group applied it again, so a flagged pass scored 0.0 at retry_reward 0.5
    and 0.5 at 1."""
    from rlvr.flags.hacks import HackAudit
    from rlvr.flags.policy import HackPolicy
    from rlvr.rollout import RolloutConfig, score_group

    env = load_env(AGENT_ENV)
    env.audit = HackAudit(language="math", policy=HackPolicy(mode="penalty"))
    task = env.tasks_in("train")[0]
    overlong = "x" * 4100 + f" \\boxed{{{task.gold}}}"  # right, and flagged as overlong
    path = tmp_path / "script.jsonl"
    path.write_text(json.dumps({"task_id": task.id, "turns": [overlong]}) + "\n")
    rewards = []
    for retry_reward in (0.5, 1.0):
        assert env.episode is not None
        env.episode.retry_reward = retry_reward
        [group] = EpisodeRunner(env, ReplayPolicy(path)).run([task], 1, SamplingConfig())
        judged = [r.verdict for r in group]
        scored = score_group(env, task, [r.sample for r in group], RolloutConfig(), judged)
        rewards.append(scored.verdicts[0].reward)
    assert rewards[0] == rewards[1] == 0.5


def test_a_blank_final_turn_is_the_answer_and_retry_reward_is_checked(tmp_path):
    import dataclasses

    import pytest

    env = load_env(AGENT_ENV)
    task = env.tasks_in("train")[0]
    _, verdicts = run(env, task, [[f"\\boxed{{{task.gold}}} {SUBMIT[:-1]}", "   "]], tmp_path)
    assert [v.passed for v in verdicts] == [False]  # no fall back to the broken call's turn
    assert env.episode is not None
    for bad in (float("nan"), 0.0, -0.5, 2.0, 1e-200):
        with pytest.raises(ValueError, match="retry_reward"):
            dataclasses.replace(env.episode, retry_reward=bad)


def test_the_final_submission_is_graded_once_and_discounted_on_a_copy(tmp_path, monkeypatch):
    """The session's verdict reuses the grade the submit tool gave the same answer, and the
    retry discount never changes the verdict the tool saw."""
    env = load_env(AGENT_ENV)
    task = env.tasks_in("train")[0]
    grade_group = env.grader.grade_group
    graded: list[str] = []

    def counted(t, answers):
        graded.extend(answers)
        return grade_group(t, answers)

    monkeypatch.setattr(env.grader, "grade_group", counted)
    _, verdicts = run(env, task, [[f"{with_result(task, '0')} {SUBMIT}",
                                   f"{task.reference} {SUBMIT}"]], tmp_path)  # fmt: skip
    assert verdicts[0].passed and verdicts[0].reward == 0.5
    assert len(graded) == 3  # two submissions, then run()'s own single-turn grade: no regrade
    assert "(after 1 turned down" in verdicts[0].reason
