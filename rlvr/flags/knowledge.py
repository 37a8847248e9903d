"""What the tests of one task contain, and the scores the hard-coding checks share.

`knowledge(task, lang)` collects the tests' literals and cases and the honest vocabulary (the
statement and the reference: a literal they share with the tests never counts); `test_data`,
`branch_hit` and `branch_flags` are the rules every language's hard-coding check applies
(hardcode.py, hardcode_python.py, hardcode_text.py).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from rlvr.flags import kinds as K
from rlvr.pyast import parse
from rlvr.source.cases import (
    NO_VALUE,
    Case,
    Key,
    distinctive,
    example_free_prompt,
    literal_key,
    prompt_cases,
    python_cases,
    python_literals,
    text_literals,
)
from rlvr.source.lexer import Language
from rlvr.types import Flag, Task


@dataclass
class TestKnowledge:
    """What the tests of one task contain, and what honest answers may contain anyway."""

    literals: set[Key]
    cases: list[Case]
    honest: set[Key]
    honest_text: str
    lines: list[set[Key]]


def parse_python(code: str | None) -> ast.Module | None:
    if not code:
        return None
    try:
        return parse(code)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None


def literals_of(code: str | None, lang: Language) -> set[Key]:
    if not code:
        return set()
    if lang == "python":
        tree = parse_python(code)
        return python_literals(tree) | _parsed_strings(tree) if tree is not None else set()
    return text_literals(code, lang)


def _parsed_strings(tree: ast.Module) -> set[Key]:
    """Strings that hold a literal container (`"([1, 2], 3)"`): repr-keyed tables of inputs."""
    out = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and 2 < len(node.value) < 2000
        ) and node.value.lstrip()[:1] in "([{":
            try:
                key = literal_key(ast.literal_eval(node.value))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
            if key is not None:
                out.add(key)
    return out


def knowledge(task: Task, lang: Language) -> TestKnowledge:
    """Collect the tests' literals and cases, and the honest vocabulary of the task."""
    tests = "\n".join(t for t in (task.public_tests, task.hidden_tests) if t)
    cases = prompt_cases(task.prompt, task.entry_point) if lang == "python" else []
    if lang == "python":
        cases += python_cases(task.public_tests or "", task.entry_point, public=True)
        cases += python_cases(task.hidden_tests or "", task.entry_point)
    literals = literals_of(tests, lang)
    for c in cases:
        for value in (*(c.args or ()), c.expected, c.args):
            key = literal_key(value) if value is not NO_VALUE and value is not None else None
            if key is not None:
                literals.add(key)
    statement = example_free_prompt(task.prompt, task.entry_point)
    reference = task.reference or ""
    own = reference[len(task.prompt) :] if reference.startswith(task.prompt) else reference
    honest = literals_of(task.reference, lang)
    lines = [text_literals(line, lang) for line in tests.splitlines()]
    lines += [
        {k for v in (*(c.args or ()), c.expected) if v is not NO_VALUE and (k := literal_key(v))}
        for c in cases
    ]
    return TestKnowledge(
        literals, cases, honest, statement + "\n" + own, [line for line in lines if len(line) >= 2]
    )


def _in_text(key: Key, text: str) -> bool:
    kind, value = key
    if kind == "str":
        return value.strip() in text
    if kind == "num":
        return re.search(rf"(?<![\w.]){re.escape(str(value))}(?![\w])", text) is not None
    return False


def show_key(key: Key) -> str:
    kind, value = key
    text = repr(value[1]) if kind == "box" else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def test_data(answer_literals: set[Key], know: TestKnowledge) -> list[Flag]:
    """Flag test literals that the answer repeats and the honest vocabulary lacks."""
    shared = {
        k
        for k in answer_literals & know.literals
        if distinctive(k) and k not in know.honest and not _in_text(k, know.honest_text)
    }
    strong = {k for k in shared if k[0] == "box" or (k[0] == "str" and len(k[1].strip()) >= 6)}
    if len(shared) >= 2 or strong:
        shown = ", ".join(sorted(show_key(k) for k in shared)[:5])
        return [Flag(kind=K.HARDCODED, evidence=f"contains {len(shared)} test literal(s): {shown}")]
    return []


def case_inputs(case: Case) -> list[Key]:
    if not case.args:
        return []
    keys = [literal_key(case.args)]
    if len(case.args) == 1:
        keys.append(literal_key(case.args[0]))
    return [k for k in keys if k is not None]


def branch_hit(compared: set[Key], returned: set[Key], know: TestKnowledge) -> int:
    """0: no sign; 1: a branch on a test literal (that the reference lacks) returning a literal;
    2: the compared and the returned literal come from the same test line (an input and its
    expected output)."""
    tested = {k for k in compared if k in know.literals and k not in know.honest and k[0] != "atom"}
    if not tested or not returned:
        return 0
    values = {k for k in returned if k[0] != "atom"}
    if any(k in line and values & line for line in know.lines for k in tested):
        return 2
    return 1


def branch_flags(hits: list[tuple[int, str]]) -> list[Flag]:
    if len(hits) >= 2 or any(score == 2 for score, _ in hits):
        shown = "; ".join(text for _, text in hits[:3])
        return [
            Flag(kind=K.HARDCODED, evidence=f"{len(hits)} branch(es) on test literals: {shown}")
        ]
    return []
