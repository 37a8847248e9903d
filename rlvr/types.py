"""The nouns that travel between stages: Task, Sample, Verdict, ScoredGroup, and the episode
nouns a multi-turn Sample carries (ToolCall, Observation, Turn, Episode).

They are pydantic models so that every store line and every CLI line round-trips through JSON
with validation. A non-`scored` verdict never carries a reward: infrastructure failures are
masked in training, never silently turned into zeros. What code reads about a verdict is typed
(status, per-test outcomes, failure cause); `details` is for humans.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

VerdictStatus = Literal["scored", "grader_error", "timeout", "infra_error"]
FinishReason = Literal["stop", "length", "error"]
TestStatus = Literal["passed", "failed", "error", "skipped", "missing"]
Visibility = Literal["public", "hidden"]
FailureCause = Literal[
    "tests_failed",  # the tests ran and not all passed
    "timeout",  # the run passed its deadline
    "memory_limit",  # the sandbox's memory limit was hit
    "output_limit",  # the answer printed more than the sandbox keeps
    "runner_killed",  # no result from the sandbox runner: the answer killed or disturbed it
    "lingering_processes",  # processes outlived the test command (they could rewrite a report)
    "build_failed",  # the answer does not build, compile or load
    "no_code",  # no code found in the answer
    "bad_report",  # wrong test names or count, forged or malformed result lines
    "no_test_ran",  # the test command ended before any test ran
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Task(_Model):
    """One problem an environment poses: the prompt plus what the grader needs to check it."""

    id: str = Field(description="Stable identifier, unique within its environment.")
    prompt: str = Field(description="The problem statement shown to the policy.")
    gold: Any = Field(
        default=None,
        description="Math: the gold answer string. Tool calls: the expected calls (BFCL form).",
    )
    tools: list[dict[str, Any]] | None = Field(
        default=None, description="Function schemas offered to the policy (tool-call tasks)."
    )
    reference: str | None = Field(
        default=None, description="A reference solution or worked answer (code, SFT warm-start)."
    )
    public_tests: str | None = Field(default=None, description="Tests shown in the prompt.")
    hidden_tests: str | None = Field(default=None, description="Tests never shown to the policy.")
    entry_point: str | None = Field(default=None, description="Function the tests call (code).")
    meta: dict[str, Any] = Field(default_factory=dict, description="Free-form, for humans.")


class ToolCall(_Model):
    """A tool call the model made: the tool's name and its JSON arguments."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class Observation(_Model):
    """What the environment answered to one tool call (or to a malformed one)."""

    tool: str | None = Field(default=None, description="The tool called; None for a bad call.")
    content: str
    error: bool = Field(default=False, description="The call was malformed or the tool failed.")
    retry: bool = Field(
        default=False,
        description="A well-formed submission the tool turned down with feedback (a wrong answer "
        "where retries are offered): the episode goes on.",
    )


class Turn(_Model):
    """One model turn of an episode and the environment's answer to it."""

    text: str = Field(description="What the model wrote in this turn.")
    calls: list[ToolCall] = Field(default_factory=list)
    observations: list[Observation] = Field(default_factory=list)
    model_tokens: int | None = Field(default=None, description="Tokens the model generated.")
    env_tokens: int | None = Field(
        default=None, description="Tokens of the environment's answer (masked out of the loss)."
    )
    cut: bool = Field(default=False, description="The token limit ended the turn.")


EpisodeEnd = Literal["submit", "no_call", "budget", "context"]


class Episode(_Model):
    """A multi-turn rollout of one task: the turns, and why it ended."""

    turns: list[Turn] = Field(default_factory=list)
    end: EpisodeEnd = "no_call"
    answer: str = Field(default="", description="What the final judge graded (e.g. the code).")

    @property
    def tool_errors(self) -> int:
        return sum(o.error for t in self.turns for o in t.observations)


class Sample(_Model):
    """One completion of the policy for a task; for a multi-turn environment, one episode.

    An episode's `token_ids` hold every token after the prompt, the model's and the
    environment's in order; `token_mask` is 1 on the model's own tokens and 0 on the
    environment's, so a learner trains only on what the model chose. `text` is what the final
    judge graded (the episode's answer), so stores, graders and audits read it unchanged.
    """

    task_id: str
    index: int = Field(ge=0, description="Position in the group, 0..G-1.")
    text: str
    token_ids: list[int] | None = None
    logprobs: list[float] | None = Field(
        default=None, description="Per-token log-probabilities at sampling time (old_logp)."
    )
    prompt_token_ids: list[int] | None = None
    finish_reason: FinishReason | None = None
    token_mask: list[int] | None = Field(
        default=None, description="Per token of token_ids: 1 the model's, 0 the environment's."
    )
    episode: Episode | None = Field(default=None, description="The turns of a multi-turn rollout.")

    @model_validator(mode="after")
    def _mask_matches_tokens(self) -> Sample:
        if self.token_mask is not None and (
            self.token_ids is None or len(self.token_mask) != len(self.token_ids)
        ):
            n = None if self.token_ids is None else len(self.token_ids)
            raise ValueError(
                f"token_mask has {len(self.token_mask)} entries but token_ids has {n}; give one "
                "mask entry (1 model, 0 environment) per token"
            )
        return self

    @model_validator(mode="after")
    def _logprobs_match_tokens(self) -> Sample:
        if (
            self.logprobs is not None
            and self.token_ids is not None
            and len(self.logprobs) != len(self.token_ids)
        ):
            raise ValueError(
                f"logprobs has {len(self.logprobs)} entries but token_ids has "
                f"{len(self.token_ids)}; give one log-probability per generated token"
            )
        return self


