"""Audits: hack flags on graded answers, and specification-gap audits of the graders.

`flag_answer` and `apply_policy` are what graders call during grading; `rlvr audit graders`
and `rlvr audit hacks` are the commands over whole environments and stored answers.
"""

from rlvr.audit.hacks import (
    AuditedGrader,
    HackPolicy,
    apply_policy,
    flag_answer,
    split_hack_options,
    verdict_flags,
)
from rlvr.audit.kinds import ALL_KINDS

__all__ = [
    "ALL_KINDS",
    "AuditedGrader",
    "HackPolicy",
    "apply_policy",
    "flag_answer",
    "split_hack_options",
    "verdict_flags",
]
