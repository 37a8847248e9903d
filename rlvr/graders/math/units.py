"""Units after a number: which words are units, and which unit an answer states.

Units are dropped, never converted (graders/math/README.md, "Units and money"), but a known
unit on both sides must be the same one: `5 km` is not the gold `5 cm`, `32 cents` is not `\\$32`.
Words that change the value or the meaning (`million`, `dozen`, `squared`, `is incorrect`) are
never units, so `5 \\text{ million}` is not 5.
"""

from __future__ import annotations

import re

_ALIASES = {
    "mm": "millimeter millimeters millimetre millimetres",
    "cm": "centimeter centimeters centimetre centimetres",
    "m": "meter meters metre metres",
    "km": "kilometer kilometers kilometre kilometres",
    "in": "inch inches",
    "ft": "foot feet",
    "yd": "yard yards",
    "mi": "mile miles",
    "s": "sec secs second seconds",
    "min": "mins minute minutes",
    "h": "hr hrs hour hours",
    "day": "days",
    "week": "weeks",
    "month": "months",
    "year": "years yr yrs",
    "mg": "milligram milligrams",
    "g": "gram grams",
    "kg": "kilogram kilograms kilo kilos",
    "lb": "lbs pound pounds",
    "oz": "ounce ounces",
    "ml": "milliliter milliliters millilitre millilitres",
    "l": "liter liters litre litres",
    "gal": "gallon gallons",
    "mph": "",
    "km/h": "kph km/hr",
    "m/s": "",
    "ft/s": "",
    "dollar": "dollars usd",
    "cent": "cents",
    "degree": "degrees deg",
    "radian": "radians rad",
    "am": "a.m",
    "pm": "p.m",
}
UNITS: dict[str, str] = {}
for _canon, _names in _ALIASES.items():
    UNITS[_canon] = _canon
    UNITS.update(dict.fromkeys(_names.split(), _canon))

# Single letters are units only inside `\text{}` / `\mathrm{}` right after a number.
SINGLE_LETTER_UNITS = frozenset("m s g h l L N J W V".split())  # noqa: SIM905

_STOP = """is are was were be not no the a an than less more answer answers incorrect correct
    wrong right true false ten tens hundred hundreds thousand thousands million millions
    billion billions trillion trillions dozen dozens score half quarter squared cubed times power
    possibly maybe or and either only about approximately roughly least most"""
STOP_WORDS = frozenset(_STOP.split())
_POWER_RE = re.compile(r"\^\{?([23])\}?$")
_RAW_DEGREE_RE = re.compile(r"\^\s*\{?\s*\\circ|°|\\degree(?![a-zA-Z])|\bdeg(?:ree)?s?\b")
_RAW_DOLLAR_RE = re.compile(r"\\\$\s*\d")


def _one(word: str) -> str | None:
    power = _POWER_RE.search(word)
    base = word[: power.start()] if power else word
    canon = UNITS.get(base.rstrip(".")) or UNITS.get(base.rstrip(".").lower())
    if canon is None:
        return None
    return f"{canon}^{power.group(1)}" if power else canon


def canonical_unit(words: list[str]) -> str | None:
    """`["square", "feet"]` -> `ft^2`, `["km"]` -> `km`; None for words that are not units."""
    power = ""
    if len(words) == 2 and words[0].lower() in ("square", "sq", "cubic"):
        power, words = ("^3" if words[0].lower() == "cubic" else "^2"), words[1:]
    if len(words) != 1:
        return None
    canon = _one(words[0])
    return None if canon is None else canon + power


def raw_unit(raw: str) -> str | None:
    """Units the normalised text no longer shows: degrees (`30^\\circ`) and `\\$32`."""
    if _RAW_DEGREE_RE.search(raw):
        return "degree"
    if _RAW_DOLLAR_RE.search(raw):
        return "dollar"
    return None


def unit_conflict(gold_unit: str | None, answer_unit: str | None) -> str | None:
    """Why the answer's unit contradicts the gold's, or None (either side may state none)."""
    if gold_unit is None or answer_unit is None or gold_unit == answer_unit:
        return None
    return f"the answer is in {answer_unit} where the gold is in {gold_unit}"
