"""The CLI's error boundary: no command ends in a traceback.

A user-fixable `RlvrError` prints its message and fix. A pydantic `ValidationError` prints one
`field: message` line per problem. Anything else (a bug, or a condition rlvr did not foresee)
prints its type and message and the path of a log file that keeps the full traceback; `--debug`
anywhere on the command line (or RLVR_DEBUG=1) lets the traceback through instead.
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from pathlib import Path

from pydantic import ValidationError

from rlvr.cli.common import report_error
from rlvr.errors import RlvrError, format_validation_error

DEBUG_FLAG = "--debug"


def split_debug(argv: list[str]) -> tuple[list[str], bool]:
    """Take `--debug` out of the arguments (it may stand anywhere before a `--`)."""
    end = argv.index("--") if "--" in argv else len(argv)
    debug = DEBUG_FLAG in argv[:end]
    rest = [a for i, a in enumerate(argv) if not (i < end and a == DEBUG_FLAG)]
    return rest, debug or os.environ.get("RLVR_DEBUG", "") not in ("", "0")


def log_dir() -> Path:
    """Where tracebacks of unexpected errors go: $RLVR_CACHE/logs, else ~/.cache/rlvr/logs."""
    return Path(os.environ.get("RLVR_CACHE") or Path.home() / ".cache" / "rlvr") / "logs"


def write_traceback(err: BaseException, argv: list[str]) -> Path | None:
    """Keep the traceback in a log file; None when no file could be written."""
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"error-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
        text = "".join(traceback.format_exception(err))
        path.write_text(f"rlvr {' '.join(argv)}\n\n{text}", encoding="utf-8")
        return path
    except OSError:
        return None


def unexpected(err: Exception, argv: list[str]) -> RlvrError:
    """The message for an error no command turned into an RlvrError."""
    log = write_traceback(err, argv)
    kept = f"the traceback is in {log}" if log else "no log file could be written"
    if isinstance(err, ValidationError):
        return RlvrError(
            format_validation_error(f"invalid {err.title}", err),
            f"fix the values named above ({kept}; rerun with --debug to print it)",
        )
    if isinstance(err, FileNotFoundError | PermissionError | IsADirectoryError):
        return RlvrError(f"{type(err).__name__}: {err}", f"check the path ({kept})")
    return RlvrError(
        f"unexpected {type(err).__name__}: {err}"[:1000],
        f"{kept}; rerun with --debug to print it, and report it if the message does not say "
        "what to change",
    )


def run_with_boundary(app: object, argv: list[str] | None) -> None:
    """Run the typer app; every failure becomes an exit status and a message."""
    args, debug = split_debug(list(sys.argv[1:] if argv is None else argv))
    try:
        app(args=args, standalone_mode=True)  # type: ignore[operator]
    except RlvrError as err:
        report_error(err)
        sys.exit(1)
    except KeyboardInterrupt:
        report_error(RlvrError("interrupted"))
        sys.exit(130)
    except Exception as err:
        if debug:
            raise
        report_error(unexpected(err, args))
        sys.exit(1)
