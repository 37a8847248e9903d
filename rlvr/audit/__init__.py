"""Audits: hack flags on graded answers, and specification-gap audits of the graders.

Three layers (see README.md): `source` (reading answers and tests: lexer, cases, mutants),
`flags` (the hack flags an environment attaches while grading: `flag_answer`, `HackAudit`,
`apply_policy`), and on top of environments `recheck` (`rlvr audit hacks`: stored answers,
dynamic checks, the labelled corpus) and `specgap` (`rlvr audit graders`). This package exports
the grading-time API only, so importing it never loads environments.
"""

from rlvr.audit.flags.hacks import HackAudit, flag_answer
from rlvr.audit.flags.kinds import ALL_KINDS
from rlvr.audit.flags.policy import HackPolicy, apply_policy, split_hack_options
from rlvr.audit.flags.sandbox import verdict_flags

__all__ = [
    "ALL_KINDS",
    "HackAudit",
    "HackPolicy",
    "apply_policy",
    "flag_answer",
    "split_hack_options",
    "verdict_flags",
]
