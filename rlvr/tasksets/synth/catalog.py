"""Every family the generator draws from, in one list (order does not affect ids)."""

from __future__ import annotations

# Module imports (not `from rlvr.tasksets.synth import ...`): the package's `__init__` imports
# `generate`, which imports this catalog, so naming the package here would be a loop.
import rlvr.tasksets.synth.fam_arith as fam_arith
import rlvr.tasksets.synth.fam_compose as fam_compose
import rlvr.tasksets.synth.fam_cond as fam_cond
import rlvr.tasksets.synth.fam_dicts as fam_dicts
import rlvr.tasksets.synth.fam_lists as fam_lists
import rlvr.tasksets.synth.fam_maps as fam_maps
import rlvr.tasksets.synth.fam_sequences as fam_sequences
import rlvr.tasksets.synth.fam_strings as fam_strings
import rlvr.tasksets.synth.fam_text as fam_text
import rlvr.tasksets.synth.fam_words as fam_words
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
