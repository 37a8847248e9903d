"""The synth task generator: determinism, stable ids, typed cases, edge cases, short prompts."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rlvr.functions.task import Case, check_case, read_function_tasks
from rlvr.functions.typelang import parse_type
from rlvr.tasksets.synth import SEED, generate, task_id
from rlvr.tasksets.synth.catalog import FAMILIES
from rlvr.tasksets.synth.generate import MAX_DOC, fingerprint, to_function_task

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "datasets" / "synth" / "functions.jsonl"
STACKS = ("python", "javascript", "go", "rust")


@pytest.fixture(scope="module")
def committed():
    return read_function_tasks(DATA)


def test_the_same_seed_generates_the_same_tasks() -> None:
    fams = FAMILIES[:6]
    assert fingerprint(generate(SEED, 8, fams)) == fingerprint(generate(SEED, 8, fams))
    assert fingerprint(generate(SEED, 8, fams)) != fingerprint(generate(SEED + 1, 8, fams))


def test_the_committed_file_is_what_the_build_script_writes(tmp_path: Path) -> None:
    out = tmp_path / "functions.jsonl"
    subprocess.run(
        [sys.executable, str(ROOT / "datasets" / "synth" / "build.py"), "--out", str(out)],
        check=True, capture_output=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert out.read_bytes() == DATA.read_bytes(), "run python datasets/synth/build.py"


def test_ids_depend_only_on_family_and_constants() -> None:
    """Adding or removing a family never renames the tasks of another."""
    alone = {t.id for t in generate(SEED, 10, [FAMILIES[3]])}
    together = {t.id for t in generate(SEED, 10, FAMILIES[:8])}
    assert alone and alone <= together
    fam = FAMILIES[3].name
    assert all(i.startswith(f"synth/{fam}-") and len(i) == len(f"synth/{fam}-") + 10 for i in alone)
    t = generate(SEED, 1, [FAMILIES[3]])[0]
    assert task_id(t.draft) == t.id


def test_set_size_levels_and_unique_ids(committed) -> None:
    assert len(committed) >= 2000
    assert len({t.id for t in committed}) == len(committed)
    levels = Counter(t.difficulty for t in committed)
    assert set(levels) == {"easy", "medium", "hard"} and min(levels.values()) >= 500
    assert len({t.meta["family"] for t in committed}) == len(FAMILIES)


def test_every_case_fits_the_signature(committed) -> None:
    """Arguments and expected values decode under the declared types (bool is not int, ...)."""
    for t in committed:
        types, ret = t.signature.param_types, t.signature.return_type
        for i, case in enumerate(t.cases):
            check_case(case, types, ret, f"{t.id} case {i}")
    bad = Case(args=[[1, True]], expected=1)
    with pytest.raises(ValueError, match="bool"):
        check_case(bad, [parse_type("list[int]")], parse_type("int"), "probe")


def test_every_task_is_typed_short_and_has_four_references(committed) -> None:
    for t in committed:
        assert set(t.references) == set(STACKS), t.id
        assert len(t.docstring) <= MAX_DOC and t.docstring.count(". ") <= 2, t.id
        assert len(t.public_cases) == 3 and len(t.hidden_cases) >= 2, t.id
        values = {json.dumps(c.expected, sort_keys=True) for c in t.cases}
        assert len(values) >= 2, f"{t.id}: every case expects the same value"
        for c in t.cases:
            assert json.dumps(c.args).isascii() and json.dumps(c.expected).isascii()


def _has_edge(t, kind: str, pick) -> bool:
    idx = [i for i, p in enumerate(t.signature.params) if parse_type(p.type).kind == kind]
    return not idx or any(pick(c.args[i]) for c in t.cases for i in idx)


def test_cases_exercise_empty_values_zero_and_negatives(committed) -> None:
    for t in committed:
        assert _has_edge(t, "list", lambda v: v == []), t.id
        assert _has_edge(t, "dict", lambda v: v == {}), t.id
        if t.meta["family"] not in ("lookup",):
            assert _has_edge(t, "str", lambda v: v == ""), t.id
    ints = [t for t in committed if [p.type for p in t.signature.params] == ["int"]]
    with_zero = [t for t in ints if any(c.args[0] == 0 for c in t.cases)]
    with_neg = [t for t in ints if any(c.args[0] < 0 for c in t.cases)]
    assert len(with_zero) == len(ints)
    # a recurrence term a(n) is defined for n >= 0 only (its docstring says so)
    assert len(with_neg) == len([t for t in ints if t.meta["family"] != "recurrence"])


def test_a_task_converts_to_the_committed_line(committed) -> None:
    fam = next(f for f in FAMILIES if f.name == "pipeline")
    first = to_function_task(generate(SEED, 1, [fam])[0])
    assert first == next(t for t in committed if t.id == first.id)
