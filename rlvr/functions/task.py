"""FunctionTask: a language-neutral "call this function with these arguments" task.

One JSON object per line in `datasets/<set>/functions.jsonl`. The signature is typed in
`rlvr.functions.typelang`'s small type language; every case's arguments and expected value are
canonical JSON of those types and are checked against them when the task loads. Each stack's
translator (`envs/<stack>/translator.py`) renders the prompt, the answer stub and a driver from
this one description; the driver only ever receives the arguments, the host judge alone holds
the expected values (`rlvr.functions.judge`).
"""

from __future__ import annotations

import json
import keyword
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from rlvr.errors import ManifestError
from rlvr.functions.typelang import FType, TypeMismatch, TypeSyntaxError, decode, parse_type
from rlvr.manifest import format_validation_error

Difficulty = Literal["easy", "medium", "hard"]
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _identifier(value: str, what: str) -> str:
    if not _IDENT.match(value) or keyword.iskeyword(value):
        raise ValueError(
            f"{what} {value!r} must be an identifier (letters, digits, _; not a Python keyword), "
            "preferably snake_case, so every stack's translator can turn it into its own style"
        )
    return value


def _type(value: str) -> str:
    try:
        return str(parse_type(value))
    except TypeSyntaxError as e:
        raise ValueError(str(e)) from None


class Param(_Model):
    """One parameter: its name (snake_case) and type string."""

    name: str
    type: str = Field(description="A type of the type language, e.g. 'list[int]'.")

    @field_validator("name")
    @classmethod
    def _name_ok(cls, v: str) -> str:
        return _identifier(v, "parameter name")

    @field_validator("type")
    @classmethod
    def _type_ok(cls, v: str) -> str:
        return _type(v)


class Signature(_Model):
    """Parameters in call order and the return type."""

    params: list[Param]
    returns: str = Field(description="Return type, e.g. 'optional[str]'.")

    @field_validator("returns")
    @classmethod
    def _returns_ok(cls, v: str) -> str:
        return _type(v)

    @model_validator(mode="after")
    def _unique(self) -> Signature:
        names = [p.name for p in self.params]
        dups = sorted({n for n in names if names.count(n) > 1})
        if dups:
            raise ValueError(f"parameter names must be unique, {dups} repeat")
        return self

    @property
    def param_types(self) -> list[FType]:
        return [parse_type(p.type) for p in self.params]

    @property
    def return_type(self) -> FType:
        return parse_type(self.returns)


class Case(_Model):
    """One call: the arguments (canonical JSON, one per parameter) and the expected result.

    `abs_tol` compares floats (also inside containers) by `abs(got - want) < abs_tol` instead
    of exactly; HumanEval's `assert abs(candidate(x) - y) < 1e-6` becomes `abs_tol = 1e-6`.
    `raises` turns the case around: the call must fail (raise, throw or panic; any error), as
    a test's `pytest.raises(ValueError)` demands; `expected` is then left out.
    """

    args: list[Any]
    expected: Any = None
    abs_tol: float | None = Field(default=None, gt=0)
    raises: bool = False

    @model_validator(mode="after")
    def _raises_has_no_value(self) -> Case:
        if self.raises and (self.expected is not None or self.abs_tol is not None):
            raise ValueError("a case with raises = true has no expected value nor abs_tol")
        return self


class FunctionTask(_Model):
    """A typed function, its description, references per stack and argument/expected cases."""

    id: str = Field(min_length=1, description="Stable id, unique within its task set.")
    entry_point: str = Field(description="Function name in snake_case; stacks rename it.")
    signature: Signature
    docstring: str = Field(description="What the function does, in prose (no code syntax).")
    references: dict[str, str] = Field(
        default_factory=dict, description="Stack name -> a whole answer file that passes."
    )
    prompts: dict[str, str] = Field(
        default_factory=dict,
        description="Stack name -> a prompt given by the source, used instead of the rendered one.",
    )
    public_cases: list[Case] = Field(default_factory=list, description="May appear in prompts.")
    hidden_cases: list[Case] = Field(default_factory=list, description="Never shown.")
    stacks: list[str] = Field(
        default_factory=list,
        description="Limit the task to these stacks (empty: every stack that can express it); "
        "meta.stacks_reason says why.",
    )
    difficulty: Difficulty | None = None
    tags: list[str] = Field(default_factory=list)
    source: str = Field(default="", description="Where the task comes from (e.g. human-eval).")
    meta: dict[str, Any] = Field(default_factory=dict, description="Free-form, for humans.")

    @field_validator("entry_point")
    @classmethod
    def _entry_ok(cls, v: str) -> str:
        return _identifier(v, "entry_point")

    @model_validator(mode="after")
    def _cases_typed(self) -> FunctionTask:
        if not self.public_cases and not self.hidden_cases:
            raise ValueError(f"task {self.id}: give at least one case (public or hidden)")
        types, ret = self.signature.param_types, self.signature.return_type
        for label, cases in (
            ("public_cases", self.public_cases),
            ("hidden_cases", self.hidden_cases),
        ):
            for i, case in enumerate(cases):
                check_case(case, types, ret, f"{label}[{i}]")
        return self

    @property
    def cases(self) -> list[Case]:
        """Public then hidden cases: the order drivers run them and results are numbered."""
        return [*self.public_cases, *self.hidden_cases]


def check_case(case: Case, types: list[FType], ret: FType, where: str) -> None:
    """Raise ValueError naming the case and argument when a value does not fit its type."""
    if len(case.args) != len(types):
        raise ValueError(f"{where}: {len(case.args)} arguments for {len(types)} parameters")
    try:
        for j, (t, v) in enumerate(zip(types, case.args, strict=True)):
            decode(t, v, f"{where}.args[{j}]")
        if not case.raises:
            decode(ret, case.expected, f"{where}.expected")
    except TypeMismatch as e:
        raise ValueError(f"{e}; write the value in the canonical JSON of its type") from None


def read_function_tasks(path: str | Path) -> list[FunctionTask]:
    """Function tasks from a JSONL file; errors carry the file, the line and the field."""
    path = Path(path)
    if not path.is_file():
        raise ManifestError(f"{path}: function task file not found", "check the path")
    out, seen = [], {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            task = FunctionTask.model_validate(json.loads(line))
        except json.JSONDecodeError as e:
            raise ManifestError(f"{path}:{lineno}: not valid JSON ({e.msg})") from None
        except ValidationError as e:
            raise ManifestError(format_validation_error(f"{path}:{lineno}", e)) from None
        if task.id in seen:
            raise ManifestError(
                f"{path}:{lineno}: task id {task.id!r} already used on line {seen[task.id]}",
                "give every task a unique id",
            )
        seen[task.id] = lineno
        out.append(task)
    return out


def write_function_tasks(path: str | Path, tasks: list[FunctionTask]) -> None:
    """Write tasks as JSONL (one compact line each, keys in model order)."""
    text = "".join(t.model_dump_json(exclude_defaults=True) + "\n" for t in tasks)
    Path(path).write_text(text, encoding="utf-8")
