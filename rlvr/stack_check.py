"""`rlvr stack check NAME`: every check a new stack needs, in one table.

One row per check, in the order a stack's author fixes them: the translator (its contract and
how many tasks it expresses), the image build, each derived environment's references on a
spread of tasks (`--tasks N`, picked by id hash), the spec-gap audit of `synth-NAME` (trivial
answers must fail, mutants are counted), the hack audit (no reference flagged, every stub
scored 0) and a repair replay (the reference run on the public examples then submitted passes;
the stub submitted fails). A row that cannot run because an earlier one failed says so.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rlvr.audit.specgap.audit import GapOptions, audit_env
from rlvr.discovery import discover
from rlvr.episodes.reference_teacher import call, reference_turns
from rlvr.episodes.run import EpisodeRunner
from rlvr.errors import RlvrError
from rlvr.flags.hacks import flag_answer
from rlvr.functions.task import FunctionTask
from rlvr.functions.translator import REQUIRED, load_translator
from rlvr.policies.base import SamplingConfig
from rlvr.policies.replay import ReplayPolicy
from rlvr.references import check_references, choose_tasks, fence
from rlvr.registry import load_env
from rlvr.sandbox.images import build_stack


@dataclass
class Row:
    """One check: its name, whether it held (None: not run), what it found, seconds."""

    check: str
    ok: bool | None
    detail: str
    seconds: float = 0.0


def _timed(check: str, run: Callable[[], tuple[bool, str]]) -> Row:
    start = time.monotonic()
    try:
        ok, detail = run()
    except Exception as e:  # a check that raises is a failed row, with what it said
        ok, detail = False, f"{type(e).__name__}: {str(e)[:300]}"
    return Row(check, ok, detail, round(time.monotonic() - start, 1))


def _image(folder: Path) -> tuple[bool, str]:
    done = build_stack(folder)
    return True, f"{done.image}: {done.reason}"


def _translator(name: str) -> tuple[bool, str]:
    mod = load_translator(name)
    missing = [n for n in REQUIRED if not hasattr(mod, n)]
    if missing:
        return False, f"translator.py lacks {', '.join(missing)}"
    env = load_env(name)
    tasks = env.tasks()
    if not tasks:
        return False, (f"no task expressed: translator.unsupported rejects every one (`rlvr envs "
                       f"show {name}` lists why)")  # fmt: skip
    return True, f"{len(tasks)} tasks expressed"


def _references(name: str, n: int, skip_missing: bool = False) -> tuple[bool, str]:
    """`n` tasks by id hash; with `skip_missing`, `n` of those that have a reference (the rest of
    the environment's tasks without one are only counted)."""
    env = load_env(name)
    if skip_missing:
        everything = env.tasks()
        having = [t for t in choose_tasks(everything, len(everything), "hash") if t.reference]
        rows = check_references(env, tasks=having[:n])
        missing = [t.id for t in everything if not t.reference]
    else:
        rows = check_references(env, n_tasks=n, pick="hash", skip_missing=True)
        missing = [r.task_id for r in rows if r.skipped]
    graded = [r for r in rows if not r.skipped]
    bad = [f"{r.task_id}: {r.reason[:80]}" for r in graded if not r.passed]
    passed = len(graded) - len(bad)
    detail = f"{passed} of {len(graded)} pass"
    if graded:
        detail += f" ({', '.join(r.task_id for r in graded)})"
    if missing:  # reference_from_python rendered none for these (or no reference file is there)
        detail += f"; {len(missing)} without a reference"
        detail += " in the environment (skipped)" if skip_missing else f": {', '.join(missing)}"
    ok = not bad and passed > 0 and (skip_missing or not missing)
    return ok, detail + ("; " + "; ".join(bad[:2]) if bad else "")


def _spec_gap(name: str, n: int) -> tuple[bool, str]:
    env = load_env(f"synth-{name}")
    tasks = [t for t in choose_tasks(env.tasks(), n * 3, "hash") if t.reference][:n]
    if not tasks:
        return False, "no synth task has a reference to audit (reference_from_python renders none)"
    _, summary = audit_env(env, tasks, GapOptions(max_mutants=6))
    detail = (f"{summary.tasks} tasks: {summary.trivial_passed} with a passing trivial answer, "
              f"{summary.reference_failed} failing references, mutation score "
              f"{summary.mutation_score}")  # fmt: skip
    return summary.trivial_passed == 0 and summary.reference_failed == 0, detail


def _hacks(name: str, n: int) -> tuple[bool, str]:
    env = load_env(name)
    tasks = [t for t in choose_tasks(env.tasks(), n, "hash") if t.reference]
    mod = load_translator(name)
    lang = env.audit.language if env.audit else "text"
    patterns = env.audit.patterns if env.audit else ()
    tag = mod.LANGUAGES[0]
    flagged = [t.id for t in tasks if flag_answer(t, fence(t.reference or "", tag), lang, patterns)]
    stubs = [fence(mod.stub(FunctionTask.model_validate(t.meta["function"])), mod.LANGUAGES[0])
             for t in tasks]  # fmt: skip
    scored = [env.grade(t, [s])[0] for t, s in zip(tasks, stubs, strict=True)]
    passing = [t.id for t, v in zip(tasks, scored, strict=True) if v.reward]
    detail = (f"{len(flagged)} of {len(tasks)} references flagged, "
              f"{len(passing)} of {len(tasks)} stubs passed")  # fmt: skip
    return not flagged and not passing and bool(tasks), detail


def _repair(name: str, n: int) -> tuple[bool, str]:
    env = load_env(f"repair-{name}")
    tasks = [t for t in choose_tasks(env.tasks(), n * 3, "hash") if t.reference][:n]
    mod = load_translator(name)
    with tempfile.TemporaryDirectory() as tmp:
        replay = Path(tmp) / "replay.jsonl"
        lines = []
        for t in tasks:
            lines.append({"task_id": t.id, "turns": reference_turns(env, t)})
            stub = mod.stub(FunctionTask.model_validate(t.meta["function"]))
            lines.append({"task_id": t.id, "turns": [fence(stub, mod.LANGUAGES[0])
                                                     + call("submit")]})  # fmt: skip
        replay.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
        groups = EpisodeRunner(env, ReplayPolicy(replay)).run(tasks, 2, SamplingConfig())
    got = [
        [(r.verdict or env.grade(t, [r.sample.text])[0]).reward for r in g]  # session or grader
        for t, g in zip(tasks, groups, strict=True)
    ]
    ok = bool(tasks) and all(g == [1.0, 0.0] for g in got)
    ids = ", ".join(t.id for t in tasks) or "none with a reference"
    return ok, f"{ids} (at most 2 tasks): reference then stub rewards {got}"


def check_stack(name: str, n_tasks: int = 4, build: bool = True,
                on_row: Callable[[Row], None] | None = None,
                skip_missing: bool = False) -> list[Row]:  # fmt: skip
    """Every check of the stack `name` (see the module docstring), as rows; `skip_missing`:
    a references row grades the picked tasks that have a reference and only counts the rest."""
    rows: list[Row] = []

    def add(row: Row) -> Row:
        rows.append(row)
        if on_row:
            on_row(row)
        return row

    source = discover().get(name)
    if source is None or source.folder is None:
        raise RlvrError(f"no stack folder named {name!r}", "run `rlvr stack new NAME`, or "
                        "add its parent folder with --env-path")  # fmt: skip
    if not add(_timed("translator", lambda: _translator(name))).ok:
        for later in ("image", "references", "spec-gap audit", "hack audit", "repair replay"):
            add(Row(later, None, "not run: the translator does not express any task yet"))
        return rows
    if build:
        add(_timed("image", lambda: _image(source.folder)))  # type: ignore[arg-type]
    for env in (name, f"synth-{name}", f"humaneval-{name}"):
        if env in discover():
            add(_timed(f"references {env}",
                       lambda env=env: _references(env, n_tasks, skip_missing)))  # fmt: skip
    if f"synth-{name}" in discover():
        add(_timed("spec-gap audit", lambda: _spec_gap(name, n_tasks)))
    add(_timed("hack audit", lambda: _hacks(name, n_tasks)))
    if f"repair-{name}" in discover():
        add(_timed("repair replay", lambda: _repair(name, min(n_tasks, 2))))
    return rows
