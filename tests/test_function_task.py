"""The function-task format: type strings, typed canonical JSON, case validation, the judge."""

from __future__ import annotations

import json
import math
import re

import pytest
from pydantic import ValidationError

from rlvr.errors import ManifestError
from rlvr.functions.judge import judge_cases, read_driver_output
from rlvr.functions.task import FunctionTask, read_function_tasks, write_function_tasks
from rlvr.functions.typelang import (
    TypeMismatch,
    TypeSyntaxError,
    canonical,
    decode,
    encode,
    parse_type,
    values_equal,
)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("int", "int"),
        ("List[ int ]", "list[int]"),
        ("dict[str,list[float]]", "dict[str, list[float]]"),
        ("optional[tuple[int, str]]", "optional[tuple[int, str]]"),
        ("tuple[str, ...]", "tuple[str, ...]"),
        ("none", "none"),
    ],
)
def test_type_strings_parse_and_render(text: str, shown: str) -> None:
    assert str(parse_type(text)) == shown


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("integer", "unknown type 'integer'"),
        ("list", "list needs parameters"),
        ("dict[int]", "dict takes 2 parameter(s), got 1"),
        ("list[int", "expected ',' or ']'"),
        ("list[int]]", "unexpected ']'"),
        ("optional[optional[int]]", "optional[optional[int]] is not allowed"),
        ("list[int]!", "unexpected character '!'"),
        ("tuple[...]", "unknown type '...'"),
    ],
)
def test_bad_type_strings_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(TypeSyntaxError, match=re.escape(message)):
        parse_type(text)


def test_bool_is_not_int_and_floats_accept_integers() -> None:
    with pytest.raises(TypeMismatch, match="expected int, got bool"):
        decode(parse_type("int"), True)
    with pytest.raises(TypeMismatch, match="expected int, got float"):
        decode(parse_type("int"), 3.0)
    with pytest.raises(TypeMismatch, match="expected bool, got int"):
        decode(parse_type("bool"), 1)
    assert decode(parse_type("float"), 3) == 3.0
    assert type(decode(parse_type("float"), 3)) is float
    assert math.isnan(decode(parse_type("float"), "nan"))
    assert decode(parse_type("float"), "-inf") == -math.inf
    with pytest.raises(TypeMismatch, match="expected float, got string 'NaN'"):
        decode(parse_type("float"), "NaN")


def test_tuples_and_maps_are_typed_by_the_signature() -> None:
    pair = parse_type("tuple[int, str]")
    assert decode(pair, [1, "a"]) == (1, "a")
    with pytest.raises(TypeMismatch, match=r"\(2 items\), got 3"):
        decode(pair, [1, "a", "b"])
    with pytest.raises(TypeMismatch, match=r"\[1\]: expected str, got int"):
        decode(pair, [1, 2])
    assert decode(parse_type("tuple[int, ...]"), [1, 2, 3]) == (1, 2, 3)
    by_int = parse_type("dict[int, str]")
    assert decode(by_int, [[2, "b"], [1, "a"]]) == {1: "a", 2: "b"}
    assert encode(by_int, {1: "a"}) == [[1, "a"]]
    with pytest.raises(TypeMismatch, match="duplicate key 1"):
        decode(by_int, [[1, "a"], [1, "b"]])
    with pytest.raises(TypeMismatch, match="list of \\[key, value\\] pairs"):
        decode(by_int, {"1": "a"})
    assert decode(parse_type("dict[str, int]"), {"a": 1}) == {"a": 1}
    assert canonical(parse_type("list[optional[float]]"), [1, None, "inf"]) == [1.0, None, "inf"]


def test_equality_is_exact_unless_a_tolerance_is_given() -> None:
    f = parse_type("float")
    assert not values_equal(f, 0.1 + 0.2, 0.3)
    assert values_equal(f, 0.1 + 0.2, 0.3, abs_tol=1e-6)
    assert not values_equal(f, 0.3 + 2e-6, 0.3, abs_tol=1e-6)  # strictly less, like HumanEval
    assert values_equal(f, math.nan, math.nan)
    nested = parse_type("dict[str, list[float]]")
    assert values_equal(nested, {"a": [1.0000001]}, {"a": [1.0]}, abs_tol=1e-6)
    assert not values_equal(nested, {"a": [1.0], "b": []}, {"a": [1.0]})
    assert not values_equal(parse_type("optional[int]"), None, 0)
    assert values_equal(parse_type("list[int]"), [1, 2], [1, 2])
    assert not values_equal(parse_type("list[int]"), [2, 1], [1, 2])


def _task(**kw: object) -> FunctionTask:
    data = {
        "id": "t/add",
        "entry_point": "pair_sum",
        "signature": {
            "params": [{"name": "xs", "type": "list[int]"}, {"name": "k", "type": "int"}],
            "returns": "optional[tuple[int, int]]",
        },
        "docstring": "Return the first pair of positions whose values add up to k, or None.",
        "public_cases": [{"args": [[1, 2, 3], 5], "expected": [1, 2]}],
        "hidden_cases": [
            {"args": [[], 1], "expected": None},
            {"args": [[4, 4], 8], "expected": [0, 1]},
        ],
    }
    data.update(kw)
    return FunctionTask.model_validate(data)


