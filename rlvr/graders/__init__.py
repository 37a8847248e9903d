"""Built-in graders. Importing this package registers their kinds."""

from rlvr.graders import (
    code,  # noqa: F401  (registers "code")
    function,  # noqa: F401  (registers "function")
    toolcall,  # noqa: F401  (registers "toolcall")
)
from rlvr.graders import math as _math  # noqa: F401  (registers "math")
from rlvr.graders.base import Grader, grader_kinds, make_grader, register_grader

__all__ = ["Grader", "grader_kinds", "make_grader", "register_grader"]
