"""The settings of on-policy distillation (rlvr.learners.teacher), shared by GRPO and RLOO."""

from __future__ import annotations

from pydantic import BaseModel, Field, model_validator


class TeacherFields(BaseModel):
    """A teacher that scores the student's own samples token by token (off when None)."""

    teacher: str | None = Field(
        default=None,
        description="On-policy distillation: a model spec or an http://.../v1 server (sharing "
        "the student's tokenizer) whose per-token log-probabilities of the student's samples "
        "give a per-token reverse KL advantage.",
    )
    teacher_weight: float = Field(
        default=1.0, ge=0, description="Weight of the per-token reverse KL advantage."
    )
    reward_weight: float = Field(
        default=1.0,
        ge=0,
        description="Weight of the verifiable reward's group advantage when a teacher is set "
        "(0: pure distillation).",
    )

    @model_validator(mode="after")
    def _grpo_family(self) -> TeacherFields:
        if self.teacher is not None and getattr(self, "algo", None) == "ppo":
            raise ValueError(f"teacher={self.teacher!r}: on-policy distillation is built into "
                             "grpo and rloo; use algo = 'grpo'")  # fmt: skip
        return self
