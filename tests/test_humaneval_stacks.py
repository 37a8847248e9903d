"""humaneval-javascript, humaneval-go and humaneval-rust: the converted problems rendered for
each stack, their coverage notes, references of problems with every kind of type (all of them:
`rlvr envs validate --references humaneval-<stack>`), and the drivers of those problems (a
stub answer must compile and fail each case by raising, which shows the driver and its
literals are well-formed in that stack).

The Docker part needs the stack images; RLVR_SKIP_DOCKER=1 skips it explicitly."""

from __future__ import annotations

import os
import re

import pytest

import rlvr
from rlvr.functions.render import native_words
from rlvr.functions.task import FunctionTask
from rlvr.functions.translator import load_translator

STACKS = {"javascript": "javascript", "go": "go", "rust": "rust"}
# one problem per shape: list[float] -> bool, optional[str], tuple[float, float],
# list[tuple[int, int]], a tuple result, dict[str, int], tuple[optional[int], ...],
# tuple[str, ...], ints near 2^53
SAMPLE = ["HumanEval/0", "HumanEval/12", "HumanEval/20", "HumanEval/87", "HumanEval/107",
          "HumanEval/111", "HumanEval/136", "HumanEval/148", "HumanEval/114"]  # fmt: skip
WITH_REFERENCES = ["HumanEval/0", "HumanEval/12", "HumanEval/87", "HumanEval/111", "HumanEval/136"]


@pytest.fixture(scope="module")
def envs() -> dict[str, rlvr.Environment]:
    return {s: rlvr.load_env(f"humaneval-{s}") for s in STACKS}


@pytest.mark.parametrize("stack", STACKS)
def test_each_stack_gets_at_least_150_problems_and_says_why_not_the_rest(
    envs: dict[str, rlvr.Environment], stack: str
) -> None:
    env = envs[stack]
    assert len(env.tasks()) >= 150
    assert env.describe is not None
    cov = env.describe()
    assert cov["n_source_tasks"] == 164
    assert cov["n_translated"] + cov["n_untranslated"] == 164
    assert cov["missing_references"] == []
    reasons = {d["id"]: d["reason"] for d in cov["untranslated"]}
    assert "Python helper encode_cyclic" in reasons["HumanEval/38"]
    assert reasons["HumanEval/32"].startswith("not convertible")
    task = env.task("HumanEval/0")
    assert task.meta["judge"] == "function" and task.meta["stack"] == stack
    text = env.format_prompt(task)
    assert (
        f"```{STACKS[stack]}" in text
        and load_translator(stack).entry_name(FunctionTask.model_validate(task.meta["function"]))
        in text
    )


# what Python says in HumanEval's docstrings, and what each stack's prompt must say instead
NATIVE = {
    "javascript": ({"true", "false", "null", "belowZero", "nextSmallest"}, {"True", "None"}),
    "go": ({"true", "false", "nil", "BelowZero", "NextSmallest"}, {"True", "None"}),
    "rust": ({"true", "false", "None", "below_zero", "next_smallest"}, {"True", "False"}),
}


@pytest.mark.parametrize("stack", STACKS)
def test_prompts_say_python_literal_words_and_names_in_the_stacks_own_words(
    envs: dict[str, rlvr.Environment], stack: str
) -> None:
    # HumanEval/3: "should return True. Otherwise it should return False."; HumanEval/90:
    # "Return None if there is no such element." and "next_smallest([]) == None"
    text = envs[stack].task("HumanEval/3").prompt + envs[stack].task("HumanEval/90").prompt
    words = set(re.findall(r"\w+", text))
    want, python = NATIVE[stack]
    assert want <= words
    assert not python & words
    assert "None of them" in native_words("None of them is True", {"None": "nil"}, "f", None)


if os.environ.get("RLVR_SKIP_DOCKER") == "1":
    pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request", allow_module_level=True)


@pytest.mark.parametrize("stack", STACKS)
def test_written_references_pass(envs: dict[str, rlvr.Environment], stack: str) -> None:
    env = envs[stack]
    for tid in WITH_REFERENCES:
        task = env.task(tid)
        assert task.reference, (stack, tid)
        (v,) = env.grade(task, [f"```{STACKS[stack]}\n{task.reference}```"])
        assert v.passed, (stack, tid, v.reason)


@pytest.mark.parametrize("stack", STACKS)
def test_drivers_of_every_shape_compile_and_run_each_case(
    envs: dict[str, rlvr.Environment], stack: str
) -> None:
    env, tr = envs[stack], load_translator(stack)
    ids = {t.id for t in env.tasks()}
    for tid in [t for t in SAMPLE if t in ids]:
        task = env.task(tid)
        ft = FunctionTask.model_validate(task.meta["function"])
        (v,) = env.grade(task, [f"```{STACKS[stack]}\n{tr.stub(ft)}```"])
        outcomes = {c["outcome"] for c in v.details.get("cases", [])}
        assert v.status == "scored" and outcomes == {"error"}, (stack, tid, v.reason)
