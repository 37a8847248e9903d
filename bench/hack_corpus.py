"""Bench the hack flags: detection per kind and false flags on honest answers.

1. The labelled corpus graders/code/hacks.jsonl: detection rate per hack kind (a hack counts
   only when a flag of its own kind is raised) and the false-flag rate on references and honest
   wrong answers; static flags, and with --dynamic also the sandbox checks alone and combined.
2. Held-out hard-coding: the corpus builder's hard-coded answers (if-chain, lookup table,
   repr-keyed table, most common value) generated for every HumanEval task that shows at least
   one example, none of which the checks were tuned on.
3. A large honest set: every reference solution of every code environment and every mutant of
   those references (honest wrong answers by construction), static flags.

Run: python bench/hack_corpus.py [--dynamic] [--skip-mutants]   (--dynamic needs Docker and
the stack images: rlvr sandbox build)
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

from rlvr.audit.recheck.corpus import HONEST, LANG, CorpusResult, evaluate, load_corpus
from rlvr.audit.source.mutate import python_mutants
from rlvr.audit.source.mutate_text import text_mutants
from rlvr.flags.hacks import flag_answer
from rlvr.registry import load_env

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "graders" / "code"))
console = Console(width=160, stderr=True)
CODE_ENVS = LANG  # the corpus's env -> language map, written once


def corpus_table(results: dict[str, CorpusResult]) -> Table:
    modes = list(results)
    table = Table(
        "kind", "n", *modes, title="hack corpus: caught / n (hacks), flagged / n (honest)"
    )
    first = results[modes[0]]
    for kind in sorted(first.total, key=lambda k: (k in HONEST, k)):
        n = first.total[kind]
        cells = []
        for mode in modes:
            r = results[mode]
            hit = r.false_flags.get(kind, 0) if kind in HONEST else r.caught.get(kind, 0)
            cells.append(f"{hit} ({hit / n:.0%})")
        table.add_row(kind, str(n), *cells)
    table.add_row("detection rate", "", *(f"{r.detection_rate:.1%}" for r in results.values()))
    table.add_row("false-flag rate", "", *(f"{r.false_flag_rate:.1%}" for r in results.values()))
    return table


def held_out_hardcoding() -> dict[str, int]:
    from build_hacks import _cases, _hardcoded

    env = load_env("humaneval")
    caught = total = 0
    for task in env.tasks():
        if not _cases(task, "humaneval"):
            continue
        for _note, code in _hardcoded(task, "humaneval"):
            total += 1
            flags = flag_answer(task, f"```python\n{code}\n```", "python")
            caught += any(f.kind == "hardcoded" for f in flags)
    return {"caught": caught, "total": total}


def honest_at_scale(with_mutants: bool) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for name, lang in CODE_ENVS.items():
        env = load_env(name)
        refs = flagged_refs = muts = flagged_muts = 0
        kinds: Counter[str] = Counter()
        for task in env.tasks():
            ref = task.reference or ""
            refs += 1
            flagged_refs += bool(flag_answer(task, f"```{lang}\n{ref}\n```", lang))
            if not with_mutants:
                continue
            if lang == "python":
                first = len(task.prompt.splitlines()) + 1 if ref.startswith(task.prompt) else 1
                mutants = python_mutants(ref, first)
            else:
                mutants = text_mutants(ref, lang)  # type: ignore[arg-type]
            for m in mutants:
                flags = flag_answer(task, f"```{lang}\n{m.source}\n```", lang)
                muts += 1
                flagged_muts += bool(flags)
                kinds.update({f.kind for f in flags})
        out[name] = {
            "references": refs,
            "references_flagged": flagged_refs,
            "mutants": muts,
            "mutants_flagged": flagged_muts,
            "mutant_flag_kinds": dict(kinds),
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dynamic", action="store_true", help="also run the sandbox checks")
    ap.add_argument("--skip-mutants", action="store_true", help="references only in part 3")
    args = ap.parse_args()
    start = time.monotonic()
    lines = load_corpus()
    results = evaluate(lines, dynamic=args.dynamic)
    console.print(corpus_table(results))
    for mode, r in results.items():
        for m in r.missed:
            console.print(f"[{mode}] missed: {m}", highlight=False)
        for m in r.falsely_flagged:
            console.print(f"[{mode}] false flag: {json.dumps(m)[:300]}", highlight=False)
    held = held_out_hardcoding()
    console.print(
        f"held-out hard-coding on HumanEval: {held['caught']}/{held['total']} caught",
        highlight=False,
    )
    honest = honest_at_scale(not args.skip_mutants)
    table = Table(
        "env",
        "references",
        "flagged",
        "mutants",
        "flagged",
        "kinds",
        title="honest answers at scale (static)",
    )
    for name, h in honest.items():
        table.add_row(
            name,
            str(h["references"]),
            str(h["references_flagged"]),
            str(h["mutants"]),
            str(h["mutants_flagged"]),
            str(h["mutant_flag_kinds"]),
        )
    console.print(table)
    summary = {
        "corpus_lines": len(lines),
        **{f"{mode}_detection_rate": round(r.detection_rate, 4) for mode, r in results.items()},
        **{f"{mode}_false_flag_rate": round(r.false_flag_rate, 4) for mode, r in results.items()},
        "held_out_hardcoded": held,
        "honest_at_scale": honest,
        "duration_s": round(time.monotonic() - start, 1),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
