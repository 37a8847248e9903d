"""The language an answer is audited in: a manifest's `audit_language`, else the grader's.

The static checks know Python, JavaScript, Go and Rust syntax, math and tool calls; any other
stack is read with the generic C-family checks ("text"). `answer_code` is the program an
answer stands for, as the code graders would run it.
"""

from __future__ import annotations

from typing import Any

from rlvr.errors import ManifestError
from rlvr.graders.code.extract import extract_fenced, fenced_blocks, function_program
from rlvr.pyast import parse
from rlvr.types import Task

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


def normalize_language(language: str) -> str:
    """The audit's name for a language or grader kind; "text" (generic checks) for any other."""
    return LANGUAGES.get(language.lower(), GENERIC)


def grader_language(grader: Any) -> str:
    """The language a grader checks: a code grader's main fence tag, else its kind; "text" for
    a stack the audit has no syntax for."""
    options = getattr(grader, "options", None)
    tags = getattr(options, "language", None) or getattr(
        getattr(grader, "translator", None), "LANGUAGES", None
    )
    if getattr(grader, "name", "") in ("code", "function") and tags:
        return normalize_language(tags[0])
    return normalize_language(getattr(grader, "name", "") or "python")


def env_language(env: Any) -> str:
    """The language an environment's answers are audited in (rlvr.env.Environment)."""
    audit = getattr(env, "audit", None)
    return audit.language if audit is not None else grader_language(env.grader)


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
    if lang not in FENCE_TAGS:  # any stack: its last fenced block, whatever the tag
        blocks = fenced_blocks(answer)
        return blocks[-1][1] if blocks else answer
    code = extract_fenced(answer, FENCE_TAGS[lang]) or answer
    if lang != "python":
        return code
    try:
        parse(code)
        return code
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        pass
    if task.entry_point and f"def {task.entry_point}" in task.prompt:
        return function_program(task.prompt, answer, task.entry_point)
    return code