def test_a_task_validates_its_cases_against_the_signature() -> None:
    task = _task()
    assert [c.expected for c in task.cases] == [[1, 2], None, [0, 1]]
    with pytest.raises(ValidationError, match=r"hidden_cases\[0\]: 1 arguments for 2 parameters"):
        _task(hidden_cases=[{"args": [[1]], "expected": None}])
    with pytest.raises(
        ValidationError, match=r"public_cases\[0\]\.args\[1\]: expected int, got bool"
    ):
        _task(public_cases=[{"args": [[1], True], "expected": None}])
    with pytest.raises(ValidationError, match=r"expected: expected tuple\[int, int\] \(2 items\)"):
        _task(public_cases=[{"args": [[1], 1], "expected": [0]}])
    with pytest.raises(ValidationError, match="entry_point 'pair-sum' must be an identifier"):
        _task(entry_point="pair-sum")
    with pytest.raises(ValidationError, match="unknown type 'integer'"):
        _task(signature={"params": [{"name": "x", "type": "integer"}], "returns": "int"})
    with pytest.raises(ValidationError, match="give at least one case"):
        _task(public_cases=[], hidden_cases=[])


def test_task_files_round_trip_and_report_the_line(tmp_path) -> None:
    path = tmp_path / "functions.jsonl"
    write_function_tasks(path, [_task(), _task(id="t/other")])
    back = read_function_tasks(path)
    assert [t.id for t in back] == ["t/add", "t/other"]
    assert back[0] == _task()
    bad = json.loads(path.read_text().splitlines()[0])
    bad["hidden_cases"][0]["expected"] = "x"
    path.write_text(path.read_text() + json.dumps(bad) + "\n")
    with pytest.raises(
        ManifestError, match=r"functions.jsonl:3: .*hidden_cases\[0\]\.expected: expected tuple"
    ):
        read_function_tasks(path)


def _stdout(*lines: str) -> str:
    return "answer chatter\n@@RLVR-READY\n" + "\n".join(lines) + "\n"


def test_judge_compares_each_case_typed() -> None:
    task = _task()
    out = read_driver_output(
        _stdout(
            '@@RLVR-CASE {"case": 0, "ok": true, "value": [1, 2]}',
            "print from the answer",
            '@@RLVR-CASE {"case": 1, "ok": false, "error": "IndexError: list index out of range"}',
            '@@RLVR-CASE {"case": 2, "ok": true, "value": [0.0, 1]}',
        ),
        3,
    )
    assert out.ready and out.problem is None
    got = judge_cases(task, out)
    assert [o.outcome for o in got] == ["passed", "error", "failed"]
    assert "IndexError" in got[1].reason
    assert "not a optional[tuple[int, int]]" in got[2].reason
    assert "[0, 1]" not in got[2].reason  # hidden expected values stay on the host


def test_judge_marks_missing_cases_and_shows_public_expectations() -> None:
    task = _task()
    out = read_driver_output(_stdout('@@RLVR-CASE {"case": 0, "ok": true, "value": [0, 2]}'), 3)
    got = judge_cases(task, out)
    assert [o.outcome for o in got] == ["failed", "missing", "missing"]
    assert got[0].reason == "returned [0, 2], expected [1, 2]"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('@@RLVR-CASE {"case": 0, "ok": true, "value": NaN}', "malformed result line"),
        ('@@RLVR-CASE {"case": 0, "ok": "yes"}', "malformed result line"),
        ('@@RLVR-CASE {"case": 0, "ok": true, "extra": 1}', "malformed result line"),
        ('@@RLVR-CASE {"case": 7, "ok": true}', "the task has 3 cases"),
        ("@@RLVR-CASE " + "[" * 100000 + "]" * 100000, "malformed result line"),
        ("@@RLVR-CASE {", "malformed result line"),
    ],
)
def test_judge_turns_bad_lines_into_a_problem_never_an_exception(line: str, problem: str) -> None:
    out = read_driver_output(_stdout(line), 3)
    assert out.problem is not None and problem in out.problem


def test_a_repeated_case_line_is_a_forgery() -> None:
    line = '@@RLVR-CASE {"case": 0, "ok": true, "value": [1, 2]}'
    out = read_driver_output(_stdout(line, line), 3)
    assert out.problem == "case 0 was reported twice (a forged result line)"


def test_no_ready_line_means_the_driver_never_started() -> None:
    assert not read_driver_output("Traceback ...\n", 3).ready


def test_a_line_that_lists_spellings_is_not_respelled() -> None:
    from rlvr.functions.render import native_words

    words = {"None": "nil", "True": "true"}
    assert native_words("(None, nil or null)", words, "f", None) == "(None, nil or null)"
    assert native_words("Return None when True", words, "f", None) == "Return nil when true"
