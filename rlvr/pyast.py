"""`ast.parse` behind one process-wide lock.

CPython 3.11 before 3.11.9 keeps the AST conversion's recursion depth in interpreter state, not
per thread, so two threads parsing at once can fail with "SystemError: AST constructor recursion
depth mismatch" (CPython gh-106905). Graders parse tests and answers on many threads; parsing is
cheap next to running code, so serialising it costs nothing measurable.
"""

from __future__ import annotations

import ast
import threading
from typing import Literal

_LOCK = threading.Lock()


def parse(source: str, mode: Literal["exec", "eval", "single"] = "exec") -> ast.AST:
    """Thread-safe `ast.parse`."""
    with _LOCK:
        return ast.parse(source, mode=mode)
