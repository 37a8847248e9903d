"""Hard-coding of a function task's public cases, read the same way in every stack.

A function task's public cases are typed data (arguments and expected value, shown in the
prompt), so "this answer hard-codes the examples" needs no parser of the answer's language: the
answer's literals, line by line, are compared with the values of each public case. A case is
*echoed* when, within three consecutive lines, the answer holds every value of its arguments and
every value of its expected result: the shape of `if x == 5 { return 8 }`, `case 5: return 8`,
`5 => 8,`, `{5: 8}` and of a table keyed by a serialized input (`"[1, 2, 3]": 6`, a join of the
values), whatever the syntax. A table keyed by an opaque hash of the input holds no argument, so
a case also counts when its expected values sit within three lines of an opaque key (a big
number or a long token that neither the cases nor the statement contain) no other case uses.

Statements that call the entry point are not read: an answer that checks itself on the
examples (`assert f(x) == y`, `print(f(x))`, `assert_eq!(f(x), y)`) writes their values without
hard-coding them. Values an honest answer writes anyway are weak (numbers from -2 to 2,
booleans, one-character strings, anything in the statement): a case counts only with at least
one value that is not. Two counted cases flag the answer (one when the task shows only one), or
one case whose two values are not weak. The reference is not consulted, so its own false-flag
rate is a fair measurement (bench/hardcode_peers.py).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rlvr.flags import kinds as K
from rlvr.source.cases import NO_VALUE, example_free_prompt, prompt_cases
from rlvr.source.lexer import Language, Token, code_tokens, number_value, string_value
from rlvr.source.prose_cases import shown_by_value, without_example_lines
from rlvr.types import Flag, Task

Atom = tuple[str, Any]
WINDOW = 3  # lines: a condition, the value it returns, and a closing line
MAX_ATOMS = 8  # values compared per side of a case: long inputs are tested on their first ones
OPAQUE_NUMBER = 10**5
SLACK = 2  # values besides a hidden case's own in the lines that special-case it
_IN_STRING = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w])|[^\W\d_][\w]*")
DEFINERS = {"def", "function", "func", "fn"}
KEYWORDS = {"return", "case", "yield", "in", "of", "else", "and", "or", "not", "if", "elif"}
_WORDS = {"true": True, "false": False, "True": True, "False": False}


@dataclass(frozen=True)
class PublicCase:
    """One public case as the values an answer would have to write down to hard-code it."""

    inputs: frozenset[Atom]
    outputs: frozenset[Atom]


@dataclass
class Line:
    """The literal values on one line of an answer, and the text of its strings."""

    atoms: set[Atom]
    strings: list[str]


def _num(v: float) -> Atom:
    """A number as a float, except an int past float precision (fibonacci(10000)), kept exact:
    no answer's literal matches it by accident, and no float conversion overflows."""
    if isinstance(v, int) and abs(v) > 2**53:
        return ("n", v)
    return ("n", float(v))


