"""How lenient the comparison is where graders legitimately differ (manifest options)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rules:
    """Comparison settings shipped to the worker with the gold (see `MathOptions`)."""

    decimal_digits: int = 6
    positive_symbols: bool = True
