"""What `rlvr audit graders` checks, in words, per kind of grader: the report and the summary
line say which checks ran, and when they were only the generic ones."""

from __future__ import annotations

from rlvr.audit.specgap.cheats import CHEAT_KINDS

TRIVIAL_KINDS = {
    "python": "empty, pass, return None / an argument / a constant of the expected type, raise",
    "javascript": "empty, empty body, return null / an argument / a constant, throw",
    "go": "empty, zero value, panic, return an argument, true / false",
    "rust": "empty, Default::default(), unimplemented!(), return an argument",
    "text": "generic: empty answer, empty body of the entry point, `return 0;`, "
    "`return <argument>;`",
}


def audit_checks(lang: str) -> tuple[list[str], str]:
    """The checks the audit runs for a grader of this language, and a note when they are the
    generic ones (no syntax support for the stack)."""
    if lang == "math":
        return ["reference passes", "equivalent forms of the gold pass",
                "perturbed golds fail (mutants)"], ""  # fmt: skip
    if lang == "terminal":
        return ["reference passes", f"{CHEAT_KINDS} fail"], ""
    if lang == "toolcall":
        return ["reference passes", "trivial calls fail",
                "schema-violating arguments fail (mutants)"], ""  # fmt: skip
    mutants = "python AST operators" if lang == "python" else f"token operators ({lang})"
    checks = [
        "reference passes",
        f"trivial answers fail ({TRIVIAL_KINDS[lang]})",
        f"mutants of the reference fail ({mutants}; ones that do not build are stillborn)",
    ]
    note = ""
    if lang == "text":
        note = (
            "the audits have no syntax support for this stack, so they ran their generic checks "
            "(C-family lexing: `//`, `/* */` and `#` lines are comments); if its syntax is close "
            'to a known language, set [grader.options] audit_language = "javascript" (or python, '
            "go, rust)"
        )
    return checks, note
