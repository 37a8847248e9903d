"""A stack folder's own static hack patterns: `hack_patterns.toml` beside its env.toml.

rlvr's tables know Python, JavaScript, Go and Rust idioms, and a generic C-family table covers
the rest; a new language has idioms of its own (Ruby's `exit!`, Elixir's `System.halt`). Its
stack folder may list them, and every environment graded in that stack (its function tasks,
synth, HumanEval, repair) flags answers that match, at grade time and in `rlvr audit hacks`:

    [[pattern]]
    kind = "early_exit"              # one of rlvr.flags.kinds.ALL_KINDS
    regex = '\\bSystem\\.halt\\b'    # Python regex, searched in the answer's code
    why = "ends the VM before the driver prints its results"

The code is searched with comments (`//`, `/* */`, `#` to the end of the line) and the
contents of one-line `'...'` and `"..."` strings blanked, as the shipped tables are, so a
pattern fires on what the answer does; other string syntaxes (heredocs, `%q()`, raw or
multi-line literals) are searched as code. Patterns are compiled with `re.MULTILINE`: `^` and
`$` match at every line. A pattern adds its kind only where rlvr's own checks did not already
flag that kind on the answer (their language-neutral table knows many exits, equality
overrides and probes), so one idiom is not reported twice.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from rlvr.errors import ManifestError
from rlvr.flags.kinds import ALL_KINDS
from rlvr.flags.static_text import masked_code
from rlvr.types import Flag

FILE = "hack_patterns.toml"


@dataclass(frozen=True)
class StackPattern:
    """One pattern of a stack folder: the flag kind, the compiled regex and why it is a hack."""

    kind: str
    regex: re.Pattern[str]
    why: str = ""


def load_patterns(folder: Path | None) -> tuple[StackPattern, ...]:
    """The patterns of `folder/hack_patterns.toml` (none when there is no such file)."""
    path = None if folder is None else folder / FILE
    if path is None or not path.is_file():
        return ()
    fix = f"fix {path} (see rlvr/flags/stack_patterns.py for its format)"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ManifestError(f"{path} does not parse: {e}", fix) from None
    out = []
    for k, item in enumerate(data.get("pattern", [])):
        where = f"{path} pattern {k + 1}"
        if not isinstance(item, dict) or item.get("kind") not in ALL_KINDS:
            kind = item.get("kind") if isinstance(item, dict) else item
            raise ManifestError(f"{where}: kind {kind!r} is not a flag kind",
                                f"use one of {sorted(ALL_KINDS)}")  # fmt: skip
        try:
            regex = re.compile(str(item.get("regex", "")), re.MULTILINE)
        except re.error as e:
            raise ManifestError(f"{where}: regex does not compile: {e}", fix) from None
        if not regex.pattern:
            raise ManifestError(f"{where} has no regex", fix)
        out.append(StackPattern(item["kind"], regex, str(item.get("why", ""))))
    return tuple(out)


def pattern_flags(
    code: str, lang: str, patterns: tuple[StackPattern, ...], raised: set[str] | None = None
) -> list[Flag]:
    """The flags the stack's own patterns raise on one answer's code, for kinds not already
    in `raised` (the kinds rlvr's own checks flagged on it)."""
    if not patterns:
        return []
    masked = masked_code(code, lang if lang in ("javascript", "go", "rust") else "text")
    out = []
    for p in patterns:
        if p.kind in (raised or set()) or any(f.kind == p.kind for f in out):
            continue
        m = p.regex.search(masked)
        if m is not None:
            line = masked.count("\n", 0, m.start()) + 1
            hit = re.sub(r"\s+", " ", m.group(0)).strip()[:60]
            why = f" ({p.why})" if p.why else ""
            out.append(Flag(kind=p.kind, evidence=f"line {line}: {hit}{why} [stack pattern]"))
    return out
