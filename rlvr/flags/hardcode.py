"""Static signs that an answer is hard-coded to the tests rather than solving the task.

Three signs, each with evidence:

- test data in the answer: distinctive literals (strings of 2+ characters, numbers that are not
  small or round, containers) that the tests use but neither the task statement nor the reference
  solution contains. Two such literals, or one long string or container, flag the answer;
- (Python) branches on the tests' literal inputs that return the matching expected output, and
  dict tables keyed by the tests' inputs;
- a function whose whole body returns one literal that some test expects.

The reference solution and the statement are the honest vocabulary: a literal they share with
the tests ("Fizz", 1000 for roman numerals) never counts.
"""

from __future__ import annotations

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
    """All static hard-coding flags for one answer's code."""
    know = knowledge(task, lang)
    flags = test_data(literals_of(code, lang), know)
    if lang == "python":
        tree = parse_python(code)
        if tree is not None:
            flags += python_branches(tree, know) + python_literal_branches(tree, know)
            flags += python_constant_return(tree, know, task.entry_point)
    else:
        flags += text_constant_return(code, know, lang, task.entry_point) + text_branches(
            code, know, lang
        )
    return flags[:2]
