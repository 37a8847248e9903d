"""Pull the program out of a completion for the code grader.

Three modes, chosen by the environment:

- "fenced": the last fenced block whose tag is one of the stack's languages; failing that the
  last untagged block. No block -> None (the grader rejects with "no code block").
- "whole": the whole completion, as written.
- "function" (HumanEval): the completion is either a full function (in a fence or bare) or the
  body that continues the prompt. Of several fenced blocks the first that defines the entry
  point is taken (else the last block). A full definition of the entry point is appended after
  the prompt (it replaces the prompt's stub and keeps the prompt's imports and helpers); a body
  is appended to the prompt as is.

    >>> extract_fenced("text\\n```python\\nx = 1\\n```\\n", ["python"])
    'x = 1\\n'
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from rlvr.fences import first_fence_end, iter_fences
from rlvr.pyast import parse as parse_python

PY_FENCE_TAGS = ("python", "py", "python3")
BLOCK_RULES = ("last", "first", "entry-first", "entry-last", "stop")
"""Which fenced block is the answer: see `choose_block`."""


def fenced_blocks(text: str) -> list[tuple[str, str]]:
    """(tag, body) of every closed fenced block, in order."""
    return [(f.tag, f.body) for f in iter_fences(text)]


def language_blocks(text: str, languages: Sequence[str]) -> list[str]:
    """The bodies of the blocks tagged with one of `languages`, else of the untagged ones."""
    blocks = fenced_blocks(text)
    tags = {t.lower() for t in languages}
    return [b for t, b in blocks if t in tags] or [b for t, b in blocks if not t]


def choose_block(
    text: str, languages: Sequence[str], rule: str, entry_point: str | None = None
) -> str | None:
    """The answer block by `rule`, from the text alone (never from how a block fares):

    - "last": the last block (what `extract_fenced` returns);
    - "first": the first block;
    - "entry-first" / "entry-last": the first / last block that parses and defines
      `entry_point` at top level, else the last block;
    - "stop": the text cut after its first closed fence (a stop string), then the last block.
    """
    if rule == "stop":
        end = first_fence_end(text)
        return extract_fenced(text if end is None else text[:end], languages)
    bodies = language_blocks(text, languages)
    if not bodies:
        return None
    if rule.startswith("entry-") and entry_point:
        defining = [b for b in bodies if defines_function(b, entry_point)]
        if defining:
            return defining[0] if rule == "entry-first" else defining[-1]
    return bodies[0] if rule == "first" else bodies[-1]


def extract_fenced(text: str, languages: Sequence[str]) -> str | None:
    """The last block tagged with one of `languages`, else the last untagged block."""
    bodies = language_blocks(text, languages)
    return bodies[-1] if bodies else None


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
    """The program to run for a HumanEval-style completion (see the module docstring).

    Of several blocks, the first that defines the entry point is the answer ("entry-first"):
    instruct models follow the function with an "Example usage" block or a second attempt, and
    on synth-python's validation slice this rule loaded and passed the most answers
    (bench/extract_choice.py; bench/README.md has the figures)."""
    code = choose_block(completion, PY_FENCE_TAGS, "entry-first", entry_point)
    if code is None:
        code = completion
    if defines_function(code, entry_point):
        return prompt.rstrip() + "\n\n\n" + code
    if code is not completion and not code.startswith((" ", "\t")):
        # a fenced body without indentation cannot continue the prompt; indent it
        code = "".join("    " + line if line.strip() else line for line in code.splitlines(True))
    return prompt + code
