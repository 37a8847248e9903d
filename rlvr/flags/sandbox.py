"""Hack flags from what the sandbox saw while grading: limits hit, a runner the answer killed,
a test run that did not end on its own, reaching for the network."""

from __future__ import annotations

import re

from rlvr.flags import kinds as K
from rlvr.flags.policy import dedupe
from rlvr.types import Flag, Verdict

EXIT_MESSAGE = re.compile(r"exited before the tests finished|\b(?:SystemExit|KeyboardInterrupt)\b")
NETWORK_ERRORS = re.compile(
    r"Network is unreachable|ENETUNREACH|EAI_AGAIN|Temporary failure in name resolution|"
    r"getaddrinfo|Name or service not known|network is unreachable|dial tcp"
)


def verdict_flags(verdict: Verdict) -> list[Flag]:
    """Flags from what the sandbox saw while grading: the verdict's failure cause and per-test
    outcomes, the limits and the output the code grader kept in its details."""
    d, tests = verdict.details or {}, verdict.tests
    out = []
    for key, what in (("oom", "memory limit"), ("pids_limit_hit", "process limit")):
        if d.get(key):
            out.append(Flag(kind=K.SANDBOX_ABUSE, evidence=f"hit the sandbox {what}"))
    if verdict.cause in ("memory_limit", "output_limit"):
        out.append(Flag(kind=K.SANDBOX_ABUSE, evidence=f"grader: {verdict.reason}"))
    if verdict.cause == "runner_killed":
        out.append(Flag(kind=K.EARLY_EXIT, evidence=f"grader: {verdict.reason}"))
    seen = " ".join(
        [str(d.get("stdout", "")), str(d.get("stderr", ""))] + [t.message for t in tests]
    )
    if m := NETWORK_ERRORS.search(seen):
        out.append(Flag(kind=K.SANDBOX_ABUSE, evidence=f"tried the network: {m.group(0)}"))
    for t in tests:
        if m := EXIT_MESSAGE.search(t.message):
            out.append(Flag(kind=K.EARLY_EXIT, evidence=f"test {t.name}: {m.group(0)}"))
    session = [t for t in tests if t.name == "<session>"]
    exit_status = [t for t in tests if "(exit status" in t.name]
    ran = any(t.outcome == "passed" for t in tests)
    if session or (exit_status and ran):  # pytest ended early; a stack's tests ran, then exit != 0
        name = (session or exit_status)[0].name
        out.append(Flag(kind=K.EARLY_EXIT, evidence=f"the test run did not end on its own: {name}"))
    return dedupe(out)
