"""Hack flags while grading: static checks of an answer, what the sandbox saw, and the policy
that turns flags into a reward change (`HackAudit`, applied by `rlvr.env.Environment.grade`).
Below environments: imports only rlvr.audit.source, graders' extraction and rlvr.types."""
