"""The math grader: is a completion's final answer equivalent to the gold answer?

Accepts: the same value in another form (`\\frac{1}{2}`, `0.5`, `1/2`; `3\\sqrt{2}`, `\\sqrt{18}`),
`x = 2` or `AB = 2` for `2`, chains (`\\sqrt{4} = 2`), sets in any order, boxes that together form
the gold's set, inequalities against intervals, matrices, multiple-choice letters, units, `$`,
`^\\circ`, thousands separators, a decimal within 1e-9 relative of the gold or rounding it to
at least `decimal_digits` digits, golds written as worked solutions. Rejects, with a reason:
several different final answers (two boxes, `2 or 3`, `\\pm 2` for 2, every option), a decimal
that only approximates an exact gold (`0.333` for 1/3), near misses that agree to many places
(`1/2^{98}` for `1/2^{99}`), `28` for `0.28` and `0.28` for `28\\%` (a bare answer to a
percentage is read in percent), chains with a false link (`x = 2 = 3` for 3), negated
statements, and expression bombs (`9^{9^{9^9}}`, `(10^8)!`), measured before anything is
evaluated. The options where graders legitimately differ are `MathOptions` fields;
graders/math/README.md lists every rule.

Bounded from outside: plain numbers are compared in the calling thread (they cannot hang);
everything else goes, one batch per group, to a pool of killable worker processes with a
per-answer deadline (`timeout_s`). An answer past its deadline is checked once more with twice
the deadline (a busy machine is not the answer's fault); past that too it scores 0 with cause
`timeout`, so a costly expression cannot trade its zero for a masked verdict (`answer_timeouts`
"mask" keeps the masked `timeout` instead). The worker is replaced. A gold that cannot be read in
time, or at all, makes every verdict of the group masked (`timeout`, `grader_error`).

    >>> check("\\\\frac{1}{2}", "so the answer is $\\\\boxed{0.5}$").passed
    True
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from rlvr.errors import ManifestError
from rlvr.graders.base import register_grader
from rlvr.graders.bounded import Named, PoolError, shared_pool
from rlvr.graders.math.choice import choice_letter, grade_choice, multi_choice
from rlvr.graders.math.exact import compare_rationals, plain_number, reduced_number
from rlvr.graders.math.extract import Extraction, extract_answers, gold_answer
from rlvr.graders.math.fast import Plain, compare_plain, read_plain
from rlvr.graders.math.normalize import has_percent, normalize, unit_of
from rlvr.graders.math.notation import base_digits
from rlvr.graders.math.options import MathOptions
from rlvr.graders.math.statements import strip_wrapping
from rlvr.graders.math.units import unit_conflict
from rlvr.graders.math.verdicts import broke_checker, worker_verdict
from rlvr.graders.math.verdicts import clip as _clip
from rlvr.graders.math.verdicts import gold_problem as _gold_problem
from rlvr.types import Task, Verdict

MAX_CANDIDATES = 8
_WORKER_MODULES = ("rlvr.graders.math.worker",)
# `worker.check_candidates(common, item)`, by name so the grading thread never loads sympy.
_REMOTE = Named("rlvr.graders.math.worker:check_candidates")
_IDENTICAL = "identical to the gold"
_BROKEN = ("crashed", "error")  # a job's worker died or the job never reached it
_SHORT_CHARS = 40


Forms = tuple[str, ...]  # the normalised readings of one candidate; any one may match


@dataclass(slots=True)
class _Prepared:
    """One completion after extraction and normalisation, before any comparison."""

    extraction: Extraction
    forms: tuple[Forms, ...] = ()
    joined: Forms | None = None
    early: Verdict | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> tuple[tuple[Forms, ...], Forms | None]:
        return self.forms, self.joined


@dataclass(frozen=True, slots=True)
class _Gold:
    """The gold, read once per group."""

    norm: str
    percent: bool
    plain: tuple | None
    letter: str | None
    tree: Plain | None = None
    unit: str | None = None


@register_grader("math")
class MathGrader:
    """Grades math answers by extraction, normalisation and equivalence; see the module doc."""

    name = "math"

    def __init__(self, **options: Any) -> None:
        try:
            self.options = MathOptions(**options)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'options'}: {e['msg']}"
                for e in exc.errors()
            )
            raise ManifestError(
                f"math grader options are invalid ({problems}); given {options!r}",
                f"use only {sorted(MathOptions.model_fields)} with the documented types",
            ) from None

    def extract(self, completion: str) -> str | None:
        """The final answer of a completion (the last one when it offers several)."""
        return extract_answers(completion, self.options.fallback_last_number).answer

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        """One verdict per completion; the gold is read once for the whole group."""
        try:
            return self._grade(task.gold, list(answers), bare=False)
        except Exception as exc:  # a grader bug must never become a reward
            if len(answers) > 1:  # nor mask the group: only the answers that fail alone
                return [self.grade_group(task, [a])[0] for a in answers]
            return [self._failed(task.gold, exc)]

    def _failed(self, gold: Any, exc: Exception) -> Verdict:
        """One answer broke the grader: masked when the gold is at fault (the gold, graded as
        its own answer, breaks it too), else a 0 with a flag (a mask would let the answer dodge
        the 0 of a wrong one)."""
        error = f"{type(exc).__name__}: {exc}"
        try:
            self._grade(gold, [str(gold)], bare=True)
        except Exception:
            return Verdict.error("grader_error", f"the math grader failed: {error}")
        return broke_checker(error, {})

    def _read_gold(self, gold: Any) -> _Gold:
        opts = self.options
        text = gold_answer(str(gold))
        norm = normalize(text, opts.percent == "fraction", opts.strip_units)
        letter = choice_letter(norm) if opts.multiple_choice else None
        multi = multi_choice(norm) if opts.multiple_choice and not letter else None
        norm = multi or norm  # a multi-select gold `ACD` is compared as sorted letters
        plain = plain_number(norm)
        tree = None if plain is not None or letter else read_plain(norm, opts.limits)
        return _Gold(norm, has_percent(text), plain, letter, tree, unit_of(text))

    def _grade(self, gold: Any, answers: list[str], bare: bool) -> list[Verdict]:
        start = time.perf_counter()
        if gold is None or not str(gold).strip():
            reason, details = "the task has no gold answer", {"gold_unreadable": True}
            return [Verdict.error("grader_error", reason, details=details) for _ in answers]
        g = self._read_gold(gold)
        if g.letter is not None:
            fallback = self.options.fallback_last_number
            return [grade_choice(g.letter, a, fallback, g.norm) for a in answers]
        prepared = [self._prepare(a, bare, g) for a in answers]
        for p in prepared:
            p.details["gold_normalized"] = _clip(g.norm)
        verdicts: list[Verdict | None] = [p.early for p in prepared]
        remote: list[int] = []
        for i, p in enumerate(prepared):
            if verdicts[i] is not None:
                continue
            fast = self._fast(g, p)
            if fast is not None:
                verdicts[i] = fast
            else:
                remote.append(i)
        settled = all(v is not None and v.reason == _IDENTICAL for v in verdicts)
        unread = g.plain is None and g.tree is None
        if remote or (unread and not settled):
            self._run_remote(g.norm, unread, prepared, remote, verdicts)
        elapsed = time.perf_counter() - start
        return [
            v if v.duration_s is not None else v.model_copy(update={"duration_s": elapsed})
            for v in verdicts
            if v is not None
        ]

    def _unit_conflict(self, ext: Extraction, gold: _Gold) -> str | None:
        if not self.options.strip_units or gold.unit is None:
            return None
        found = (unit_conflict(gold.unit, unit_of(c)) for c in ext.candidates)
        return next((c for c in found if c), None)

    def _forms(self, candidate: str, gold: _Gold) -> Forms:
        opts = self.options
        norm = normalize(candidate, opts.percent == "fraction", opts.strip_units)
        if opts.multiple_choice and multi_choice(gold.norm) == gold.norm:
            norm = multi_choice(norm) or norm
        if norm == base_digits(gold.norm):
            norm = gold.norm  # `1011` for `1011_2`: the digits in the asked base
        if opts.percent != "either" or has_percent(candidate) == gold.percent:
            return (norm,)
        if has_percent(candidate):
            return (norm, f"\\frac{{{norm}}}{{100}}")
        return (norm,)  # a bare answer to a percentage is read in percent: 0.1 is not 10%

    def _prepare(self, completion: str, bare: bool, gold: _Gold) -> _Prepared:
        opts = self.options
        ext = extract_answers(completion, opts.fallback_last_number)
        if (
            ext.source == "none"
            and not ext.negated
            and _is_bare(completion, 200 if bare else _SHORT_CHARS)
        ):
            ext = Extraction((strip_wrapping(completion),), "lone")  # `**Monday**`
        p = _Prepared(ext)
        p.details = {"extracted": _clip(ext.answer) if ext.answer else None, "source": ext.source}
        if len(ext.candidates) > 1:
            p.details["candidates"] = [_clip(c) for c in ext.candidates]
        early = _early_reject(ext, opts) or self._unit_conflict(ext, gold)
        if early is not None:
            p.early = Verdict.reject(early, details=p.details, duration_s=0.0)
            return p
        p.forms = tuple(dict.fromkeys(self._forms(c, gold) for c in ext.candidates))
        p.joined = self._forms(ext.joined, gold) if ext.joined else None
        p.details["answer_normalized"] = [_clip(f[0]) for f in p.forms]
        if opts.numbers_only and not all(reduced_number(f[0]) for f in p.forms):
            reason = (
                "not a plain number: this task asks for the value, not an expression equal to it"
            )
            p.early = Verdict.reject(reason, details=p.details, duration_s=0.0)
        return p

    def _fast(self, gold: _Gold, p: _Prepared) -> Verdict | None:
        """Compare exact numbers in this thread; None when any candidate needs the worker."""
        start = time.perf_counter()
        if all(f == (gold.norm,) for f in p.forms):
            passed, reason = True, _IDENTICAL
        else:
            per_candidate = [self._match_forms(gold, forms) for forms in p.forms]
            if any(r is None for r in per_candidate):
                return None
            results = [r for r in per_candidate if r is not None]
            passed = all(ok for ok, _ in results)
            reason = results[0][1] if len(results) == 1 else _several(p, results, passed)
        details = {**p.details, "path": "fast"}
        return Verdict.score(
            1.0 if passed else 0.0,
            reason,
            passed=passed,
            details=details,
            duration_s=time.perf_counter() - start,
        )

    def _match_forms(self, gold: _Gold, forms: Forms) -> tuple[bool, str] | None:
        first: tuple[bool, str] | None = None
        for form in forms:
            out = self._match_one(gold, form)
            if out is None:
                return None
            if out[0]:
                return out
            first = first or out
        return first

    def _match_one(self, gold: _Gold, form: str) -> tuple[bool, str] | None:
        digits = self.options.decimal_digits
        if gold.plain is not None:
            value = plain_number(form)
            if value is not None:
                sides = ("g" if gold.plain[1] else "") + ("a" if value[1] else "")
                return compare_rationals(gold.plain[0], value[0], bool(sides), digits, sides)
            gold_tree: Plain = ("num", gold.plain[0], gold.plain[1])
        elif gold.tree is not None:
            gold_tree = gold.tree
        else:
            return None
        ans = read_plain(form, self.options.limits)
        return None if ans is None else compare_plain(gold_tree, ans, digits)

    def _run_remote(
        self,
        gold_norm: str,
        check_gold: bool,
        prepared: list[_Prepared],
        remote: list[int],
        verdicts: list[Verdict | None],
    ) -> None:
        opts = self.options
        keys = list(dict.fromkeys(prepared[i].key for i in remote))
        items: list[Any] = ([None] if check_gold else []) + list(keys)
        try:
            pool = shared_pool(_WORKER_MODULES, opts.workers, opts.memory_mb)
            common = (gold_norm, opts.limits, opts.rules)
            results = pool.run_batch(_REMOTE, common, items, timeout_s=opts.timeout_s)
            if check_gold and results[0].status in _BROKEN:  # a worker an earlier group broke
                results = pool.run_batch(_REMOTE, common, items, timeout_s=opts.timeout_s)
        except PoolError as exc:
            for i in range(len(verdicts)):
                if verdicts[i] is None or check_gold:
                    verdicts[i] = Verdict.error(
                        "infra_error", str(exc), details=prepared[i].details
                    )
            return
        if check_gold:
            gold_problem = _gold_problem(results[0], opts.timeout_s)
            if gold_problem is not None:
                for i, p in enumerate(prepared):
                    if verdicts[i] is None or verdicts[i].reason != _IDENTICAL:  # type: ignore[union-attr]
                        details = {**p.details, "gold_unreadable": True}
                        verdicts[i] = gold_problem.model_copy(update={"details": details})
                return
            results = results[1:]
        by_key = dict(zip(keys, results, strict=True))
        self._second_try(pool, common, by_key)
        reject = opts.answer_timeouts == "reject"
        for i in remote:
            p = prepared[i]
            verdicts[i] = worker_verdict(by_key[p.key], p.details, opts.timeout_s, reject)

    def _second_try(self, pool: Any, common: Any, by_key: dict[Any, Any]) -> None:
        """Once more on a fresh worker: a crash may be an earlier answer's doing, and a
        timeout a busy machine's (with twice the deadline)."""
        opts = self.options
        retry = [k for k, r in by_key.items() if r.status in _BROKEN]
        if opts.answer_timeouts == "reject":
            retry += [k for k, r in by_key.items() if r.status == "timeout"]
        if retry:
            try:
                again = pool.run_batch(_REMOTE, common, retry, timeout_s=2 * opts.timeout_s)
                by_key.update(zip(retry, again, strict=True))
            except PoolError:
                pass  # the first results stand


