"""Every family the generator draws from, in one list (order does not affect ids)."""

from __future__ import annotations

from rlvr.tasksets.synth import (
    fam_arith,
    fam_compose,
    fam_cond,
    fam_dicts,
    fam_lists,
    fam_maps,
    fam_sequences,
    fam_strings,
    fam_text,
    fam_words,
)
from rlvr.tasksets.synth.family import Family

FAMILIES: tuple[Family, ...] = tuple(
    value
    for module in (
        fam_arith,
        fam_compose,
        fam_cond,
        fam_dicts,
        fam_lists,
        fam_maps,
        fam_sequences,
        fam_strings,
        fam_text,
        fam_words,
    )
    for value in vars(module).values()
    if isinstance(value, Family)
)
