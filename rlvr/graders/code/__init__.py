"""Graders that run code in the sandbox: `grader.kind = "code"` (the task's own tests,
`grader.py`) and `grader.kind = "function"` (typed cases judged out of process, `function.py`).
`extract` pulls the program out of a completion; `verdict` and `function_verdict` turn a
sandbox run into verdicts."""

from rlvr.graders.code.function import FunctionGrader
from rlvr.graders.code.grader import CodeGrader

__all__ = ["CodeGrader", "FunctionGrader"]
