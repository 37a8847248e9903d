"""Input domains for generated cases: random draws plus the edge values every stack must handle.

Each parameter of a drawn function gets a domain. A domain yields its edge values (zero,
negatives, the empty list or string) and random draws; `draw_inputs` combines them into argument
tuples, edges first-class, duplicates removed. Values stay small so that no stack overflows an
int64 or a JavaScript number, and strings stay printable ASCII.
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

WORDS = [
    "apple",
    "bird",
    "cat",
    "dog",
    "egg",
    "fox",
    "goat",
    "hat",
    "ice",
    "jam",
    "kite",
    "lamp",
    "moon",
    "nest",
    "owl",
    "pen",
    "queen",
    "rain",
    "sun",
    "tree",
    "umbrella",
    "vine",
    "wolf",
    "yak",
    "zoo",
    "red",
    "blue",
    "green",
    "code",
    "data",
    "map",
    "list",
    "sort",
    "node",
    "tick",
]
LOWER = string.ascii_lowercase


@dataclass(frozen=True)
class Domain:
    """A parameter's values: fixed edge cases and a random draw."""

    edges: tuple[Any, ...]
    draw: Callable[[random.Random], Any]


def ints(lo: int, hi: int, edges: Sequence[int] = (0, 1, -1)) -> Domain:
    """Integers in [lo, hi]; edges outside the range are dropped."""
    kept = tuple(e for e in edges if lo <= e <= hi)
    return Domain((*kept, lo, hi), lambda r: r.randint(lo, hi))


def int_lists(lo: int = -20, hi: int = 20, max_len: int = 8, sort: bool = False) -> Domain:
    """Lists of ints: empty, one zero, one negative, all equal, and random lengths."""
    edges: list[list[int]] = [[], [0], [max(lo, -5)], [hi, hi, hi], [lo, hi]]
    if lo < 0:
        edges.append([-3, -1, -2])

    def draw(r: random.Random) -> list[int]:
        xs = [r.randint(lo, hi) for _ in range(r.randint(1, max_len))]
        return sorted(xs) if sort else xs

    return Domain(tuple(sorted(e) if sort else e for e in edges), draw)


def texts(alphabet: str = LOWER, max_len: int = 10, extra: Sequence[str] = ()) -> Domain:
    """ASCII strings over an alphabet: empty, one character, and random draws."""

    def draw(r: random.Random) -> str:
        return "".join(r.choice(alphabet) for _ in range(r.randint(1, max_len)))

    return Domain(("", alphabet[0], *extra), draw)


def sentences(
    max_words: int = 5, extra: Sequence[str] = (), vocab: Sequence[str] = WORDS
) -> Domain:
    """Words from a small vocabulary separated by single spaces."""

    def draw(r: random.Random) -> str:
        return " ".join(r.choice(vocab) for _ in range(r.randint(1, max_words)))

    return Domain(("", "a", *extra), draw)


def word_lists(max_len: int = 6) -> Domain:
    """Lists of vocabulary words, possibly repeated."""

    def draw(r: random.Random) -> list[str]:
        return [r.choice(WORDS) for _ in range(r.randint(1, max_len))]

    return Domain(([], [""], ["a", "a"]), draw)


def str_int_dicts(lo: int = -9, hi: int = 20, max_len: int = 5) -> Domain:
    """Dicts from short words to ints: empty, one entry, random."""

    def draw(r: random.Random) -> dict[str, int]:
        keys = r.sample(WORDS, r.randint(1, max_len))
        return {k: r.randint(lo, hi) for k in keys}

    return Domain(({}, {"a": 0}, {"x": hi, "y": hi}), draw)


def choice(values: Sequence[Any]) -> Domain:
    """One of a few values, all of them edges."""
    return Domain(tuple(values), lambda r: r.choice(list(values)))


def draw_inputs(
    r: random.Random, domains: Sequence[Domain], n_random: int = 7, n_max: int = 14
) -> list[tuple[Any, ...]]:
    """Argument tuples: three random rows (the public cases), every edge, then more random rows.

    Each edge of each parameter is paired with random values for the other parameters.
    """
    randoms = [tuple(d.draw(r) for d in domains) for _ in range(n_random)]
    edges: list[tuple[Any, ...]] = []
    for i, dom in enumerate(domains):
        for edge in dom.edges:
            row = [d.draw(r) for d in domains]
            row[i] = edge
            edges.append(tuple(row))
    seen: set[str] = set()
    unique = []
    for row in [*randoms[:3], *edges, *randoms[3:]]:
        tag = json.dumps(row, sort_keys=True)
        if tag not in seen:
            seen.add(tag)
            unique.append(row)
    return unique[:n_max]
