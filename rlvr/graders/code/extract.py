"""Pull the program out of a completion for the code grader.

Three modes, chosen by the environment:

- "fenced": the last fenced block whose tag is one of the stack's languages; failing that the
  last untagged block. No block -> None (the grader rejects with "no code block").
- "whole": the whole completion, as written.
- "function" (HumanEval): the completion is either a full function (in a fence or bare) or the
  body that continues the prompt. A full definition of the entry point is appended after the
  prompt (it replaces the prompt's stub and keeps the prompt's imports and helpers); a body is
  appended to the prompt as is.

    >>> extract_fenced("text\\n```python\\nx = 1\\n```\\n", ["python"])
    'x = 1\\n'
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from rlvr.pyast import parse as parse_python

_FENCE = re.compile(
    r"^[ \t]*(`{3,}|~{3,})[ \t]*([\w+#.-]*)[^\n]*\n(.*?)^[ \t]*\1[ \t]*$", re.M | re.S
)


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(tag, body) of every closed fenced block, in order."""
    return [(m.group(2).lower(), m.group(3)) for m in _FENCE.finditer(text)]


def extract_fenced(text: str, languages: Sequence[str]) -> str | None:
    """The last block tagged with one of `languages`, else the last untagged block."""
    blocks = fenced_blocks(text)
    tags = {t.lower() for t in languages}
    tagged = [body for tag, body in blocks if tag in tags]
    if tagged:
        return tagged[-1]
    untagged = [body for tag, body in blocks if not tag]
    return untagged[-1] if untagged else None


def defines_function(code: str, name: str) -> bool:
    """True when `code` parses and defines `name` at top level."""
    try:
        tree = parse_python(code)
    except SyntaxError:
        return False
    return any(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name
        for node in tree.body
    )


def function_program(prompt: str, completion: str, entry_point: str) -> str:
    """The program to run for a HumanEval-style completion (see the module docstring)."""
    code = extract_fenced(completion, ["python", "py", "python3"])
    if code is None:
        code = completion
    if defines_function(code, entry_point):
        return prompt.rstrip() + "\n\n\n" + code
    if code is not completion and not code.startswith((" ", "\t")):
        # a fenced body without indentation cannot continue the prompt; indent it
        code = "".join("    " + line if line.strip() else line for line in code.splitlines(True))
    return prompt + code
