"""HumanEval -> function tasks: case extraction from check(), typing, and the committed set."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from rlvr.audit.augment.sets import carry_over
from rlvr.functions.infer import InferError, annotation_type, infer_type
from rlvr.functions.task import read_function_tasks
from rlvr.functions.translator import load_translator
from rlvr.tasksets.humaneval import humaneval_path
from rlvr.tasksets.humaneval_cases import CaseError, extract_cases
from rlvr.tasksets.humaneval_convert import convert, convert_all, doctests

ROOT = Path(__file__).resolve().parent.parent
PROMPT = "def f(x: int, y: float):\n    '''Add.'''\n"
SOLUTION = "    return x + y\n"


def _cases(test: str) -> list:
    return extract_cases(PROMPT, SOLUTION, test, "f")


def test_every_plain_assert_form_becomes_a_case() -> None:
    test = """
def check(candidate):
    assert candidate(1, 2.0) == 3.0
    assert 5.0 == candidate(2, 3.0), "reversed"
    assert abs(candidate(1, 0.5) - 1.5) < 1e-6
    assert candidate(0, 0.0) is not None or True
    for i in range(3):
        assert candidate(i, 0.5) == i + 0.5
    assert True
"""
    with pytest.raises(CaseError, match="is not a plain comparison"):
        _cases(test)
    cases = _cases(test.replace("    assert candidate(0, 0.0) is not None or True\n", ""))
    assert [(c.args, c.expected, c.abs_tol) for c in cases] == [
        ((1, 2.0), 3.0, None),
        ((2, 3.0), 5.0, None),
        ((1, 0.5), 1.5, 1e-6),
        ((0, 0.5), 0.5, None),
        ((1, 0.5), 1.5, None),
        ((2, 0.5), 2.5, None),
    ]


def test_properties_and_disagreements_are_refused() -> None:
    prop = "def check(candidate):\n    x = candidate(1, 1.0)\n    assert x > 1\n"
    with pytest.raises(CaseError, match="used outside a plain assert"):
        _cases(prop)
    wrong = "def check(candidate):\n    assert candidate(1, 1.0) == 3.0\n"
    with pytest.raises(CaseError, match="canonical solution returns 2.0 for \\(1, 1.0\\)"):
        _cases(wrong)


def test_types_come_from_annotations_or_values() -> None:
    assert str(annotation_type("Tuple[int, ...]")) == "tuple[int, ...]"
    assert annotation_type("list") is None and annotation_type("Any") is None
    assert str(infer_type([(1, None), (None, 2)])) == "tuple[optional[int], optional[int]]"
    assert str(infer_type([("a", "b"), ()])) == "tuple[str, ...]"
    assert str(infer_type([{"a": [1]}, {}])) == "dict[str, list[int]]"
    with pytest.raises(InferError, match="different types \\(int and str\\)"):
        infer_type([1, "a"])


def test_doctest_examples_become_public_cases() -> None:
    doc = "Sum.\n>>> f(1, 2.0)\n3.0\n>>> f(0, 0.5)\n0.5\n"
    text, found = doctests(doc, "f")
    assert text == "Sum." and found == [((1, 2.0), 3.0), ((0, 0.5), 0.5)]
    assert doctests("x\n>>> round(f(1, 2.0))\n3", "f") is None


def test_examples_compare_floats_as_the_problems_check_does() -> None:
    # HumanEval/4's check() compares with `abs(...) < 1e-6`; its docstring example becomes a
    # public case that must not be stricter than the problem itself (a cold attack round found
    # a correct answer off by 1e-9 scored 0 on the exact example)
    row = next(r for r in _rows() if r["task_id"] == "HumanEval/4")
    task = convert(row)
    assert task.public_cases and all(c.abs_tol == 1e-6 for c in task.public_cases)
    exact = next(r for r in _rows() if r["task_id"] == "HumanEval/45")
    assert all(c.abs_tol is None for c in convert(exact).hidden_cases)


def _rows() -> list[dict]:
    with gzip.open(humaneval_path(), "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def test_the_committed_set_is_what_the_converter_makes() -> None:
    done, failed = convert_all(_rows())
    committed = read_function_tasks(ROOT / "datasets" / "humaneval" / "functions.jsonl")
    # the shipped file adds the hidden cases of `rlvr cases augment` (provenance in
    # meta.augment) after the converted ones, which carry_over keeps only when they are unchanged
    rebuilt = carry_over(done, committed)
    assert [t.model_dump() for t in rebuilt] == [t.model_dump() for t in committed]
    assert failed == json.loads((ROOT / "datasets/humaneval/not_converted.json").read_text())
    assert len(done) >= 155 and len(failed) <= 9


def test_humaneval_tasks_read_like_their_tests() -> None:
    rows = {r["task_id"]: r for r in _rows()}
    t = convert(rows["HumanEval/2"])  # truncate_number: abs(candidate(1.33) - 0.33) < 1e-6
    assert t.signature.returns == "float"
    assert [c.abs_tol for c in t.hidden_cases] == [None, 1e-6, 1e-6]
    t = convert(rows["HumanEval/136"])
    assert t.signature.returns == "tuple[optional[int], optional[int]]"
    assert {"args": [[]], "expected": [None, None]} in [
        c.model_dump(exclude_defaults=True) for c in t.hidden_cases
    ]


@pytest.mark.parametrize("stack", ["javascript", "go", "rust", "java"])
def test_at_least_150_problems_translate_to_every_stack(stack: str) -> None:
    tasks = read_function_tasks(ROOT / "datasets" / "humaneval" / "functions.jsonl")
    tr = load_translator(stack)
    ok = [t for t in tasks if tr.unsupported(t) is None and (not t.stacks or stack in t.stacks)]
    assert len(ok) >= 150
    for t in ok:  # every prompt renders, and no hidden expected value leaks into it
        assert tr.entry_name(t) in tr.prompt(t)