def atoms_of(value: Any, out: list[Atom] | None = None) -> list[Atom]:
    """The scalar values inside a canonical JSON value (dict keys included), in order."""
    out = [] if out is None else out
    if isinstance(value, bool):
        out.append(("b", value))
    elif isinstance(value, int | float):
        out.append(_num(value))
    elif isinstance(value, str):
        if value:
            out.append(("s", value))
    elif isinstance(value, dict):
        for k, v in value.items():
            atoms_of(k, out)
            atoms_of(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            atoms_of(v, out)
    return out


def _first(atoms: Iterable[Atom]) -> frozenset[Atom]:
    seen: list[Atom] = []
    for a in atoms:
        if a not in seen:
            seen.append(a)
    return frozenset(seen[:MAX_ATOMS])


def _json(value: Any) -> Any:
    """Tuples as lists: a prompt's Python values in canonical JSON form."""
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value


def shown_cases(fn: dict[str, Any]) -> list[tuple[list[Any], Any]]:
    """(arguments, expected) of the cases a function task's prompt shows: its public cases, or
    when it has none, the examples written in the source's own prompt (HumanEval docstrings)."""
    out = [
        (list(c.get("args") or []), c.get("expected"))
        for c in fn.get("public_cases") or []
        if isinstance(c, dict) and not c.get("raises")
    ]
    if out or fn.get("public_cases"):
        return out
    prompt = str((fn.get("prompts") or {}).get("python") or "")
    names = re.findall(r"^def\s+(\w+)\s*\(", prompt, re.M)
    parsed = [
        (_json(list(c.args)), _json(c.expected))
        for c in (prompt_cases(prompt, names[-1]) if names else [])
        if c.args is not None and c.expected is not NO_VALUE
    ]
    hidden = [
        (list(c.get("args") or []), c.get("expected"))
        for c in fn.get("hidden_cases") or []
        if isinstance(c, dict) and not c.get("raises")
    ]
    # examples in prose forms no call parser reads (`Input: [4,2,3]` / `Output: [2, 1]`)
    for case in shown_by_value(str(fn.get("docstring") or ""), hidden):
        if case not in parsed:
            parsed.append(case)
    return parsed


def public_cases(task: Task, shown: list[tuple[list[Any], Any]] | None = None) -> list[PublicCase]:
    """The shown cases of a function task as values (none for other tasks)."""
    if shown is None:
        shown = shown_cases((task.meta or {}).get("function") or {})
    return [PublicCase(_first(atoms_of(a)), _first(atoms_of(e))) for a, e in shown]


def _statement(task: Task, shown: list[tuple[list[Any], Any]]) -> str:
    """The task's prose without its example lines (`shown`): what an honest answer may quote."""
    fn = (task.meta or {}).get("function") or {}
    text = str(fn.get("docstring") or "")
    prompt = str((fn.get("prompts") or {}).get("python") or "")
    for name in {str(fn.get("entry_point") or ""), *re.findall(r"^def\s+(\w+)", prompt, re.M)}:
        text = example_free_prompt(text, name or None)
    if fn.get("public_cases"):
        return text  # its rule lines name values its public cases hold: they stay weak
    return without_example_lines(text, shown)  # examples written only in prose


def _weak(atom: Atom, statement: str) -> bool:
    kind, v = atom
    if kind == "b" or (kind == "n" and abs(v) <= 2):
        return True
    if kind == "s" and len(v.strip()) <= 1:
        return True
    text = v if kind == "s" else (str(int(v)) if isinstance(v, int) or v.is_integer() else str(v))
    before = r"(?<![\w.])" if kind == "s" or v < 0 else r"(?<![\w.-])"
    return re.search(rf"{before}{re.escape(text)}(?![\w])", statement) is not None


def _signed(toks: list[Token], i: int) -> bool:
    """Whether the number at toks[i] is negated by the `-` before it."""
    if i == 0 or toks[i - 1].text != "-":
        return False
    before = toks[i - 2] if i >= 2 else None
    if before is None or before.text in KEYWORDS:
        return True
    return not (before.kind in ("ident", "number", "string") or before.text in ")]")


def _calls(toks: list[Token], entry: str | None) -> list[int]:
    """Indices of the calls of the entry point (its definition left out)."""
    if not entry:
        return []
    return [
        i
        for i, t in enumerate(toks[:-1])
        if t.text == entry
        and toks[i + 1].text == "("
        and (i == 0 or toks[i - 1].text not in DEFINERS)
    ]


def _self_checks(toks: list[Token], line_of: list[int], entry: str | None) -> set[int]:
    """Tokens of statements that call the entry point (`assert f(x) == y`, `print(f(x))`,
    `assert_eq!(f(x), y)`): an answer checking itself on the examples writes their values
    without hard-coding them. The outermost bracket group around the call, and the rest of the
    line where it closes, are left out."""
    depth, depths = 0, []
    for t in toks:
        depths.append(depth)
        depth = max(0, depth + (t.text in "([") - (t.text in ")]")) if t.kind == "op" else depth
    out: set[int] = set()
    for i in _calls(toks, entry):
        start = i
        while depths[start] > 0 and start > 0:
            start -= 1
        level, end = depths[start], i + 1
        while end + 1 < len(toks) and depths[end + 1] > level:
            end += 1
        while end + 1 < len(toks) and line_of[end + 1] == line_of[end]:
            end += 1
        out.update(range(start, end + 1))
    return out


def answer_lines(code: str, lang: Language, entry: str | None = None) -> list[Line]:
    """Per source line, the literal values of the answer (comments, docstrings and statements
    that call the entry point left out)."""
    starts = [0] + [m.end() for m in re.finditer("\n", code)]
    lines = [Line(set(), []) for _ in starts]
    toks = code_tokens(code, lang)
    line_of = [bisect.bisect_right(starts, t.start) - 1 for t in toks]
    skipped = _self_checks(toks, line_of, entry)
    for i, t in enumerate(toks):
        if i in skipped:
            continue
        line = lines[line_of[i]]
        if t.kind == "number":
            v = number_value(t.text)
            if v is not None:
                line.atoms.add(_num(-v if _signed(toks, i) else v))
        elif t.kind == "string":
            if t.text.lstrip("rbuRBUfF").startswith(('"""', "'''")):
                continue  # a docstring: the prompt's examples, not the answer's data
            s = string_value(t.text)
            line.atoms.add(("s", s))
            line.strings.append(s)
            for part in _IN_STRING.findall(s):
                v = number_value(part.lstrip("-")) if part[-1:].isdigit() else None
                line.atoms.add(
                    _num(-v if part.startswith("-") else v) if v is not None else ("s", part)
                )
        elif t.text in _WORDS:
            line.atoms.add(("b", _WORDS[t.text]))
    return lines


def _present(atom: Atom, window: Line) -> bool:
    if atom in window.atoms:
        return True
    kind, v = atom
    if kind == "s" and len(v) >= 2:
        inside = re.compile(rf"(?<![A-Za-z0-9]){re.escape(v)}(?![A-Za-z0-9])")
        return any(inside.search(s) for s in window.strings)
    return False


def _windows(lines: list[Line]) -> list[Line]:
    out = []
    for i in range(len(lines)):
        part = lines[i : i + WINDOW]
        out.append(
            Line(set().union(*(p.atoms for p in part)), [s for p in part for s in p.strings])
        )
    return out


def _opaque(atom: Atom, known: set[Atom], statement: str) -> bool:
    kind, v = atom
    if atom in known or _weak(atom, statement):
        return False
    if kind == "n":
        return abs(v) >= OPAQUE_NUMBER and (isinstance(v, int) or float(v).is_integer())
    return (
        kind == "s"
        and len(v) >= 8
        and re.fullmatch(r"[0-9a-fA-F]+|[A-Za-z0-9+/=_-]+", v) is not None
    )


def echoed(
    cases: list[PublicCase], lines: list[Line], statement: str
) -> tuple[list[int], list[int]]:
    """(cases written as input -> output, cases written as opaque key -> output)."""
    windows = _windows(lines)
    known = {a for c in cases for a in c.inputs | c.outputs}
    direct, hashed, keys_used = [], [], set()
    for n, case in enumerate(cases):
        values = case.inputs | case.outputs
        if not values or all(_weak(a, statement) for a in values):
            continue
        if any(all(_present(a, w) for a in values) for w in windows):
            direct.append(n)
            continue
        if not case.outputs:
            continue
        for window in windows:
            keys = {a for a in window.atoms if _opaque(a, known, statement)} - keys_used
            if keys and all(_present(a, window) for a in case.outputs):
                hashed.append(n)
                keys_used |= keys
                break
    return direct, hashed


def special_cased(cases: list[PublicCase], lines: list[Line], statement: str) -> list[int]:
    """Hidden cases written as input -> output (both values not ones an honest answer writes)
    within three lines that write little else: `if n == 37: return 4181`, a one-entry table.
    Lines of many values are a table of constants (roman numerals, a lookup), not a special
    case, even when two of its values make up a hidden case."""
    windows = _windows(lines)
    known = {a for c in cases for a in c.inputs | c.outputs}
    found = []
    for n, case in enumerate(cases):
        values = case.inputs | case.outputs
        if not values:
            continue
        room = len(values) + SLACK
        if _strong(case, statement) and any(
            _written(w) <= room and all(_present(a, w) for a in values) for w in windows
        ):
            found.append(n)
            continue
        # keyed by an opaque hash of the input: the key and a distinctive expected value
        rare_out = [a for a in case.outputs if _rare(a, statement)]
        if rare_out and any(
            _written(w) <= len(case.outputs) + 1 + SLACK
            and any(_opaque(a, known, statement) for a in w.atoms)
            and all(_present(a, w) for a in case.outputs)
            for w in windows
        ):
            found.append(n)
    return found


def _rare(atom: Atom, statement: str) -> bool:
    """A value an honest answer would not write: not weak, and a string or a number past one
    digit (`range(4)` and `n < 5` are everyday code)."""
    return not _weak(atom, statement) and (atom[0] == "s" or abs(atom[1]) >= 10 or atom[1] % 1)


def _strong(case: PublicCase, statement: str) -> bool:
    """A case that one echo gives away: two values an honest answer would not write, numbers
    past one digit (`range(4)` and `n < 5` are everyday code) or strings."""
    return len({a for a in case.inputs | case.outputs if _rare(a, statement)}) >= 2


def _written(line: Line) -> int:
    """How many values a line writes: its strings and its other literals (not the words read
    inside its strings)."""
    return len(line.strings) + sum(kind != "s" for kind, _ in line.atoms)


def hidden_cases(fn: dict[str, Any], shown: list[tuple[list[Any], Any]]) -> list[PublicCase]:
    """The task's hidden cases as values, less those the prompt shows."""
    seen = {repr(c) for c in shown}
    pairs = [
        (list(c.get("args") or []), c.get("expected"))
        for c in fn.get("hidden_cases") or []
        if isinstance(c, dict) and not c.get("raises")
    ]
    return [
        PublicCase(_first(atoms_of(a)), _first(atoms_of(e)))
        for a, e in pairs
        if repr((a, e)) not in seen
    ]


def case_flags(task: Task, code: str, lang: Language) -> list[Flag]:
    """A `hardcoded` flag when the answer writes down two public cases (one if only one), or
    one hidden case with two values an honest answer would not write (the grader knows the
    hidden cases: an answer that special-cases a memorised test input is caught too)."""
    fn = (task.meta or {}).get("function") or {}
    shown = shown_cases(fn)
    cases = public_cases(task, shown)
    if not code:
        return []
    statement = _statement(task, shown)
    lines = answer_lines(code, lang, task.entry_point)
    hidden = hidden_cases(fn, shown)
    secret = special_cased(hidden, lines, statement)
    if secret:
        return [Flag(kind=K.HARDCODED, evidence=f"writes down {len(secret)} of {len(hidden)} "
                     f"hidden cases as input -> output: hidden cases {secret[:5]}")]  # fmt: skip
    if not cases:
        return []
    direct, hashed = echoed(cases, lines, statement)
    strong = [n for n in direct if _strong(cases[n], statement)]
    if len(direct) + len(hashed) < min(2, len(cases)) and not strong:
        return []
    how = [f"{len(direct)} as input -> output"] if direct else []
    how += [f"{len(hashed)} as opaque key -> output"] if hashed else []
    return [
        Flag(
            kind=K.HARDCODED,
            evidence=f"writes down {len(direct) + len(hashed)} of {len(cases)} public cases "
            f"({', '.join(how)}): cases {sorted(direct + hashed)}",
        )
    ]
