"""Bench the `hardcoded` flag on function tasks in every stack: hard-coded peers and references.

For the test split of `synth-<stack>` and `humaneval-<stack>` (`humaneval` for python), every
task that shows public cases gets the hard-coded answers of bench/hardcode_forms.py (if-chains,
early returns before a wrong rule, tables keyed by the input, a join or a hash of it, switch /
match, ternary chains); the honest answers are every reference of every stack. Each answer goes
through the grade-time static flags (`rlvr.flags.hacks.flag_answer`, what
`Environment.grade` attaches) with the task's reference hidden from the audit, so a reference is
judged as any other honest answer would be. The answers are never run.

Run: python bench/hardcode_peers.py [--misses N] [--mutants N]
Prints per stack: hard-coded answers caught, references falsely flagged `hardcoded` (and flagged
with any kind), with --mutants N the share of up to N mutants per reference (honest wrong
answers) flagged `hardcoded`, then the catch rate per form; the last line is the summary as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.table import Table

from rlvr.audit.source.mutate import python_mutants
from rlvr.audit.source.mutate_text import text_mutants
from rlvr.flags.hacks import flag_answer
from rlvr.flags.hardcode_cases import shown_cases
from rlvr.functions.task import FunctionTask
from rlvr.registry import load_env
from rlvr.types import Task

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hardcode_forms import hardcoded_answers

console = Console(width=160, stderr=True)
STACKS = ("python", "javascript", "go", "rust")


def envs_of(stack: str) -> list[str]:
    return [f"synth-{stack}", "humaneval" if stack == "python" else f"humaneval-{stack}"]


def fenced(code: str, stack: str) -> str:
    return f"```{stack}\n{code}```"


def blind(task: Task) -> Task:
    """The task with its reference hidden from the audit (the flags may not lean on it)."""
    return task.model_copy(update={"reference": None})


def mutants_of(task: Task, stack: str, limit: int) -> list[str]:
    """Up to `limit` mutants of the task's reference: honest wrong answers."""
    ref = task.reference or ""
    if stack == "python":
        first = len(task.prompt.splitlines()) + 1 if ref.startswith(task.prompt) else 1
        return [m.source for m in python_mutants(ref, first, limit=limit)]
    return [m.source for m in text_mutants(ref, stack, limit=limit)]  # type: ignore[arg-type]


def _distinct(value: object, out: set[str]) -> set[str]:
    """The values in `value` an honest answer would not write by chance (strings of two or
    more characters, numbers past one digit), as a set."""
    if isinstance(value, str) and len(value) >= 2:
        out.add(repr(value))
    elif isinstance(value, int | float) and not isinstance(value, bool):
        if abs(value) >= 10 or value % 1 != 0:
            out.add(repr(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            _distinct(k, out)
            _distinct(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _distinct(v, out)
    return out


def one_hidden(fn: dict) -> list[tuple[list, object]] | None:
    """The first hidden case the prompt does not show with two distinctive values (an empty
    string -> empty string is every honest answer's base case, not a memorised test): what a
    model that memorised the benchmark's tests special-cases. None when there is none."""
    shown = [repr(c) for c in shown_cases(fn)]
    for c in fn.get("hidden_cases") or []:
        case = (list(c.get("args") or []), c.get("expected"))
        if not c.get("raises") and repr(case) not in shown and len(_distinct(case, set())) >= 2:
            return [case]
    return None


def bench_stack(
    stack: str, misses: int, n_mutants: int = 0, hidden: bool = False
) -> dict[str, object]:
    caught: Counter[str] = Counter()
    total: Counter[str] = Counter()
    refs = refs_hardcoded = refs_any = muts = muts_hardcoded = 0
    shown = 0
    for name in envs_of(stack):
        for task in load_env(name).tasks_in("test"):
            fn = (task.meta or {}).get("function")
            if not fn:
                continue
            entry = task.entry_point if name == "humaneval" else None
            cases = one_hidden(fn) if hidden else None
            if hidden and cases is None:
                continue
            for form, code in hardcoded_answers(
                FunctionTask.model_validate(fn), stack, entry, cases
            ):
                total[form] += 1
                hit = any(
                    f.kind == "hardcoded" for f in flag_answer(task, fenced(code, stack), stack)
                )
                caught[form] += hit
                if not hit and shown < misses:
                    shown += 1
                    console.print(
                        f"[{stack}] missed {task.id} {form}:\n{code}", highlight=False, markup=False
                    )
            for code in mutants_of(task, stack, n_mutants) if n_mutants else []:
                muts += 1
                flags = flag_answer(blind(task), fenced(code, stack), stack)
                muts_hardcoded += any(f.kind == "hardcoded" for f in flags)
            if task.reference:
                flags = flag_answer(blind(task), fenced(task.reference, stack), stack)
                refs += 1
                refs_any += bool(flags)
                if any(f.kind == "hardcoded" for f in flags):
                    refs_hardcoded += 1
                    console.print(
                        f"[{stack}] reference flagged {task.id}: {flags}",
                        highlight=False,
                        markup=False,
                    )
    return {
        "hardcoded": sum(total.values()),
        "caught": sum(caught.values()),
        "references": refs,
        "references_flagged_hardcoded": refs_hardcoded,
        "references_flagged_any": refs_any,
        "mutants": muts,
        "mutants_flagged_hardcoded": muts_hardcoded,
        "per_form": {f: [caught[f], total[f]] for f in sorted(total)},
    }


def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({a / b:.1%})" if b else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--misses", type=int, default=0, help="print this many missed answers")
    ap.add_argument("--stacks", nargs="*", default=list(STACKS))
    ap.add_argument(
        "--mutants", type=int, default=0, help="also audit this many mutants per reference"
    )
    ap.add_argument(
        "--hidden", action="store_true",
        help="hard-code one hidden case per task (a memorised test) instead of the shown ones",
    )  # fmt: skip
    args = ap.parse_args()
    start = time.monotonic()
    results = {s: bench_stack(s, args.misses, args.mutants, args.hidden) for s in args.stacks}
    what = "one hidden case" if args.hidden else "the shown cases"
    title = f"hardcoded flag on function tasks (test split, synth + humaneval), {what} hard-coded"
    table = Table(
        "stack", "hard-coded caught", "references flagged hardcoded",
        "references flagged (any kind)", "mutants flagged hardcoded", title=title,
    )  # fmt: skip
    for s, r in results.items():
        table.add_row(
            s,
            pct(r["caught"], r["hardcoded"]),  # type: ignore[arg-type]
            pct(r["references_flagged_hardcoded"], r["references"]),  # type: ignore[arg-type]
            pct(r["references_flagged_any"], r["references"]),  # type: ignore[arg-type]
            pct(r["mutants_flagged_hardcoded"], r["mutants"]),  # type: ignore[arg-type]
        )
    console.print(table)
    forms = sorted({f for r in results.values() for f in r["per_form"]})  # type: ignore[attr-defined]
    per_form = Table("form", *results, title="caught per form")
    for f in forms:
        per_form.add_row(f, *(pct(*r["per_form"].get(f, [0, 0])) for r in results.values()))  # type: ignore[attr-defined]
    console.print(per_form)
    print(json.dumps({**results, "duration_s": round(time.monotonic() - start, 1)}))


if __name__ == "__main__":
    main()
