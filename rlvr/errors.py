"""One base error for everything a user can fix, with a subclass per boundary.

Messages follow one form: where, what is wrong, what was given, and what to do. The CLI prints
`RlvrError`s without a traceback and exits 1; genuine bugs keep their traceback.
"""

from __future__ import annotations


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


class PolicyError(RlvrError):
    """The policy (local model or server) cannot produce samples."""


class StoreError(RlvrError):
    """A store file cannot be read or appended."""
