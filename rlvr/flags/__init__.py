"""Hack flags while grading: static checks of an answer, what the sandbox saw, and the policy
that turns flags into a reward change (`HackAudit`, applied by `rlvr.env.Environment.grade`).
Below environments: imports only `rlvr.source`, graders' extraction and `rlvr.types`, so the
grade-time path reaches the flags without reaching back up into `rlvr.audit`. The API:
`rlvr.flags.hacks` (`flag_answer`, `HackAudit`), `rlvr.flags.policy` (`HackPolicy`,
`apply_policy`, `split_hack_options`), `rlvr.flags.sandbox` (`verdict_flags`), `rlvr.flags.kinds`
(`ALL_KINDS`)."""
