"""Case augmentation (`rlvr cases augment`): inputs by type, the set cover, the shipped HumanEval
cases with their provenance, and what they now reject through the real environment.

The grading tests need Docker (fail loudly without it unless RLVR_SKIP_DOCKER=1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import rlvr
from rlvr.audit.augment.augment import Options, constant_kills, first_line, merged_provenance
from rlvr.audit.augment.cover import greedy_cover
from rlvr.audit.augment.inputs import NewInput, new_inputs
from rlvr.audit.augment.sets import carry_over, case_set
from rlvr.audit.source.mutate import python_mutants
from rlvr.audit.specgap.original import killed_by_original, original_cases
from rlvr.errors import RlvrError
from rlvr.functions.task import Case, FunctionTask, read_function_tasks
from rlvr.references import reference_completion
from rlvr.sandbox.client import docker_available
from rlvr.types import Verdict

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "datasets" / "humaneval" / "functions.jsonl"
needs_docker = pytest.mark.skipif(
    os.environ.get("RLVR_SKIP_DOCKER") == "1", reason="RLVR_SKIP_DOCKER=1"
)
UNIQUE_LITERAL = "```python\ndef unique(l: list):\n    return [0, 2, 3, 5, 9, 123]\n```\n"


def _task(params: list[tuple[str, str]], returns: str, cases: list[tuple[list, object]]):
    return FunctionTask.model_validate(
        {
            "id": "t/1",
            "entry_point": "f",
            "signature": {"params": [{"name": n, "type": t} for n, t in params],
                          "returns": returns},
            "docstring": "A task.",
            "references": {"python": "def f(*a):\n    return a[0]\n"},
            "hidden_cases": [{"args": a, "expected": e} for a, e in cases],
        }
    )  # fmt: skip


@pytest.fixture(scope="module")
def shipped() -> dict[str, FunctionTask]:
    return {t.id: t for t in read_function_tasks(FILE)}


def test_inputs_change_one_argument_by_its_type_and_are_seeded() -> None:
    t = _task([("xs", "list[int]"), ("s", "str")], "int", [([[3, 5], "ab"], 0), ([[7], "c"], 1)])
    xs = new_inputs(t, 25, 200)
    assert xs == new_inputs(t, 25, 200) and xs != new_inputs(t, 26, 200)
    old = [c.args for c in t.cases]
    assert all(x.args not in old for x in xs)
    for x in xs:  # exactly one argument differs from some original case
        assert any(sum(a != b for a, b in zip(x.args, o, strict=True)) == 1 for o in old)
    made = {x.mutation.split(": ", 1)[1] for x in xs}
    assert {"list empty", "list long (60)", "list last element duplicated"} <= made
    assert {"str empty", "str + 'é'"} <= made
    ints = [v for x in xs for v in x.args[0]]
    assert max(ints) > 127 and min(ints) < -128  # wide integers, outside a byte
    tiers = {x.mutation.split(": ", 1)[1]: x.tier for x in xs}
    assert tiers["list empty"] == "wide" and tiers["str + 'é'"] == "wide"  # never shown
    assert tiers["list last element duplicated"] == "near"


def test_cover_takes_few_inputs_and_near_ones_first() -> None:
    inputs = [NewInput([i], f"m{i}", "wide" if i == 0 else "near") for i in range(4)]
    kills = {"a": {0, 1}, "b": {0, 2}, "c": {0, 3}, "d": {0}, "e": set()}
    assert greedy_cover(kills, inputs) == [0]  # only input 0 kills "d": it covers the rest too
    kills.pop("d")
    chosen = greedy_cover(kills, inputs)
    assert sorted(chosen) == [1, 2, 3]  # near inputs cover a, b and c without the wide one


def test_a_constant_answer_is_a_mutant_only_when_every_old_case_expects_it() -> None:
    t = _task([("x", "int")], "int", [([1], 7), ([2], 7)])
    valued = [(NewInput([3], "m", "near"), Case(args=[3], expected=7)),
              (NewInput([4], "m", "near"), Case(args=[4], expected=9))]  # fmt: skip
    assert constant_kills(t, valued) == {"constant 7": {1}}
    t2 = _task([("x", "int")], "int", [([1], 7), ([2], 8)])
    assert constant_kills(t2, valued) == {}


def test_only_known_case_sets_are_augmented() -> None:
    assert case_set("humaneval-go").envs["python"] == "humaneval"
    with pytest.raises(RlvrError, match="no augmentable case file"):
        case_set("math")


def test_shipped_cases_carry_their_provenance(shipped) -> None:
    augmented = [t for t in shipped.values() if "augment" in t.meta]
    assert len(augmented) >= 10 and "HumanEval/34" in {t.id for t in augmented}
    for t in augmented:
        aug = t.meta["augment"]
        assert aug["tool"] == "rlvr cases augment" and aug["seed"] == Options().seed
        assert all(r["seed"] == Options().seed for r in aug.get("rounds", []))
        assert len(t.hidden_cases) == aug["original_hidden"] + len(aug["added"]) > 0
        for a in aug["added"]:
            assert a["mutation"].startswith(("args[", "given")) and a["tier"] in ("near", "wide")
            assert a["kills"], f"{t.id}: an added case kills nothing"
    unique = shipped["HumanEval/34"]
    values = {str(c.expected) for c in unique.hidden_cases}
    assert len(values) >= 2  # no longer only the docstring example


def test_a_rebuild_keeps_the_added_cases_of_unchanged_tasks(shipped) -> None:
    t = shipped["HumanEval/34"]
    n = t.meta["augment"]["original_hidden"]
    fresh = t.model_copy(update={"hidden_cases": t.hidden_cases[:n], "meta": {}})
    assert carry_over([fresh], [t]) == [t]
    changed = fresh.model_copy(update={"hidden_cases": [*fresh.hidden_cases, *fresh.hidden_cases]})
    assert carry_over([changed], [t]) == [changed]  # its cases changed: augment it again


def test_the_audit_tells_kills_by_original_cases_from_added_ones(shipped) -> None:
    env = rlvr.load_env("humaneval")
    task = env.task("HumanEval/34")
    n = original_cases(task)
    assert n == 2  # the docstring example, public and hidden
    late = Verdict.score(0.0, "x", passed=False, details={"cases": [
        {"case": 0, "outcome": "passed"}, {"case": 1, "outcome": "passed"},
        {"case": 2, "outcome": "failed"}]})  # fmt: skip
    assert killed_by_original(task, late) is False
    early = Verdict.score(0.0, "x", passed=False, details={"cases": [
        {"case": 1, "outcome": "failed"}, {"case": 2, "outcome": "failed"}]})  # fmt: skip
    assert killed_by_original(task, early) is True


def _require_docker() -> None:
    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")


@needs_docker
def test_returning_the_docstring_literal_of_unique_now_fails() -> None:
    _require_docker()
    env = rlvr.load_env("humaneval")
    task = env.task("HumanEval/34")
    literal, ref = env.grade(task, [UNIQUE_LITERAL, reference_completion(env, task)])
    assert literal.status == "scored" and literal.reward == 0.0 and not literal.passed
    assert ref.reward == 1.0
    failed = [c for c in literal.details["cases"] if c["outcome"] != "passed"]
    assert failed and all(c["case"] >= original_cases(task) for c in failed)


@needs_docker
def test_a_mutant_only_an_added_case_kills_is_killed(shipped) -> None:
    _require_docker()
    picked = next(
        (t, a["kills"][0])
        for t in shipped.values()
        for a in t.meta.get("augment", {}).get("added", [])
        if not a["kills"][0].startswith(("constant", "wrong answer"))
    )
    ftask, name = picked
    opts = Options()
    seed = ftask.meta["augment"]["seed"] + sum(map(ord, ftask.id))
    ref = ftask.references["python"]
    mutant = next(m for m in python_mutants(ref, first_line(ftask), opts.mutants, seed)
                  if m.description == name)  # fmt: skip
    env = rlvr.load_env("humaneval")
    task = env.task(ftask.id)
    (v,) = env.grade(task, [f"```python\n{mutant.source}\n```\n"])
    assert v.status == "scored" and v.reward == 0.0
    assert killed_by_original(task, v) is False  # every original case passes it


def test_the_command_names_the_case_sets_it_knows() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "rlvr.cli", "cases", "augment", "math"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 1 and "no augmentable case file" in run.stderr
    assert "humaneval-rust" in run.stderr and "Traceback" not in run.stderr


def test_a_later_round_keeps_the_original_count_and_lists_every_added_case() -> None:
    first = {
        "tool": "rlvr cases augment",
        "seed": 25,
        "inputs": 96,
        "mutants": 40,
        "wide": False,
        "original_hidden": 3,
        "added": [{"mutation": "args[0]: -x"}],
    }
    later = {**first, "original_hidden": 4, "added": [{"mutation": "given (--try)"}],
             "wrong_answers": 2, "given": 1}  # fmt: skip
    merged = merged_provenance(first, later)
    assert merged["original_hidden"] == 3
    assert [a["mutation"] for a in merged["added"]] == ["args[0]: -x", "given (--try)"]
    assert [r.get("wrong_answers") for r in merged["rounds"]] == [None, 2]
    assert merged_provenance(None, first) == first


def test_a_kill_file_line_without_a_known_task_names_the_line(tmp_path) -> None:
    bad = tmp_path / "wrong.jsonl"
    bad.write_text('{"task_id": "HumanEval/9", "answer": "x"}\n{"task_id": "nope", "answer": 1}\n')
    run = subprocess.run(
        [sys.executable, "-m", "rlvr.cli", "cases", "augment", "humaneval", "--task",
         "HumanEval/9", "--kill", str(bad)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 1 and f"{bad}:2" in run.stderr and "task_id" in run.stderr


# Wrong answers an outside attack found passing every HumanEval case (2026-12-02), each wrong
# on the input in its comment; `rlvr cases augment humaneval --kill ... --try ...` added the
# cases that now fail them.
ATTACK_WRONG = {
    "HumanEval/9": "def rolling_max(numbers):\n    out, m = [], 0\n    for x in numbers:\n"
    "        m = max(m, x)\n        out.append(m)\n    return out\n",  # [-2, -1]
    # [3, 1, 2]
    "HumanEval/26": "def remove_duplicates(numbers):\n"
    "    return sorted(x for x in set(numbers) if numbers.count(x) == 1)\n",
    "HumanEval/35": "def max_element(l):\n    m = 0\n    for x in l:\n        m = max(m, x)\n"
    "    return m\n",  # [-3, -1]
    "HumanEval/98": "def count_upper(s):\n"
    "    return sum(1 for i, c in enumerate(s) if i % 2 == 0 and c in 'AEIOUY')\n",  # "YbY"
    # [1, 1], [1]
    "HumanEval/58": "def common(l1, l2):\n    return sorted(x for x in l1 if x in l2)\n",
}


@needs_docker
def test_the_wrong_answers_of_the_outside_attack_now_fail() -> None:
    _require_docker()
    env = rlvr.load_env("humaneval")
    for task_id, wrong in ATTACK_WRONG.items():
        task = env.task(task_id)
        bad, ref = env.grade(task, [f"```python\n{wrong}```\n", reference_completion(env, task)])
        assert (bad.status, bad.reward, ref.reward) == ("scored", 0.0, 1.0), (task_id, bad.reason)
        assert killed_by_original(task, bad) is False, task_id  # only an added case kills it


def test_an_added_stack_reading_humaneval_joins_its_case_set(tmp_path, monkeypatch) -> None:
    """`rlvr cases augment humaneval-ruby` on a stack a user added: its env reads the shared
    HumanEval case file, so it joins that set as one more stack that must agree."""
    from rlvr.audit.augment.sets import case_set
    from rlvr.cli.common import use_env_paths

    monkeypatch.setattr("rlvr.discovery._extra_paths", [])
    folder = tmp_path / "envs" / "humaneval-ruby"
    folder.mkdir(parents=True)
    (folder / "env.toml").write_text(
        'name = "humaneval-ruby"\ndescription = "HumanEval in Ruby."\n[tasks]\n'
        'loader = "rlvr.tasksets.functions:load"\n'
        'args = { path = "humaneval/functions.jsonl", stack = "ruby" }\n'
        '[grader]\nkind = "function"\n'
    )
    use_env_paths([tmp_path / "envs"])
    s = case_set("humaneval-ruby")
    assert s.path == "humaneval/functions.jsonl" and s.envs["ruby"] == "humaneval-ruby"
    assert s.envs["python"] == "humaneval" and "HumanEval/1" in s.skip
