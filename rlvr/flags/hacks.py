"""Hack flags on graded answers: the static checks, and what an environment applies.

`flag_answer(task, answer, language)` runs the cheap static checks (milliseconds, the answer is
never run): for code the checks in static_python.py / static_text.py / hardcode.py, for math and
tool calls those in math_toolcall.py. sandbox.py's `verdict_flags(verdict)` reads what the
sandbox saw. A `HackAudit` puts both on every verdict an environment grades and applies its
policy (policy.py): `Environment.grade` calls it. Manifests get one from the registry: every
code environment (policy "report" unless the manifest says otherwise), and any other whose
manifest sets `hack_policy`. `rlvr grade` lines, scored groups and the training metrics
(`flagged_frac`, `flagged_<kind>`) carry the flags all the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rlvr.flags import kinds as K
from rlvr.flags.hardcode import hardcoded_flags
from rlvr.flags.languages import answer_code, normalize_language
from rlvr.flags.math_toolcall import math_flags, toolcall_flags
from rlvr.flags.policy import HackPolicy, apply_policy, dedupe
from rlvr.flags.sandbox import verdict_flags
from rlvr.flags.stack_patterns import StackPattern, pattern_flags
from rlvr.flags.static_python import python_flags
from rlvr.flags.static_text import text_flags
from rlvr.types import Flag, Task, Verdict


def _code_flags(
    task: Task, answer: str, lang: str, patterns: tuple[StackPattern, ...]
) -> list[Flag]:
    code = answer_code(task, answer, lang)
    flags = python_flags(code) if lang == "python" else text_flags(code, lang)  # type: ignore[arg-type]
    flags += hardcoded_flags(task, code, lang)  # type: ignore[arg-type]
    return flags + pattern_flags(code, lang, patterns, {f.kind for f in flags})


def flag_answer(
    task: Task, answer: str, language: str, patterns: tuple[StackPattern, ...] = ()
) -> list[Flag]:
    """Static hack flags for one answer (`patterns`: the stack folder's own); never raises on
    the answer (an audit bug becomes an `audit_error` flag, which no policy acts on)."""
    try:
        lang = normalize_language(language)
        if lang == "math":
            return dedupe(math_flags(task, answer))
        if lang == "toolcall":
            return dedupe(toolcall_flags(task, answer))
        return dedupe(_code_flags(task, answer, lang, patterns))
    except Exception as e:
        return [Flag(kind=K.AUDIT_ERROR, evidence=f"{type(e).__name__}: {e}"[:300])]


@dataclass(frozen=True)
class HackAudit:
    """How an environment's answers are audited: the language they are read in, and the policy
    applied to every graded answer (None: no flags are attached while grading)."""

    language: str
    policy: HackPolicy | None = None
    patterns: tuple[StackPattern, ...] = ()
    """The stack folder's own patterns (rlvr.flags.stack_patterns)."""

    def apply(
        self, task: Task, answers: Sequence[str], verdicts: Sequence[Verdict]
    ) -> list[Verdict]:
        """The verdicts with the static and sandbox flags of each answer, the policy applied."""
        if self.policy is None:
            return list(verdicts)
        return [
            apply_policy(
                v,
                flag_answer(task, a, self.language, self.patterns) + verdict_flags(v),
                self.policy,
            )
            for v, a in zip(verdicts, answers, strict=True)
        ]
