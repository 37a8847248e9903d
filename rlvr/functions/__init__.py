"""Function tasks: a typed, language-neutral description of "call f(args), expect a value".

`typelang` (types and their canonical JSON), `task` (the FunctionTask model and its JSONL
files), `judge` (the host-side comparison of a driver's output). Each stack renders prompts and
drivers from the same task through its translator, `envs/<stack>/translator.py`.
"""

from rlvr.functions.task import Case, FunctionTask, Param, Signature, read_function_tasks
from rlvr.functions.typelang import FType, TypeMismatch, TypeSyntaxError, parse_type

__all__ = [
    "Case",
    "FType",
    "FunctionTask",
    "Param",
    "Signature",
    "TypeMismatch",
    "TypeSyntaxError",
    "parse_type",
    "read_function_tasks",
]
