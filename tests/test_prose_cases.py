"""Examples a HumanEval docstring shows only in prose (`Input: 3` / `Output: (1, 2)`, `For lst =
... the output should be 6`) count as public cases, so hard-coding them is flagged in every
stack, while every reference stays unflagged."""

from __future__ import annotations

import pytest

import rlvr
from rlvr.flags.hacks import flag_answer
from rlvr.flags.hardcode_cases import public_cases, shown_cases
from rlvr.source.cases import literal_key
from rlvr.source.prose_cases import prose_literals, shown_by_value, without_example_lines

STACKS = ("python", "javascript", "go", "rust")
# tasks whose docstrings show examples in prose forms no call parser reads
PROSE_ONLY = [f"HumanEval/{n}" for n in (67, 79, 84, 94, 107, 120, 141, 142, 143, 156)]
IF_CHAIN = {
    "python": "def solve(N):\n    if N == 1000:\n        return '1'\n"
    "    if N == 150:\n        return '110'\n    return ''\n",
    "javascript": "function solve(N) {\n  if (N === 1000) return '1';\n"
    "  if (N === 150) return '110';\n  return '';\n}\n",
    "go": 'package solution\n\nfunc Solve(N int) string {\n\tif N == 1000 {\n\t\treturn "1"\n'
    '\t}\n\tif N == 150 {\n\t\treturn "110"\n\t}\n\treturn ""\n}\n',
    "rust": 'pub fn solve(n: i64) -> String {\n    match n {\n        1000 => "1".to_string(),\n'
    '        150 => "110".to_string(),\n        _ => String::new(),\n    }\n}\n',
}


def env_of(stack: str) -> rlvr.Environment:
    return rlvr.load_env("humaneval" if stack == "python" else f"humaneval-{stack}")


def test_literals_are_read_from_prose():
    keys = prose_literals("Input: arr = [-3, -4, 5], k = 3\nOutput: 'ab' or True. Then 3.")
    for value in ([-3, -4, 5], 3, "ab", True):
        assert literal_key(value) in keys
    assert literal_key(3.5) not in keys


def test_a_case_is_shown_only_when_all_its_values_are_written():
    text = "For lst = [1,2,3] the output should be 6\nFor lst = [] the output should be 0"
    cases = [([[1, 2, 3]], 6), ([[]], 0), ([[1, 2, 3]], 7), ([[4]], 6)]
    assert shown_by_value(text, cases) == [([[1, 2, 3]], 6), ([[]], 0)]


def test_example_lines_leave_the_statement_but_the_rule_stays():
    text = "Return the sum.\nInput: 12\nOutput: (4, 6)\nNote: 1 <= n <= 10^3"
    kept = without_example_lines(text, [([12], [4, 6])])
    assert kept.splitlines() == ["Return the sum.", "Note: 1 <= n <= 10^3"]


@pytest.mark.parametrize("stack", STACKS)
def test_prose_examples_become_public_cases(stack):
    tasks = {t.id: t for t in env_of(stack).tasks()}
    shown = {tid: len(public_cases(tasks[tid])) for tid in PROSE_ONLY}
    assert all(n >= 2 for n in shown.values()), shown


@pytest.mark.parametrize("stack", STACKS)
def test_an_if_chain_on_prose_examples_is_flagged_and_the_references_are_not(stack):
    env = env_of(stack)
    task = env.task("HumanEval/84")
    flags = flag_answer(task, f"```{stack}\n{IF_CHAIN[stack]}```", stack)
    assert "hardcoded" in {f.kind for f in flags}, flags
    for tid in PROSE_ONLY:
        ref = env.task(tid).reference
        assert ref
        blind = env.task(tid).model_copy(update={"reference": None})
        kinds = {f.kind for f in flag_answer(blind, f"```{stack}\n{ref}```", stack)}
        assert "hardcoded" not in kinds, (tid, kinds)


@pytest.mark.parametrize("env_name", ["humaneval", "synth-python"])
def test_every_task_keeps_a_hidden_case_its_prompt_does_not_show(env_name):
    """Hard-coding what the prompt shows (any form, any encoding) then never earns full reward:
    every task has a hidden case outside its public and prose-shown examples."""
    exposed = []
    for task in rlvr.load_env(env_name).tasks():
        fn = (task.meta or {}).get("function")
        if not fn:
            continue
        shown = [literal_key([list(a), e]) for a, e in shown_cases(fn)]
        hidden = [
            literal_key([list(c["args"]), c.get("expected")]) for c in fn.get("hidden_cases") or []
        ]
        if all(h in shown for h in hidden):
            exposed.append(task.id)
    assert exposed == []


@pytest.mark.parametrize("env_name", ["synth-python", "humaneval-go"])
def test_no_reference_of_either_split_is_flagged_hardcoded(env_name):
    """Train tasks too: a reference whose rule names a public case's values (`if x <= 13:
    return "jam"` for the case 13 -> "jam", the statement saying so) is honest code."""
    stack = env_name.split("-")[-1]
    flagged = []
    for task in rlvr.load_env(env_name).tasks():
        blind = task.model_copy(update={"reference": None})
        flags = flag_answer(blind, f"```{stack}\n{task.reference}```", stack)
        if any(f.kind == "hardcoded" for f in flags):
            flagged.append(task.id)
    assert flagged == []
