"""List folds and their compositions: filter, map and reduce over a list of ints.

Difficulty grows with the number of stages: one stage (easy), two (medium), all three (hard).
"""

from __future__ import annotations

import random

from rlvr.tasksets.synth.draft import Difficulty, Draft
from rlvr.tasksets.synth.family import family
from rlvr.tasksets.synth.pools import REDUCE_PHRASE, draw_map, draw_pred, loop_body
from rlvr.tasksets.synth.values import int_lists

XS = (("xs", "list[int]"),)


@family("count_if", ("easy",), "lists", "conditionals", "loops")
def count_if(r: random.Random, level: Difficulty) -> Draft:
    pred = draw_pred(r)
    return Draft(
        "count_if",
        level,
        "count_matching",
        XS,
        "int",
        f"Return how many elements of xs are {pred.phrase}.",
        loop_body("xs", pred, None, "count"),
        pred.key,
        (int_lists(),),
    )


@family("sum_if", ("easy",), "lists", "conditionals", "loops")
def sum_if(r: random.Random, level: Difficulty) -> Draft:
    pred = draw_pred(r)
    return Draft(
        "sum_if",
        level,
        "sum_matching",
        XS,
        "int",
        f"Return the sum of the elements of xs that are {pred.phrase} (0 if there are none).",
        loop_body("xs", pred, None, "sum"),
        pred.key,
        (int_lists(),),
    )


@family("map_list", ("easy",), "lists", "arithmetic", "loops")
def map_list(r: random.Random, level: Difficulty) -> Draft:
    mapping = draw_map(r)
    return Draft(
        "map_list",
        level,
        "map_values",
        XS,
        "list[int]",
        f"Return a new list where each element x of xs is replaced by {mapping.phrase}.",
        loop_body("xs", None, mapping, None),
        mapping.key,
        (int_lists(),),
    )


@family("filter_list", ("easy",), "lists", "conditionals", "loops")
def filter_list(r: random.Random, level: Difficulty) -> Draft:
    pred = draw_pred(r)
    return Draft(
        "filter_list",
        level,
        "keep_matching",
        XS,
        "list[int]",
        f"Return the elements of xs that are {pred.phrase}, in their original order.",
        loop_body("xs", pred, None, None),
        pred.key,
        (int_lists(),),
    )


@family(
    "pipeline",
    ("medium", "hard"),
    "lists",
    "composition",
    "loops",
    weight={"medium": 2, "hard": 4},
)
def pipeline(r: random.Random, level: Difficulty) -> Draft:
    """medium: filter then map, or filter then reduce; hard: filter, map, then reduce."""
    pred, mapping = draw_pred(r), draw_map(r)
    if level == "hard":
        reduce = r.choice(["sum", "sumsq", "max", "min"])
        doc = (
            f"Take the elements x of xs that are {pred.phrase} and compute {mapping.phrase} "
            f"for each; return {REDUCE_PHRASE[reduce]}."
        )
        code, ret, key = loop_body("xs", pred, mapping, reduce), "int", f"{pred.key}|{mapping.key}"
        key += f"|{reduce}"
    elif r.random() < 0.5:
        doc = f"Return, in order, {mapping.phrase} for each element x of xs that is {pred.phrase}."
        code, ret, key = (
            loop_body("xs", pred, mapping, None),
            "list[int]",
            f"{pred.key}|{mapping.key}",
        )
    else:
        reduce = r.choice(["max", "min", "sumsq"])
        what = {"max": "the largest", "min": "the smallest", "sumsq": "the sum of the squares"}
        doc = (
            f"Return {what[reduce]} of the elements of xs that are {pred.phrase} "
            "(0 if there are none)."
        )
        code, ret, key = loop_body("xs", pred, None, reduce), "int", f"{pred.key}|{reduce}"
    return Draft("pipeline", level, "fold_values", XS, ret, doc, code, key, (int_lists(),))
