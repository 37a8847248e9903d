"""The math grader's options (manifest `[grader.options]`): where public graders legitimately
differ, checked by pydantic so a typo is an error, never a silent default."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rlvr.graders.math.guard import Limits
from rlvr.graders.math.rules import Rules


class MathOptions(BaseModel):
    """Options of the math grader (manifest `[grader] options`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    timeout_s: float = Field(2.0, gt=0, description="Deadline for checking one answer, seconds.")
    answer_timeouts: Literal["reject", "mask"] = Field(
        "reject",
        description="An answer still unchecked after a second try at twice `timeout_s`: "
        "'reject' scores it 0 (cause timeout, so a costly expression is no escape from a "
        "zero); 'mask' gives it a masked `timeout` verdict, as for a gold that is too slow.",
    )
    fallback_last_number: bool = Field(
        True, description="With no box, '####' or 'Answer:' line, grade the last number."
    )
    max_answer_chars: int = Field(
        1000, ge=1, description="Longer final answers are rejected unread."
    )
    max_digits: float = Field(
        20_000, gt=0, description="Largest exact number, in digits, an answer may ask for."
    )
    max_degree: float = Field(1_000, gt=0, description="Highest polynomial degree allowed.")
    workers: int | None = Field(
        None, ge=1, description="Worker processes (default: CPU count, 2 to 8)."
    )
    memory_mb: int | None = Field(2048, ge=256, description="Address-space cap per worker.")
    percent: Literal["number", "fraction", "either"] = Field(
        "either",
        description="'number': 10% is 10; 'fraction': 10% is 0.1; 'either': a percentage in "
        "the answer matches the number or the fraction in the gold, while a bare answer to a "
        "percentage gold is read in percent (10 answers 10%, 0.1 does not).",
    )
    decimal_digits: int = Field(
        6,
        ge=1,
        description="A decimal with at least this many significant digits may round the other "
        "side to its last place (0.0666668 for 0.066666793); fewer must agree to 1e-9.",
    )
    multiple_choice: bool = Field(
        True, description="When the gold is a choice letter (A-J), read '(C)', 'C.', 'C) 42'."
    )
    strip_units: bool = Field(True, description="Drop unit words after a number (5 cm is 5).")
    positive_symbols: bool = Field(
        True, description="Treat letters as positive reals (sqrt(1/n) is 1/sqrt(n))."
    )
    numbers_only: bool = Field(
        False,
        description="Pass only a plain number (-12, 0.5, 3/4, \\frac{3}{4}, 55%), never an "
        "expression equal to the gold: for arithmetic tasks, where `32 + 23` restates the "
        "question instead of answering it.",
    )

    @property
    def limits(self) -> Limits:
        return Limits(max_digits=self.max_digits, max_degree=self.max_degree)

    @property
    def rules(self) -> Rules:
        return Rules(decimal_digits=self.decimal_digits, positive_symbols=self.positive_symbols)
