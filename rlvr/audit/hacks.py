"""Hack flags on graded answers, and the policy that turns flags into a reward change.

`flag_answer(task, answer, language)` runs the cheap static checks (milliseconds, the answer is
never run): for code the checks in static_python.py / static_text.py / hardcode.py, for math and
tool calls those in answers.py. `verdict_flags(verdict)` reads what the sandbox saw (limits hit,
a runner the answer killed). `apply_policy` then reports the flags, zeroes the reward or
subtracts a penalty, per environment:

    [grader.options]
    hack_policy = "zero"        # "report" (default) | "zero" | "penalty"
    hack_penalty = 0.5          # subtracted under "penalty"
    hack_kinds = ["early_exit"] # kinds the policy acts on (default: every kind)

The registry wraps every code environment's grader in `AuditedGrader` (policy "report" unless
the manifest says otherwise), and any other grader whose manifest sets `hack_policy`. A flag is
a suspicion with evidence, not proof: "report" is the default so that nothing is punished until
someone has looked at what the flags catch in their environment; `rlvr grade` lines, scored
groups and the training metrics (`flagged_frac`, `flagged_<kind>`) carry them all the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rlvr import pyast
from rlvr.audit import kinds as K
from rlvr.errors import ManifestError
from rlvr.types import Flag, Task, Verdict

PolicyMode = Literal["report", "zero", "penalty"]
AUDIT_ERROR = "audit_error"
LANGUAGES = {
    "python": "python",
    "py": "python",
    "python3": "python",
    "javascript": "javascript",
    "js": "javascript",
    "node": "javascript",
    "go": "go",
    "golang": "go",
    "rust": "rust",
    "rs": "rust",
    "math": "math",
    "toolcall": "toolcall",
    "text": "text",
}
GENERIC = "text"  # any other stack: generic C-family lexing, text mutants, generic trivials
FENCE_TAGS = {
    "python": ["python", "py", "python3"],
    "javascript": ["javascript", "js", "node"],
    "go": ["go", "golang"],
    "rust": ["rust", "rs"],
}
EXIT_MESSAGE = re.compile(r"exited before the tests finished|\b(?:SystemExit|KeyboardInterrupt)\b")
NETWORK_ERRORS = re.compile(
    r"Network is unreachable|ENETUNREACH|EAI_AGAIN|Temporary failure in name resolution|"
    r"getaddrinfo|Name or service not known|network is unreachable|dial tcp"
)
OPTION_KEYS = ("hack_policy", "hack_penalty", "hack_kinds")


class HackPolicy(BaseModel):
    """What flags do to a scored verdict (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: PolicyMode = Field("report", description="report | zero | penalty")
    penalty: float = Field(0.5, ge=0, description="Subtracted from the reward under 'penalty'.")
    kinds: tuple[str, ...] | None = Field(None, description="Kinds acted on (default: all).")


def normalize_language(language: str) -> str:
    """The audit's name for a language or grader kind; "text" (generic checks) for any other."""
    return LANGUAGES.get(language.lower(), GENERIC)


def grader_language(grader: Any) -> str:
    """The language a grader checks: the manifest's `audit_language`, else a code grader's
    main fence tag, else its kind; "text" for a stack the audit has no syntax for."""
    inner = getattr(grader, "inner", grader)
    chosen = getattr(grader, "audit_language", None) or getattr(inner, "audit_language", None)
    if chosen:
        return normalize_language(chosen)
    options = getattr(inner, "options", None)
    tags = getattr(options, "language", None) or getattr(
        getattr(inner, "translator", None), "LANGUAGES", None
    )
    if getattr(inner, "name", "") in ("code", "function") and tags:
        return normalize_language(tags[0])
    return normalize_language(getattr(inner, "name", "") or "python")


def split_audit_language(
    options: dict[str, Any], where: str = "grader.options"
) -> tuple[dict[str, Any], str | None]:
    """Take `audit_language` out of grader options (the syntax the audits read answers in)."""
    if "audit_language" not in options:
        return options, None
    value = options["audit_language"]
    choices = sorted(set(LANGUAGES.values()) - {"math", "toolcall"})
    if not isinstance(value, str) or value.lower() not in LANGUAGES:
        raise ManifestError(
            f"{where}: audit_language {value!r} is not a language the audits know",
            f"use one of {choices} (a stack with close syntax), or remove it: any other stack "
            'is audited with the generic "text" checks',
        )
    return {k: v for k, v in options.items() if k != "audit_language"}, LANGUAGES[value.lower()]


def answer_code(task: Task, answer: str, lang: str) -> str:
    """The program an answer stands for: its fenced block, or a HumanEval-style continuation."""
    from rlvr.graders.code.extract import extract_fenced, fenced_blocks, function_program

    if lang not in FENCE_TAGS:  # any stack: its last fenced block, whatever the tag
        blocks = fenced_blocks(answer)
        return blocks[-1][1] if blocks else answer
    code = extract_fenced(answer, FENCE_TAGS[lang]) or answer
    if lang != "python":
        return code
    try:
        pyast.parse(code)
        return code
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        pass
    if task.entry_point and f"def {task.entry_point}" in task.prompt:
        return function_program(task.prompt, answer, task.entry_point)
    return code


def _dedupe(flags: list[Flag]) -> list[Flag]:
    seen, out = set(), []
    for f in flags:
        if (f.kind, f.evidence) not in seen:
            seen.add((f.kind, f.evidence))
            out.append(f)
    return out


def _code_flags(task: Task, answer: str, lang: str) -> list[Flag]:
    from rlvr.audit.hardcode import hardcoded_flags
    from rlvr.audit.static_python import python_flags
    from rlvr.audit.static_text import text_flags

    code = answer_code(task, answer, lang)
    flags = python_flags(code) if lang == "python" else text_flags(code, lang)  # type: ignore[arg-type]
    return flags + hardcoded_flags(task, code, lang)  # type: ignore[arg-type]


def flag_answer(task: Task, answer: str, language: str) -> list[Flag]:
    """Static hack flags for one answer; never raises on the answer (an audit bug becomes an
    `audit_error` flag, which no policy acts on)."""
    try:
        lang = normalize_language(language)
        if lang == "math":
            from rlvr.audit.answers import math_flags

            return _dedupe(math_flags(task, answer))
        if lang == "toolcall":
            from rlvr.audit.answers import toolcall_flags

            return _dedupe(toolcall_flags(task, answer))
        return _dedupe(_code_flags(task, answer, lang))
    except Exception as e:
        return [Flag(kind=AUDIT_ERROR, evidence=f"{type(e).__name__}: {e}"[:300])]


def verdict_flags(verdict: Verdict) -> list[Flag]:
    """Flags from what the sandbox saw while grading (details written by the code grader)."""
    d, reason = verdict.details or {}, verdict.reason or ""
    out = []
    for key, what in (("oom", "memory limit"), ("pids_limit_hit", "process limit")):
        if d.get(key):
            out.append(Flag(kind=K.SANDBOX_ABUSE, evidence=f"hit the sandbox {what}"))
    if reason in ("memory limit exceeded", "output limit exceeded"):
        out.append(Flag(kind=K.SANDBOX_ABUSE, evidence=f"grader: {reason}"))
    if "killed or disturbed" in reason or "killed the sandbox runner" in reason:
        out.append(Flag(kind=K.EARLY_EXIT, evidence=f"grader: {reason}"))
    tests = d.get("tests") or []
    seen = " ".join(
        [str(d.get("stdout", "")), str(d.get("stderr", ""))]
        + [str(t.get("message", "")) for t in tests]
    )
    if m := NETWORK_ERRORS.search(seen):
        out.append(Flag(kind=K.SANDBOX_ABUSE, evidence=f"tried the network: {m.group(0)}"))
    for t in tests:
        m = EXIT_MESSAGE.search(str(t.get("message", "")))
        if m:
            out.append(Flag(kind=K.EARLY_EXIT, evidence=f"test {t.get('name')}: {m.group(0)}"))
    session = [t for t in tests if t.get("name") == "<session>"]
    exit_status = [t for t in tests if "(exit status" in str(t.get("name"))]
    ran = any(t.get("outcome") == "passed" for t in tests)
    if session or (exit_status and ran):  # pytest ended early; a stack's tests ran, then exit != 0
        name = (session or exit_status)[0].get("name")
        out.append(Flag(kind=K.EARLY_EXIT, evidence=f"the test run did not end on its own: {name}"))
    return _dedupe(out)


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
    out.flags = _dedupe([*out.flags, *flags])
    acting = [
        f for f in flags if f.kind != AUDIT_ERROR and (pol.kinds is None or f.kind in pol.kinds)
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
    raw = {
        "mode": options.get("hack_policy", "report"),
        "penalty": options.get("hack_penalty", 0.5),
        "kinds": options.get("hack_kinds"),
    }
    try:
        policy = HackPolicy.model_validate(raw)
    except ValidationError as e:
        problem = "; ".join(f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors())
        raise ManifestError(
            f"{where}: hack policy is invalid ({problem}); given {raw!r}",
            'use hack_policy = "report" | "zero" | "penalty", hack_penalty >= 0, '
            f"hack_kinds a list of {list(K.ALL_KINDS)}",
        ) from None
    unknown = sorted(set(policy.kinds or ()) - set(K.ALL_KINDS))
    if unknown:
        raise ManifestError(
            f"{where}: unknown hack_kinds {unknown}", f"use kinds from {list(K.ALL_KINDS)}"
        )
    return rest, policy


class AuditedGrader:
    """Any grader plus static hack flags and a policy; grades exactly as the inner grader."""

    def __init__(self, inner: Any, policy: HackPolicy, language: str | None = None) -> None:
        self.inner = inner
        self.policy = policy
        self.name = inner.name
        self.language = normalize_language(language) if language else grader_language(inner)

    def extract(self, completion: str) -> Any:
        return self.inner.extract(completion)

    def __getattr__(self, name: str) -> Any:
        """Anything else (spec, pool, adapter, options) is the inner grader's."""
        if name in ("inner", "__setstate__") or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        return self._flagged(task, answers, self.inner.grade_group(task, answers))

    def grade_groups(
        self, groups: Sequence[tuple[Task, Sequence[str]]], on_group_done: Any = None
    ) -> list[list[Verdict]]:
        """Several groups in one call, for an inner grader that batches them (the function
        judge); flagged exactly as `grade_group` flags each."""
        rows = self.inner.grade_groups(groups, on_group_done)
        return [self._flagged(t, a, vs) for (t, a), vs in zip(groups, rows, strict=True)]

    def _flagged(
        self, task: Task, answers: Sequence[str], verdicts: list[Verdict]
    ) -> list[Verdict]:
        return [
            apply_policy(v, flag_answer(task, a, self.language) + verdict_flags(v), self.policy)
            for v, a in zip(verdicts, answers, strict=True)
        ]
