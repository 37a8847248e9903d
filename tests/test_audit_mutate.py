"""Mutation operators (Python AST and token level), the lexer they stand on, and trivial answers."""

from __future__ import annotations

import ast

import pytest

import rlvr
from rlvr.audit.source.mutate import OPERATORS, python_mutants, unified_diff
from rlvr.audit.source.mutate_text import text_mutants
from rlvr.audit.specgap.trivial import trivial_answers
from rlvr.source.functions import function_span, param_names
from rlvr.source.lexer import tokens
from rlvr.types import Task

SOURCE = '''def f(xs, k):
    """Docstring with 1 < 2 inside."""
    total = 0
    for x in xs:
        if x > k and x != 3:
            total += x * 2
        else:
            continue
        if total >= 100:
            break
    return total if total else -1


def g(a):
    if a:
        return True
    return False
'''


def test_every_python_operator_appears_and_each_mutant_changes_one_thing():
    mutants = python_mutants(SOURCE)
    assert {m.operator for m in mutants} == set(OPERATORS)
    original = ast.unparse(ast.parse(SOURCE))
    assert len({m.source for m in mutants}) == len(mutants)
    for m in mutants:
        assert m.source.strip() != original
        compile(m.source, "mutant", "exec")
        diff = unified_diff(SOURCE, m.source)
        removed = [x for x in diff.splitlines() if x.startswith("-") and not x.startswith("---")]
        assert removed, m.description
        if m.operator != "delete":  # a deleted loop or branch removes its whole body
            assert len(removed) <= 3, (m.description, diff)
    descriptions = {m.description for m in mutants}
    assert {
        "line 5: > -> >=",
        "line 5: != -> ==",
        "line 6: + -> -",
        "line 6: * -> //",
        "line 3: 0 -> 1",
        "line 5: and -> or",
        "line 10: break -> continue",
        "line 16: return True -> return False",
    } <= descriptions
    assert not any("Docstring" in m.description for m in mutants)


def test_python_mutants_respect_first_line_and_limit():
    all_mutants = python_mutants(SOURCE)
    late = python_mutants(SOURCE, first_line=14)
    assert late and all(m.line >= 14 for m in late)
    sample = python_mutants(SOURCE, limit=5, seed=3)
    assert len(sample) == 5 and sample == python_mutants(SOURCE, limit=5, seed=3)
    assert {m.source for m in sample} <= {m.source for m in all_mutants}
    assert python_mutants("def broken(:\n") == []


def test_lexer_round_trips_and_skips_strings_and_comments():
    src = 'let s = "a < b"; // x < y\nconst t = `${a}<${b}`; /* c < d */ if (a < b) {}'
    toks = tokens(src, "javascript")
    assert "".join(t.text for t in toks) == src
    assert [t.text for t in toks if t.kind == "op" and t.text == "<"] == ["<"]
    rust = "fn f<'a>(s: &'a str) -> char { 'x' }"
    kinds = [(t.kind, t.text) for t in tokens(rust, "rust") if t.kind == "string"]
    assert kinds == [("string", "'x'")]
    assert (
        "".join(t.text for t in tokens('x = r"a\\b" + f"{y}"', "python")) == 'x = r"a\\b" + f"{y}"'
    )


@pytest.mark.parametrize("lang", ["javascript", "go", "rust"])
def test_text_mutants_of_every_stack_reference(lang):
    env = rlvr.load_env(lang)
    seen_ops = set()
    for task in env.tasks():
        mutants = text_mutants(task.reference, lang)
        assert mutants, task.id
        for m in mutants:
            assert m.source != task.reference
            seen_ops.add(m.operator)
    assert {"compare", "arith", "constant", "negate"} <= seen_ops


def test_text_mutants_leave_generics_strings_and_declarations_alone():
    rust = (
        "pub fn f(v: Vec<String>) -> Option<usize> {\n    let n = v.len();\n"
        '    if n > 2 { return Some(n); }\n    println!("a < b");\n    None\n'
        "}\n"
    )
    mutants = text_mutants(rust, "rust")
    descs = {m.description for m in mutants}
    assert "line 3: > -> >=" in descs and "line 3: condition negated" in descs
    assert all("Vec<String>" in m.source for m in mutants)
    assert all('"a < b"' in m.source for m in mutants if m.operator != "delete")
    assert all("let n = v.len();" in m.source for m in mutants)
    neg = next(m for m in mutants if m.operator == "negate")
    assert "if !(n > 2) {" in neg.source
    go = "package p\n\nfunc F(x int) int {\n\tif y := x * 2; y > 3 {\n\t\tx++\n\t}\n\treturn x\n}\n"
    neg = next(m for m in text_mutants(go, "go") if m.operator == "negate")
    assert "if y := x * 2; !(y > 3) {" in neg.source


def test_function_span_and_params():
    span = function_span(
        "pub fn f<T: Clone>(a: &[T], b: usize) -> Vec<T> { a.to_vec() }", "rust", "f"
    )
    assert span is not None and span.returns == "Vec<T>"
    assert param_names(span.params, "rust") == [("a", "&[T]"), ("b", "usize")]
    go = function_span("func G(a, b int, s string) (int, error) {\n\treturn 0, nil\n}", "go", "G")
    assert go is not None and go.returns == "(int, error)"
    assert param_names(go.params, "go") == [("a", "int"), ("b", "int"), ("s", "string")]


def test_trivial_answers_for_python_forms():
    he = rlvr.load_env("humaneval").task("HumanEval/0")
    names = {t.name: t.source for t in trivial_answers(he, "python")}
    assert {
        "empty",
        "pass",
        "return_none",
        "raise",
        "return_arg:numbers",
        "constant:False",
        "constant:True",
    } <= set(names)
    assert (
        names["return_arg:numbers"].startswith("def has_close_elements(")
        and "return numbers" in names["return_arg:numbers"]
    )
    task = Task(
        id="x",
        prompt="p",
        entry_point="f",
        reference=(
            "import math\n\ndef helper(x):\n    return x\n\ndef f(n: int) -> int:\n"
            "    return helper(n) * 2\n"
        ),
    )
    by_name = {t.name: t.source for t in trivial_answers(task, "python")}
    assert "import math" in by_name["constant:0"] and "def helper" in by_name["constant:0"]
    assert "return 0" in by_name["constant:0"]


def test_trivial_answers_for_stacks_keep_the_rest_and_compile_shape():
    go = Task(
        id="g",
        prompt="p",
        entry_point="F",
        reference=(
            'package solution\n\nimport (\n\t"strconv"\n\t"strings"\n)\n\n'
            'func helper() string { return strings.Repeat("a", 2) }\n\n'
            "func F(n int) string {\n\treturn strconv.Itoa(n)\n}\n"
        ),
    )
    by_name = {t.name: t.source for t in trivial_answers(go, "go")}
    zero = by_name["constant:zero string"]
    assert '_ "strconv"' in zero and '\t"strings"' in zero and "var z0 string; return z0" in zero
    assert "return_arg:n" not in by_name
    rust = rlvr.load_env("rust-tests").task("rust-palindrome")
    r = {t.name: t.source for t in trivial_answers(rust, "rust")}
    assert {"raise", "constant:default", "constant:true", "constant:false"} <= set(r)
    js = rlvr.load_env("javascript-tests").task("js-fizzbuzz")
    j = {t.name: t.source for t in trivial_answers(js, "javascript")}
    assert "constant:[]" in j and all("module.exports" in s for n, s in j.items() if n != "empty")
