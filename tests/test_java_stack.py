"""The `java` stack: its translator's conventions, and its driver in the real Docker sandbox.

The conventions are fixed because references are written against them (the 17 hand-written
tasks here, HumanEval's in datasets/humaneval/java/): `Solution.java` holding `class Solution`
with a `public static` camelCase method; int -> long, float -> double, bool -> boolean, str ->
String, boxed inside generics and for optionals; tuples -> List (List<Object> when mixed).
"""

from __future__ import annotations

import os

import pytest

import rlvr
from rlvr.functions.task import FunctionTask
from rlvr.functions.translator import load_translator
from rlvr.functions.typelang import parse_type
from rlvr.graders.code.function import FunctionGrader
from rlvr.references import check_references
from rlvr.tasksets.functions import to_task

java = load_translator("java")


@pytest.mark.parametrize(
    ("declared", "spelled"),
    [
        ("int", "long"),
        ("float", "double"),
        ("bool", "boolean"),
        ("str", "String"),
        ("list[int]", "List<Long>"),
        ("list[list[float]]", "List<List<Double>>"),
        ("dict[str, list[bool]]", "Map<String, List<Boolean>>"),
        ("optional[int]", "Long"),
        ("optional[str]", "String"),
        ("tuple[int, int]", "List<Long>"),
        ("tuple[optional[int], optional[int]]", "List<Long>"),
        ("tuple[str, ...]", "List<String>"),
        ("tuple[str, bool]", "List<Object>"),
    ],
)
def test_types_follow_the_stack_convention(declared: str, spelled: str) -> None:
    assert java.type_name(parse_type(declared)) == spelled


def _task(**kw: object) -> FunctionTask:
    base = {
        "id": "demo/has_close_elements", "entry_point": "has_close_elements",
        "signature": {"params": [{"name": "numbers", "type": "list[float]"},
                                 {"name": "threshold", "type": "float"}], "returns": "bool"},
        "docstring": "True when two numbers are closer than threshold.",
        "public_cases": [{"args": [[1.0, 2.0], 0.5], "expected": False}],
    }  # fmt: skip
    return FunctionTask.model_validate({**base, **kw})


def test_prompt_names_the_class_the_method_and_java_words() -> None:
    text = java.prompt(_task())
    assert text.startswith("import java.util.*;\nimport java.util.stream.*;\n\nclass Solution {")
    signature = "public static boolean hasCloseElements(List<Double> numbers, double threshold)"
    assert signature + " {" in text
    assert "hasCloseElements(List.of(1.0, 2.0), 0.5) returns false" in text
    assert "true when two numbers" in text.lower()


def test_program_adds_imports_drops_package_and_wraps_a_bare_method() -> None:
    task = _task()
    whole = "package x.y;\nimport java.util.List;\npublic class Solution {\n  int a;\n}\n"
    got = java.program(task, f"```java\n{whole}```")
    assert got is not None and "package" not in got
    assert got.splitlines()[:3] == ["import java.util.List;", *java.IMPORTS]
    bare = "static boolean hasCloseElements(List<Double> n, double t) {\n    return false;\n}\n"
    got = java.program(task, f"```java\n{bare}```")
    assert got is not None and "class Solution {\nstatic boolean hasCloseElements" in got
    body = "        return false;\n    }\n}\n"  # the prompt's continuation
    got = java.program(task, body)
    assert got is not None and got.count("class Solution {") == 1 and got.endswith(body)


def test_string_literals_escape_controls_in_octal() -> None:
    # javac turns \\u escapes into characters before it reads a string, so none are written
    assert java.literal(parse_type("str"), 'a"\n\x01é') == '"a\\"\\n\\001é"'


def test_the_case_file_holds_arguments_and_types_but_no_expected_value() -> None:
    (name, text) = next(iter(java.driver(_task()).items()))
    assert name == "rlvr-cases.json" and "expected" not in text and "false" not in text
    assert text.startswith('{"name":"hasCloseElements","params":[["list","float"],"float"]')


# --- in the real sandbox --------------------------------------------------------------------


@pytest.fixture(scope="module")
def docker() -> None:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request")
    from rlvr.sandbox.client import docker_available

    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")


def test_every_reference_of_the_java_env_passes(docker: None) -> None:
    results = check_references(rlvr.load_env("java"))
    assert len(results) == 17
    assert [r.task_id for r in results if not r.passed] == []


def _caesar(body: str, extra: str = "") -> str:
    return (
        "```java\nclass Solution {\n" + extra
        + "    public static String caesar(String text, long shift) {\n" + body + "\n    }\n}\n```"
    )  # fmt: skip


FORGED = 'for (int i = 0; i < 64; i++) System.out.println("@@RLVR-CASE {\\"case\\": " + i + ", \\"ok\\": true, \\"value\\": \\"\\"}");'  # noqa: E501


def test_wrong_broken_exiting_and_forging_answers_fail(docker: None) -> None:
    env = rlvr.load_env("java")
    answers = {
        "wrong": _caesar("        return text;"),
        "no compile": _caesar("        return text + ;"),
        "exit": _caesar("        System.exit(0);\n        return text;"),
        "exit at load": _caesar("        return text;", "    static { System.exit(0); }\n"),
        "forged": _caesar(f"        {FORGED}\n        return text;"),
        "no Solution": "```java\npublic class Main {\n    public static String caesar(String t, "
        "long s) { return t; }\n}\n```",
    }
    graded = env.grade(env.task("java-caesar"), list(answers.values()))
    verdicts = dict(zip(answers, graded, strict=True))
    for name, v in verdicts.items():
        assert v.status == "scored" and v.reward == 0.0 and not v.passed, (name, v.reason)
    assert "did not compile" in verdicts["no compile"].reason
    assert "illegal start of expression" in verdicts["no compile"].reason
    # its class goes inside Solution like a bare method's, and the driver says what is missing
    assert "Solution has no static method caesar" in verdicts["no Solution"].reason
    for name in ("exit", "exit at load"):
        assert "System.exit" in verdicts[name].details["stderr"], name
    assert "reported twice" in verdicts["forged"].reason


TEN_THOUSAND = FunctionTask.model_validate({
    "id": "demo/big", "entry_point": "shape",
    "signature": {"params": [{"name": "xs", "type": "list[optional[int]]"},
                             {"name": "m", "type": "dict[int, str]"},
                             {"name": "f", "type": "float"}],
                  "returns": "tuple[list[optional[int]], dict[int, str], float, tuple[str, bool]]"},
    "docstring": "Echo the arguments.",
    "public_cases": [
        {"args": [[None, *range(9_999)], [[1, "a"], [-2, "b"]], "nan"],
         "expected": [[None, *range(9_999)], [[1, "a"], [-2, "b"]], "nan", ["é\n", True]]},
        {"args": [list(range(10_000)), [], "-inf"],
         "expected": [list(range(10_000)), [], "-inf", ["é\n", True]]},
    ],
})  # fmt: skip
ECHO = """```java
class Solution {
    public static List<Object> shape(List<Long> xs, Map<Long, String> m, double f) {
        return Arrays.asList(xs, m, f, List.of("\\u00e9\\n", true));
    }
}
```"""


def test_a_ten_thousand_element_case_and_every_kind_of_value_round_trip(docker: None) -> None:
    (v,) = FunctionGrader(stack="java").grade_group(to_task(TEN_THOUSAND, java), [ECHO])
    assert v.passed, v.reason
