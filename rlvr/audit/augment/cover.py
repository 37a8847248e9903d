"""Which new cases to keep: the fewest that kill every mutant the old cases let through.

EvalPlus's test reduction, as a greedy set cover: each surviving mutant is the set of new
inputs on which it differs from the reference; repeatedly take the input that kills the most
mutants not yet killed (ties: the shorter input, then the earlier one). `near` inputs (inside
what the task's cases show) cover first; a `wide` input is taken only for a mutant no near
input kills. Mutants no input kills are left (most are equivalent to the reference).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rlvr.audit.augment.inputs import NewInput


def greedy_cover(kills: dict[str, set[int]], inputs: Sequence[NewInput]) -> list[int]:
    """Indices into `inputs`, in the order taken, that kill every killable mutant of `kills`
    (mutant name -> indices of the inputs that kill it)."""
    left = {m: s for m, s in kills.items() if s}
    chosen: list[int] = []
    for tier in ("near", "wide"):
        allowed = {i for i, x in enumerate(inputs) if x.tier == tier}
        while True:
            gain: dict[int, int] = {}
            for s in left.values():
                for i in s & allowed:
                    gain[i] = gain.get(i, 0) + 1
            if not gain:
                break
            best = max(gain, key=lambda i: (gain[i], -len(json.dumps(inputs[i].args)), -i))
            chosen.append(best)
            left = {m: s for m, s in left.items() if best not in s}
    return chosen


def killed_by(kills: dict[str, set[int]], chosen: Sequence[int]) -> dict[int, list[str]]:
    """For each chosen input, the mutants it kills (for the provenance record)."""
    return {i: sorted(m for m, s in kills.items() if i in s) for i in chosen}
