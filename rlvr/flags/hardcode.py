"""Static signs that an answer is hard-coded to the tests rather than solving the task.

Three signs, each with evidence:

- test data in the answer: distinctive literals (strings of 2+ characters, numbers that are not
  small or round, containers) that the tests use but neither the task statement nor the reference
  solution contains. Two such literals, or one long string or container, flag the answer;
- (Python) branches on the tests' literal inputs that return the matching expected output, and
  dict tables keyed by the tests' inputs;
- a function whose whole body returns one literal that some test expects;
- (function tasks, any stack) the public cases written down as input -> output, or as an
  opaque key -> output (hardcode_cases.py).

The reference solution and the statement are the honest vocabulary: a literal they share with
the tests ("Fizz", 1000 for roman numerals) never counts.
"""

from __future__ import annotations

from rlvr.flags.hardcode_cases import case_flags
from rlvr.flags.hardcode_python import (
    python_branches,
    python_constant_return,
    python_literal_branches,
)
from rlvr.flags.hardcode_text import text_branches, text_constant_return
from rlvr.flags.knowledge import knowledge, literals_of, parse_python, test_data
from rlvr.source.lexer import Language
from rlvr.types import Flag, Task


def hardcoded_flags(task: Task, code: str, lang: Language) -> list[Flag]:
    """All static hard-coding flags for one answer's code.

    A function task whose prompt shows cases is read from those cases in every stack
    (hardcode_cases.py); the literal and branch scores below are for tasks whose tests are code.
    """
    know = knowledge(task, lang)
    tree = parse_python(code) if lang == "python" else None
    if lang == "python":
        constant = python_constant_return(tree, know, task.entry_point) if tree else []
    else:
        constant = text_constant_return(code, know, lang, task.entry_point)
    if (task.meta or {}).get("function"):
        return (case_flags(task, code, lang) + constant)[:2]
    flags = test_data(literals_of(code, lang), know)
    if tree is not None:
        flags += python_branches(tree, know) + python_literal_branches(tree, know)
    elif lang != "python":
        flags += text_branches(code, know, lang)
    return (flags + constant)[:2]
