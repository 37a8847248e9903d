"""The hack policy: what flags do to a scored verdict, per environment and per flag kind.

    [grader.options]
    hack_policy = "zero"        # every kind: "report" | "zero" | "penalty"
    hack_policy = { hardcoded = "zero", default = "report" }   # or one mode per kind
    hack_penalty = 0.5          # subtracted under "penalty"
    hack_kinds = ["early_exit"] # kinds the policy acts on (default: every kind)

A flag is a suspicion with evidence, not proof, so a kind zeroes a reward by default only where
its precision was measured: `default_policy(grader_kind)` gives function environments
`hardcoded = "zero"` (bench/hardcode_peers.py: no reference of the four stacks flagged, about
97% of hard-coded answers caught) and leaves every other kind, and the test-file code
environments, on "report". A manifest's `hack_policy` replaces that default as a whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rlvr.errors import ManifestError, format_validation_error
from rlvr.flags import kinds as K
from rlvr.types import Flag, Verdict

PolicyMode = Literal["report", "zero", "penalty"]
OPTION_KEYS = ("hack_policy", "hack_penalty", "hack_kinds")
FUNCTION_DEFAULTS: dict[str, PolicyMode] = {K.HARDCODED: "zero"}
"""Kinds that zero a reward by default in function environments (measured precision)."""


class HackPolicy(BaseModel):
    """What flags do to a scored verdict (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    mode: PolicyMode = Field(
        "report",
        alias="hack_policy",
        description="report | zero | penalty, for kinds not in by_kind",
    )
    by_kind: tuple[tuple[str, PolicyMode], ...] = Field(
        (), description="(kind, mode) pairs that override `mode` for those kinds."
    )
    penalty: float = Field(
        0.5, ge=0, alias="hack_penalty", description="Subtracted from the reward under 'penalty'."
    )
    kinds: tuple[str, ...] | None = Field(
        None, alias="hack_kinds", description="Kinds acted on (default: all)."
    )

    @model_validator(mode="before")
    @classmethod
    def _table(cls, raw: Any) -> Any:
        """`hack_policy = {kind = mode, default = mode}` -> mode and by_kind."""
        if not isinstance(raw, dict):
            return raw
        key = "hack_policy" if "hack_policy" in raw else "mode"
        table = raw.get(key)
        if not isinstance(table, dict):
            return raw
        rest = {k: v for k, v in raw.items() if k != key}
        pairs = tuple(sorted((k, v) for k, v in table.items() if k != "default"))
        return {**rest, "mode": table.get("default", "report"), "by_kind": pairs}

    def mode_for(self, kind: str) -> PolicyMode:
        """The mode that applies to a flag of `kind`."""
        return dict(self.by_kind).get(kind, self.mode)

    def named_kinds(self) -> set[str]:
        return set(self.kinds or ()) | {k for k, _ in self.by_kind}


def default_policy(grader_kind: str) -> HackPolicy:
    """The policy a code or function environment gets when its manifest sets none."""
    if grader_kind == "function":
        return HackPolicy(mode="report", by_kind=tuple(sorted(FUNCTION_DEFAULTS.items())))
    return HackPolicy()


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
    modes = {
        f.kind: pol.mode_for(f.kind)
        for f in flags
        if f.kind != K.AUDIT_ERROR and (pol.kinds is None or f.kind in pol.kinds)
    }
    acting = {kind: mode for kind, mode in modes.items() if mode != "report"}
    if not acting or not out.is_scored or out.reward is None:
        return out
    mode = "zero" if "zero" in acting.values() else "penalty"
    kinds = sorted(acting)
    before = out.reward
    out.reward = 0.0 if mode == "zero" else before - pol.penalty
    out.passed = False
    out.reason = f"hack policy {mode} ({', '.join(kinds)}); was: {out.reason}"
    out.details = {
        **out.details,
        "hack_policy": {"mode": mode, "kinds": kinds, "reward_before": before},
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
            'use hack_policy = "report" | "zero" | "penalty" (or a table of kind = mode, with '
            "an optional default), hack_penalty >= 0, "
            f"hack_kinds a list of {list(K.ALL_KINDS)}",
        ) from None
    unknown = sorted(policy.named_kinds() - set(K.ALL_KINDS))
    if unknown:
        raise ManifestError(
            f"{where}: unknown hack_kinds (or hack_policy kinds) {unknown}",
            f"use kinds from {list(K.ALL_KINDS)}",
        )
    return rest, policy