class Flag(_Model):
    """A named suspicion about an answer (a possible reward hack), with the evidence."""

    kind: str
    evidence: str = ""


class TestOutcome(_Model):
    """One test's (or function case's) result, as the stack's tool reported it or the judge
    decided. "missing": the test never reported (the run ended first)."""

    __test__ = False  # not a pytest class
    name: str
    outcome: TestStatus
    message: str = ""
    visibility: Visibility | None = Field(
        default=None, description="Whether the prompt showed the test; None when unknown."
    )


def _old_test(t: Any) -> bool:
    """A per-test entry as the code grader wrote it into `details` before `Verdict.tests`."""
    if not isinstance(t, dict) or not isinstance(t.get("name"), str):
        return False
    return t.get("outcome") in get_args(TestStatus)


class Verdict(_Model):
    """A grader's decision on one answer.

    `scored` verdicts carry a reward in [0, 1] (or a penalty below 0); every other status has
    `reward=None` so that no infrastructure failure can be trained on as a zero.
    """

    status: VerdictStatus
    reward: float | None = None
    passed: bool = False
    reason: str = ""
    details: dict[str, Any] = Field(default_factory=dict, description="For humans only.")
    tests: list[TestOutcome] = Field(
        default_factory=list, description="Per-test outcomes (code and function graders)."
    )
    cause: FailureCause | None = Field(
        default=None, description="Why a program answer failed or was not scored, when known."
    )
    flags: list[Flag] = Field(default_factory=list)
    duration_s: float | None = Field(default=None, description="Wall-clock grading time.")

    @model_validator(mode="before")
    @classmethod
    def _tests_from_old_details(cls, data: Any) -> Any:
        """Store lines written before verdicts had `tests` kept them in `details["tests"]`."""
        if isinstance(data, dict) and "tests" not in data:
            old = (data.get("details") or {}).get("tests")
            if isinstance(old, list) and all(_old_test(t) for t in old):
                keys = ("name", "outcome", "message")
                return {**data, "tests": [{k: t[k] for k in keys if k in t} for t in old]}
        return data

    @field_validator("reward", mode="before")
    @classmethod
    def _reward_is_a_number(cls, value: Any) -> Any:
        """A reward written as "1.0" or true is a grader's bug: named, never read as a number."""
        if isinstance(value, bool | str):
            raise ValueError(
                f"reward must be a number, got {type(value).__name__} {value!r}; "
                "the grader should return a float such as 1.0"
            )
        return value

    @model_validator(mode="after")
    def _reward_only_when_scored(self) -> Verdict:
        if self.status == "scored" and self.reward is None:
            raise ValueError("a scored verdict needs a reward")
        if self.status != "scored" and self.reward is not None:
            raise ValueError(
                f"a {self.status} verdict must not carry a reward (got {self.reward}); "
                "non-scored verdicts are masked, never trained on"
            )
        if self.status != "scored" and self.passed:
            raise ValueError(f"a {self.status} verdict cannot be passed")
        if self.passed and self.cause is not None:
            raise ValueError(f"a passed verdict has no failure cause (got {self.cause!r})")
        return self

    @classmethod
    def score(cls, reward: float, reason: str = "", **kw: Any) -> Verdict:
        """A scored verdict; `passed` defaults to reward >= 1."""
        kw.setdefault("passed", reward >= 1.0)
        return cls(status="scored", reward=float(reward), reason=reason, **kw)

    @classmethod
    def reject(cls, reason: str, **kw: Any) -> Verdict:
        """A scored verdict with reward 0: the answer was checked and is wrong or unusable."""
        return cls(status="scored", reward=0.0, passed=False, reason=reason, **kw)

    @classmethod
    def error(cls, status: VerdictStatus, reason: str, **kw: Any) -> Verdict:
        """A masked verdict: grader_error, timeout or infra_error."""
        if status == "scored":
            raise ValueError("use Verdict.score or Verdict.reject for scored verdicts")
        return cls(status=status, reward=None, passed=False, reason=reason, **kw)

    @property
    def is_scored(self) -> bool:
        return self.status == "scored"


class GroupStats(_Model):
    """Summary of one group, computed over scored verdicts only."""

    n: int
    n_scored: int
    n_masked: int
    reward_mean: float | None = None
    reward_std: float | None = None
    pass_rate: float | None = None
    zero_variance: bool = False
    extra: dict[str, float] = Field(default_factory=dict)


class ScoredGroup(_Model):
    """The G answers to one task with their verdicts, rewards and advantages."""

    env: str
    task_id: str
    samples: list[Sample]
    verdicts: list[Verdict]
    advantages: list[float] | None = None
    stats: GroupStats | None = None
    step: int | None = Field(default=None, description="Training step that produced the group.")

    @model_validator(mode="after")
    def _aligned(self) -> ScoredGroup:
        if len(self.samples) != len(self.verdicts):
            raise ValueError(
                f"{len(self.samples)} samples but {len(self.verdicts)} verdicts; "
                "every sample needs exactly one verdict"
            )
        if self.advantages is not None and len(self.advantages) != len(self.samples):
            raise ValueError(f"{len(self.advantages)} advantages for {len(self.samples)} samples")
        return self

    @property
    def rewards(self) -> list[float | None]:
        """Rewards aligned with samples; None where the verdict is masked."""
        return [v.reward for v in self.verdicts]
