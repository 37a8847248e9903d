"""What `rlvr eval` writes: one TaskResult per line of per_task.jsonl, and summary.json.

Their own module so the report (rlvr.evaluation.report) and the run (rlvr.evaluation.run)
both read them without importing each other.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from rlvr.evaluation.passk import Estimate


class TaskResult(BaseModel):
    """One line of per_task.jsonl."""

    task_id: str
    n: int
    n_scored: int
    correct: int
    masked: int
    mean_reward: float | None
    pass_at: dict[str, float | None] = Field(description='{"pass@1": ..., "pass@8": ...}')
    meta: dict[str, Any] = Field(default_factory=dict)
    turns_mean: float | None = Field(default=None, description="Episodes: mean model turns.")
    tool_calls: int = Field(default=0, description="Episodes: tool calls, malformed included.")
    tool_errors: int = Field(default=0, description="Episodes: malformed or failed calls.")
    episodes: int = Field(default=0, description="Episodes run for the task.")
    with_valid_call: int = Field(
        default=0, description="Episodes with at least one well-formed tool call."
    )
    with_answered_call: int = Field(
        default=0, description="Episodes with at least one call the tool carried out (no error)."
    )
    passed_after_retry: int = Field(
        default=0, description="Passed episodes in which a tool had turned an answer down first."
    )
    ends: dict[str, int] = Field(
        default_factory=dict, description="Episodes by how they ended (submit, no_call, ...)."
    )
    passed_within: list[int] | None = Field(
        default=None,
        description="Episodes: entry t counts the passed episodes that used at most t+1 turns.",
    )


class EvalSummary(BaseModel):
    """summary.json."""

    env: str
    model: str
    model_path: str | None
    split: str
    n_tasks: int
    n_samples: int = Field(description="Samples per task.")
    temperature: float
    seed: int
    pass_at: dict[str, Estimate]
    masked: int = Field(description="Samples whose verdict was not scored.")
    masked_tasks: int = Field(description="Tasks without enough scored samples for pass@k.")
    breakdown: dict[str, dict[str, Estimate]]
    wall_s: float
    episodes: dict[str, Any] | None = Field(
        default=None,
        description="Multi-turn figures: turns_mean, tool_error_rate, valid_call_frac (episodes "
        "with at least one well-formed call), ends (episodes by end reason) and pass@1 by turn "
        "budget (an episode that passed within t turns counts as passed at budget t).",
    )

    warnings: list[str] = Field(
        default_factory=list,
        description="What a reader must know about the grading, e.g. that the unsafe local "
        "judge ran the answers on the host without a sandbox.",
    )

    def as_json(self) -> dict[str, Any]:
        """The file's form: pass@k keys at the top level."""
        data = self.model_dump(exclude={"pass_at"})
        return {**{key: est.model_dump() for key, est in self.pass_at.items()}, **data}
