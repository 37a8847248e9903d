"""Which new cases to keep: the fewest that kill every mutant the old cases let through.

EvalPlus's test reduction, as a greedy set cover: each surviving mutant is the set of new
inputs on which it differs from the reference; repeatedly take the input that kills the most
mutants not yet killed (ties: the shorter input, then the earlier one). A `wide` input (outside
what the task's cases show) is taken only for a mutant no `near` input kills; those go first,
since one may kill other mutants too, and near inputs cover the rest. Mutants no input kills
are left (most are equivalent to the reference).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rlvr.audit.augment.inputs import NewInput


def greedy_cover(kills: dict[str, set[int]], inputs: Sequence[NewInput]) -> list[int]:
    """Indices into `inputs`, in the order taken, that kill every killable mutant of `kills`
    (mutant name -> indices of the inputs that kill it)."""
    left = {m: s for m, s in kills.items() if s}
    near = {i for i, x in enumerate(inputs) if x.tier == "near"}
    wide = set(range(len(inputs))) - near
    chosen: list[int] = []
    # wide inputs first, only for the mutants no near input kills (each may kill more)
    for allowed, must in ((wide, {m for m, s in left.items() if not s & near}), (near, set())):
        while True:
            gain: dict[int, tuple[int, int]] = {}
            for m, s in left.items():
                for i in s & allowed:
                    a, b = gain.get(i, (0, 0))
                    gain[i] = (a + (m in must), b + 1)
            if allowed is wide:
                gain = {i: g for i, g in gain.items() if g[0]}
            if not gain:
                break
            best = max(gain, key=lambda i: (gain[i], -len(json.dumps(inputs[i].args)), -i))
            chosen.append(best)
            left = {m: s for m, s in left.items() if best not in s}
            must = {m for m in must if m in left}
    return chosen


def killed_by(kills: dict[str, set[int]], chosen: Sequence[int]) -> dict[int, list[str]]:
    """For each chosen input, the mutants it kills (for the provenance record)."""
    return {i: sorted(m for m, s in kills.items() if i in s) for i in chosen}
