"""What a task family produces: a language-neutral draft plus its reference code per stack.

A draft is the function a family drew (name, typed parameters, return type, one- or two-sentence
docstring) with a reference body in each stack. Types are strings of the function-task type
language (`rlvr.functions.typelang`). Bodies are the statements inside the function,
indented four spaces, because the stack's translator owns the signature line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rlvr.functions.typelang import FType, parse_type
from rlvr.tasksets.synth.values import Domain

Stack = Literal["python", "javascript", "go", "rust"]
STACKS: tuple[Stack, ...] = ("python", "javascript", "go", "rust")
Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Code:
    """A reference body in one stack, with the imports and helper functions it needs."""

    body: str
    imports: tuple[str, ...] = ()
    helpers: str = ""


@dataclass(frozen=True)
class Draft:
    """One function drawn by a family; `key` (the drawn constants) decides its id."""

    family: str
    difficulty: Difficulty
    name: str
    params: tuple[tuple[str, str], ...]
    returns: str
    doc: str
    code: dict[Stack, Code]
    key: str
    domains: tuple[Domain, ...]
    tags: tuple[str, ...] = field(default_factory=tuple)


def python_hint(t: FType) -> str:
    """The Python annotation of a type: optional[int] -> 'int | None'."""
    if not t.args:
        return "None" if t.kind == "none" else t.kind
    args = [python_hint(a) for a in t.args]
    if t.kind == "optional":
        return f"{args[0]} | None"
    if t.variadic:
        return f"tuple[{args[0]}, ...]"
    return f"{t.kind}[{', '.join(args)}]"


def python_source(draft: Draft) -> str:
    """The complete Python reference function, used to compute every expected value."""
    params = ", ".join(f"{n}: {python_hint(parse_type(t))}" for n, t in draft.params)
    ret = python_hint(parse_type(draft.returns))
    code = draft.code["python"]
    head = "".join(f"{line}\n" for line in code.imports)
    helpers = f"{code.helpers.rstrip()}\n\n\n" if code.helpers else ""
    return f"{head}{helpers}def {draft.name}({params}) -> {ret}:\n{code.body.rstrip()}\n"