def _is_bare(text: str, limit: int) -> bool:
    """A completion that is one short line and nothing else (`odd`, `f'`) is its own answer."""
    return "\n" not in text.strip() and 0 < len(text.strip()) <= limit


def _early_reject(ext: Extraction, opts: MathOptions) -> str | None:
    if ext.negated:
        return "the sentence holding the last number negates it or gives up; no answer stated"
    if not ext.candidates:
        looked = "\\boxed{}, '#### x', 'Answer: x'"
        looked += ", a last number" if opts.fallback_last_number else ""
        return f"no final answer found (looked for {looked})"
    if ext.hedged:
        return "the final answer is hedged (or, ±, maybe, at least, close to); give one answer"
    if len(ext.candidates) > MAX_CANDIDATES:
        return f"the completion gives {len(ext.candidates)} different final answers; give one"
    longest = max(len(c) for c in ext.candidates)
    if longest > opts.max_answer_chars:
        return f"the final answer is {longest} characters long (limit {opts.max_answer_chars})"
    return None


def _several(p: _Prepared, results: list[tuple[bool, str]], passed: bool) -> str:
    if passed:
        return f"all {len(results)} final answers are equivalent to the gold"
    shown = ", ".join(f"'{f[0]}'" for f in p.forms[:5])
    wrong = next(r for ok, r in results if not ok)
    return (
        f"several different final answers ({len(results)}: {shown}); give exactly one. "
        f"First mismatch: {wrong}"
    )


def check(gold: str, answer: str, **options: Any) -> Verdict:
    """Grade one answer against one gold. `answer` may be a whole completion or a bare answer
    (`x = 2`, `Monday`): a single short line in which no answer is found is taken whole."""
    grader = MathGrader(**options)
    try:
        return grader._grade(gold, [answer], bare=True)[0]
    except Exception as exc:
        return grader._failed(gold, exc)
