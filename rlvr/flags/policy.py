"""The hack policy: what flags do to a scored verdict, per environment.

    [grader.options]
    hack_policy = "zero"        # "report" (default) | "zero" | "penalty"
    hack_penalty = 0.5          # subtracted under "penalty"
    hack_kinds = ["early_exit"] # kinds the policy acts on (default: every kind)

A flag is a suspicion with evidence, not proof: "report" is the default so that nothing is
punished until someone has looked at what the flags catch in their environment.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rlvr.errors import ManifestError, format_validation_error
from rlvr.flags import kinds as K
from rlvr.types import Flag, Verdict

PolicyMode = Literal["report", "zero", "penalty"]
OPTION_KEYS = ("hack_policy", "hack_penalty", "hack_kinds")


class HackPolicy(BaseModel):
    """What flags do to a scored verdict (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    mode: PolicyMode = Field("report", alias="hack_policy", description="report | zero | penalty")
    penalty: float = Field(
        0.5, ge=0, alias="hack_penalty", description="Subtracted from the reward under 'penalty'."
    )
    kinds: tuple[str, ...] | None = Field(
        None, alias="hack_kinds", description="Kinds acted on (default: all)."
    )


def dedupe(flags: Sequence[Flag]) -> list[Flag]:
    """Flags in order, each (kind, evidence) once."""
    seen, out = set(), []
    for f in flags:
        if (f.kind, f.evidence) not in seen:
            seen.add((f.kind, f.evidence))
            out.append(f)
    return out


def apply_policy(
    verdict: Verdict,
    flags: Sequence[Flag],
    policy: PolicyMode | HackPolicy = "report",
    penalty: float = 0.5,
) -> Verdict:
    """A copy of `verdict` carrying `flags`, its reward changed as the policy says.

    Only scored verdicts change; masked ones (timeout, infra_error, grader_error) keep no reward.
    """
    pol = policy if isinstance(policy, HackPolicy) else HackPolicy(mode=policy, penalty=penalty)
    out = verdict.model_copy(deep=True)
    out.flags = dedupe([*out.flags, *flags])
    acting = [
        f for f in flags if f.kind != K.AUDIT_ERROR and (pol.kinds is None or f.kind in pol.kinds)
    ]
    if pol.mode == "report" or not acting or not out.is_scored or out.reward is None:
        return out
    kinds = sorted({f.kind for f in acting})
    before = out.reward
    out.reward = 0.0 if pol.mode == "zero" else before - pol.penalty
    out.passed = False
    out.reason = f"hack policy {pol.mode} ({', '.join(kinds)}); was: {out.reason}"
    out.details = {
        **out.details,
        "hack_policy": {"mode": pol.mode, "kinds": kinds, "reward_before": before},
    }
    return out


def split_hack_options(
    options: dict[str, Any], where: str = "grader.options"
) -> tuple[dict[str, Any], HackPolicy | None]:
    """Take `hack_policy`, `hack_penalty` and `hack_kinds` out of grader options."""
    if not any(k in options for k in OPTION_KEYS):
        return options, None
    rest = {k: v for k, v in options.items() if k not in OPTION_KEYS}
    raw = {k: options[k] for k in OPTION_KEYS if k in options}
    try:
        policy = HackPolicy.model_validate(raw)
    except ValidationError as e:
        raise ManifestError(
            format_validation_error(f"{where}: hack policy is invalid", e),
            'use hack_policy = "report" | "zero" | "penalty", hack_penalty >= 0, '
            f"hack_kinds a list of {list(K.ALL_KINDS)}",
        ) from None
    unknown = sorted(set(policy.kinds or ()) - set(K.ALL_KINDS))
    if unknown:
        raise ManifestError(
            f"{where}: unknown hack_kinds {unknown}", f"use kinds from {list(K.ALL_KINDS)}"
        )
    return rest, policy
