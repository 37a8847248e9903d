"""Answer-with-retries episodes: submit an answer, hear "wrong", and try again.

The smallest episode that rewards using feedback. The session offers one tool, `submit_answer`,
which grades the latest answer (its `answer` argument, else the last `\\boxed{}` the model
wrote) with the environment's own grader, once a turn: a second call in the same turn is not
graded, so the turn budget is the number of guesses. A correct answer ends the episode; a wrong
one is turned down (`Observation.retry`) with "wrong" and the task's question again as it was
asked (a small model answers best from the words it was trained on, and from what is near), and
the model may answer again while turns remain. A turn without a call ends the episode at once,
with no second chance, and is itself the final answer, read as a single-turn answer is
(`fifty-five` passes here as in math-columns). The final answer goes to the same grader as a
single-turn answer. The reply reveals only correctness, so what an episode measures is whether a
model submits through the tool and acts on a "wrong", not whether it can do the task unaided.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rlvr.episodes.tools import read_calls
from rlvr.types import Observation, Task, ToolCall, Verdict

if TYPE_CHECKING:
    from rlvr.env import Environment

TOOL = "submit_answer"
BOXED = "\\boxed{"


def boxed(answer: str) -> str:
    """An answer as the math grader reads a final answer."""
    return f"\\boxed{{{answer}}}"


def wrong_reply(env: Environment, task: Task) -> str:
    """The reply to a wrong answer: "wrong." and the task's question as it was asked."""
    return f"wrong. {env.messages(task)[-1]['content']}"


class RetrySession:
    """One episode: the latest answer, and the submit tool that grades one submission a turn."""

    def __init__(self, env: Environment, task: Task) -> None:
        self.env, self.task = env, task
        self.latest: str | None = None
        self.turns = 0
        self.budget = env.episode.max_turns if env.episode is not None else 1
        self.submitted_this_turn = False
        self.final_without_call = env.episode is None or env.episode.on_no_call == "end"
        self.retry_reward = env.episode.retry_reward if env.episode is not None else 1.0
        self.turned_down = 0
        self.graded: tuple[str, Verdict] | None = None  # the last submission and its verdict

    def note_turn(self, text: str) -> None:
        self.turns += 1
        self.submitted_this_turn = False
        read = read_calls(text, [TOOL])
        if self.final_without_call and not read.calls and read.problem is None:
            self.latest = text  # no call: the final answer, read as a single-turn answer is
            return
        extract = getattr(self.env.grader, "extract", None)  # the grader's own reading
        if BOXED in text or (extract is not None and extract(text) is not None):
            self.latest = text

    def call(self, call: ToolCall) -> Observation:
        if call.name != TOOL:
            msg = f"{call.name} is not offered here"
            return Observation(tool=call.name, content=msg, error=True)
        if self.submitted_this_turn:  # else 16 calls a turn would be 16 graded guesses
            msg = "one submission a turn: this one was not graded"
            return Observation(tool=TOOL, content=msg, error=True)
        given = str(call.arguments.get("answer", "")).strip()
        if given:
            self.latest = given if BOXED in given else boxed(given)
        if self.latest is None:
            msg = "nothing to submit: write your answer in \\boxed{} or pass it as `answer`"
            return Observation(tool=TOOL, content=msg, error=True)
        self.submitted_this_turn = True
        verdict = self.env.grader.grade_group(self.task, [self.latest])[0]
        self.graded = (self.latest, verdict)
        if not verdict.is_scored:
            return Observation(tool=TOOL, content="the answer could not be graded", error=True)
        if verdict.passed:
            return Observation(tool=TOOL, content="correct")
        if self.turns >= self.budget:  # no turn left: a final, wrong answer
            return Observation(tool=TOOL, content="wrong")
        self.turned_down += 1
        return Observation(tool=TOOL, content=wrong_reply(self.env, self.task), retry=True)

    def answer(self) -> str:
        return self.latest or ""

    def verdict(self) -> Verdict | None:
        """The final answer graded as a single-turn answer is, its reward discounted by
        `retry_reward` for each answer turned down first (None at 1: the grader's own)."""
        if self.retry_reward >= 1:
            return None
        # the grader alone: score_group applies the hack audit once, after this discount; the
        # last submission, when it is the final answer, is not graded twice
        if self.graded is not None and self.graded[0] == self.answer():
            verdict = self.graded[1].model_copy(deep=True)
        else:
            verdict = self.env.grader.grade_group(self.task, [self.answer()])[0]
        if verdict.passed and verdict.reward is not None and self.turned_down:
            factor = self.retry_reward**self.turned_down
            verdict.reward *= factor
            verdict.reason += f" (after {self.turned_down} turned down: reward x{factor:g})"
        return verdict

    def close(self) -> None:
        return None


def open_retry(env: Environment, task: Task) -> RetrySession:
    return RetrySession(env, task)
