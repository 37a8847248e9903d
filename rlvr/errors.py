"""One base error for everything a user can fix, with a subclass per boundary.

Messages follow one form: where, what is wrong, what was given, and what to do. The CLI prints
`RlvrError`s without a traceback and exits 1; genuine bugs keep their traceback.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

MAX_ERRORS = 20


class RlvrError(Exception):
    """An error the user can fix; `fix` says how."""

    def __init__(self, message: str, fix: str | None = None) -> None:
        self.message = message
        self.fix = fix
        super().__init__(f"{message}; {fix}" if fix else message)


class ManifestError(RlvrError):
    """An environment manifest or registration is invalid."""


class EnvNotFoundError(RlvrError):
    """No environment has the requested name."""


class SandboxError(RlvrError):
    """The Docker sandbox cannot run: no daemon, missing image, bad limits."""


class SandboxSetupError(SandboxError):
    """The sandbox cannot start on this machine at all (no daemon, image not built).

    Not a failure of one job: grading here can only repeat it, so a local run stops with the
    fix instead of writing a column of masked rows; a Ray actor reports it as infra_error so
    the job moves to a node that can sandbox.
    """


class PolicyError(RlvrError):
    """The policy (local model or server) cannot produce samples."""


class TrainingError(RlvrError):
    """Training cannot go on: its updates keep failing (non-finite gradients)."""


class StoreError(RlvrError):
    """A store file cannot be read or appended."""


def _fix_for(err: Any) -> str:
    kind = err["type"]
    if kind == "extra_forbidden":
        return "remove it or check its spelling"
    if kind == "missing":
        return "add it"
    if kind == "string_pattern_mismatch":
        return "use lower-case letters, digits, '-', '_' or '.'"
    return "correct the value"


def format_validation_error(source: str, exc: ValidationError) -> str:
    """A pydantic error as `source: field: problem, got X; fix` lines, one per problem.

    The one rendering of validation errors for users (manifests, task files, training configs,
    the CLI boundary). A check on the whole object (empty field path) quotes no input: the
    input is the whole object, and the message names the values.
    """
    lines = []
    errors = exc.errors()
    for err in errors[:MAX_ERRORS]:
        loc = ".".join(str(p) for p in err["loc"])
        msg = err["msg"].removeprefix("Value error, ")
        given = ""
        if loc and err["type"] != "missing" and "input" in err:
            given = f", got {repr(err['input'])[:80]}"
        lines.append(f"{source}: {loc or '(top level)'}: {msg}{given}; {_fix_for(err)}")
    if len(errors) > MAX_ERRORS:
        lines.append(f"{source}: ... and {len(errors) - MAX_ERRORS} more")
    return "\n".join(lines)
