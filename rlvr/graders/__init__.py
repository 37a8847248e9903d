"""Built-in graders. Importing this package registers their kinds.

`base` holds the contract and the registry; `bounded` the killable worker pool graders share;
`math/`, `toolcall/` and `code/` one package per family (their conformance cases live in the
top-level `graders/<kind>/` folders).
"""

from rlvr.graders import code, math, terminal, toolcall  # noqa: F401  (register their kinds)
from rlvr.graders.base import Grader, grader_kinds, make_grader, register_grader

__all__ = ["Grader", "grader_kinds", "make_grader", "register_grader"]
