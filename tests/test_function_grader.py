"""The function grader in the real Docker sandbox, in every stack: references pass, wrong answers
fail, and attacks that beat in-process harnesses (always-equal objects, early exits, forged
result lines, leftovers in a shared container) gain nothing and touch no sibling's verdict.

Needs Docker and the stack images; RLVR_SKIP_DOCKER=1 skips the Docker part explicitly.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rlvr.functions.judge import CASE, READY
from rlvr.functions.task import read_function_tasks
from rlvr.functions.translator import load_translator
from rlvr.graders.code.function import FunctionGrader
from rlvr.graders.code.function_verdict import function_verdict
from rlvr.sandbox.docker import ExecOutcome
from rlvr.tasksets.functions import to_task
from rlvr.types import Task

ROOT = Path(__file__).resolve().parent.parent
STACKS = ["python", "javascript", "go", "rust"]
TASKS = {t.id: t for t in read_function_tasks(ROOT / "datasets" / "functions" / "examples.jsonl")}
FENCE = {"python": "python", "javascript": "javascript", "go": "go", "rust": "rust"}


def fenced(stack: str, code: str) -> str:
    return f"Here you go.\n```{FENCE[stack]}\n{code}```\n"


def test_translators_render_each_stack_from_one_task() -> None:
    task = TASKS["examples/pair_sum"]
    shown = {s: load_translator(s).prompt(task) for s in STACKS}
    assert "def pair_sum(xs: list[int], k: int) -> tuple[int, int] | None:" in shown["python"]
    assert "pair_sum([1, 2, 3], 5) == (1, 2)" in shown["python"]
    assert "function pairSum(xs, k) {" in shown["javascript"]
    assert "@returns {[number, number] | null}" in shown["javascript"]
    assert "func PairSum(xs []int, k int) *[2]int {" in shown["go"]
    assert "PairSum([]int{1, 2, 3}, 5) returns [2]int{1, 2}" in shown["go"]
    assert "fn pair_sum(xs: Vec<i64>, k: i64) -> Option<(i64, i64)> {" in shown["rust"]
    for s in STACKS:  # the hidden cases never reach a prompt
        assert "-3" not in shown[s]


def test_literals_follow_each_language() -> None:
    from rlvr.functions.typelang import parse_type

    t = parse_type("dict[int, list[optional[float]]]")
    value = [[1, [0.5, None, "inf"]]]
    assert load_translator("python").literal(t, value) == "{1: [0.5, None, float('inf')]}"
    assert (
        load_translator("javascript").literal(t, value) == "new Map([[1, [0.5, null, Infinity]]])"
    )
    assert (
        load_translator("go").literal(t, value)
        == "map[int][]*float64{1: []*float64{rlvrPtr(0.5), nil, rlvrPtr(math.Inf(1))}}"
    )
    assert (
        load_translator("rust").literal(t, value)
        == "std::collections::HashMap::from([(1, vec![Some(0.5f64), None, Some(f64::INFINITY)])])"
    )
    s = parse_type("str")
    assert load_translator("go").literal(s, 'a"\\\n\x01') == '"a\\"\\\\\\n\\x01"'
    assert load_translator("rust").literal(s, "\x01") == 'String::from("\\u{1}")'


def test_stacks_say_what_they_cannot_express() -> None:
    big = TASKS["examples/pair_sum"].model_copy(deep=True)
    big.hidden_cases[0].args = [[2**60], 2**60]
    assert "does not fit a JavaScript number" in load_translator("javascript").unsupported(big)
    assert load_translator("go").unsupported(big) is None
    mixed = big.model_copy(deep=True)
    mixed.signature.returns = "list[tuple[int, str]]"
    assert "mixes element types" in load_translator("go").unsupported(mixed)


def _outcome(stdout: str, **result: object) -> ExecOutcome:
    r = {"exit_code": 0, "stdout": stdout, "stderr": "", "duration_s": 0.1, **result}
    return ExecOutcome(result=r, exit_code=0, stderr="")


def test_verdict_rules_on_driver_output() -> None:
    task = TASKS["examples/pair_sum"]
    ok = [f'{CASE}{{"case": {i}, "ok": true, "value": {v}}}' for i, v in
          enumerate(["[1, 2]", "null", "[0, 1]", "[0, 2]", "null"])]  # fmt: skip
    good = function_verdict(task, _outcome("\n".join([READY, *ok])), "all_pass")
    assert good.passed and good.reason == "all 5 cases passed"
    never = function_verdict(task, _outcome("", exit_code=1, stderr="node: not found"), "all_pass")
    assert never.status == "grader_error" and "node: not found" in never.reason
    broken = function_verdict(task, _outcome(READY, exit_code=1, stderr="E0308"), "all_pass")
    assert broken.status == "scored" and "did not compile or load: E0308" in broken.reason
    slow = function_verdict(task, _outcome("\n".join([READY, *ok[:2]]), timed_out=True), "fraction")
    assert slow.reward == 0.0 and slow.reason == "timeout"
    assert [c["outcome"] for c in slow.details["cases"]][:3] == ["passed", "passed", "missing"]
    assert slow.cause == "timeout" and [t.outcome for t in slow.tests][:3] == [
        "passed", "passed", "missing"
    ]  # fmt: skip
    shown = len(task.public_cases)
    assert [t.visibility for t in slow.tests] == ["public"] * shown + ["hidden"] * (5 - shown)
    assert good.cause is None and broken.cause == "build_failed"
    part = function_verdict(task, _outcome("\n".join([READY, *ok[:4]])), "fraction")
    assert part.reward == pytest.approx(0.8) and not part.passed and part.cause == "tests_failed"
    twice = function_verdict(task, _outcome("\n".join([READY, *ok, ok[0]])), "all_pass")
    assert not twice.passed and "reported twice" in twice.reason and twice.cause == "bad_report"


if os.environ.get("RLVR_SKIP_DOCKER") == "1":
    pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request", allow_module_level=True)


@pytest.fixture(scope="module")
def graders() -> dict[str, FunctionGrader]:
    from rlvr.sandbox.client import docker_available

    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")
    return {stack: FunctionGrader(stack=stack, pool_size=2) for stack in STACKS}


def _task(stack: str, task_id: str) -> Task:
    return to_task(TASKS[task_id], load_translator(stack))


@pytest.mark.parametrize("stack", STACKS)
def test_every_reference_passes(graders: dict[str, FunctionGrader], stack: str) -> None:
    for ft in TASKS.values():
        task = _task(stack, ft.id)
        (v,) = graders[stack].grade_group(task, [fenced(stack, ft.references[stack])])
        assert v.passed, (stack, ft.id, v.reason, v.details.get("stderr"))


# the runner's own result line, claiming every job of the batch passed every case
VALUES = ["[1, 2]", "null", "[0, 1]", "[0, 2]", "null"]
PASSED = "\n".join([READY] + [f'{CASE}{{"case": {i}, "ok": true, "value": {v}}}'
                              for i, v in enumerate(VALUES)])  # fmt: skip
RUNNER_LINE = "\n@@RLVR-RESULT@@" + json.dumps(
    {"results": [{"exit_code": 0, "stdout": PASSED, "clean": True}] * 2, "clean": True}
) + "\n"  # fmt: skip


def go_string(text: str) -> str:
    """A Go (and Rust) string literal of `text` (JSON's escapes are valid in both)."""
    return json.dumps(text)


ATTACKS = {
    "python": {
        "wrong": "def pair_sum(xs, k):\n    return (0, 1)\n",
        "always_equal": "class Eq(tuple):\n    def __eq__(self, o):\n        return True\n\n"
        "def pair_sum(xs, k):\n    return Eq((9, 9))\n",
        "exit": "import os\n\ndef pair_sum(xs, k):\n    os._exit(0)\n",
        "forge": "import os\n\n"
        'LINE = b\'\\n@@RLVR-CASE {"case": %d, "ok": true, "value": [1, 2]}\\n\'\n'
        "def pair_sum(xs, k):\n"
        "    for i in range(5):\n"
        "        os.write(1, LINE % i)\n"
        "    os._exit(0)\n",
        "crash": "import os\n\ndef pair_sum(xs, k):\n    os.abort()\n",
        "runner_line": "import os\n\n"
        "def pair_sum(xs, k):\n"
        f"    os.write(1, {RUNNER_LINE!r}.encode())\n"
        f"    os.write(2, {RUNNER_LINE!r}.encode())\n"
        "    return (1, 2)\n",
    },
    "javascript": {
        "wrong": "function pairSum(xs, k) { return [0, 1]; }\n",
        "always_equal": "function pairSum(xs, k) { return { toJSON() { return [1, 2]; }, "
        "valueOf() { return 1; } }; }\n",
        "exit": "function pairSum(xs, k) { process.exit(0); }\n",
        "forge": "const fs = require('fs');\nfunction pairSum(xs, k) {\n"
        "  for (let i = 0; i < 5; i++) fs.writeSync(1, `\\n@@RLVR-CASE "
        '{"case": ${i}, "ok": true, "value": [1, 2]}\\n`);\n  process.exit(0);\n}\n',
        "crash": "function pairSum(xs, k) { process.abort(); }\n",
        "runner_line": "const fs = require('fs');\nfunction pairSum(xs, k) {\n"
        f"  fs.writeSync(1, {RUNNER_LINE!r});\n  fs.writeSync(2, {RUNNER_LINE!r});\n"
        "  return [1, 2];\n}\n",
    },
    "go": {
        "wrong": "package solution\n\nfunc PairSum(xs []int, k int) *[2]int "
        "{ return &[2]int{0, 1} }\n",
        "always_equal": "package solution\n\nfunc PairSum(xs []int, k int) interface{} "
        '{ return "anything" }\n',
        "exit": 'package solution\n\nimport "os"\n\nfunc PairSum(xs []int, k int) *[2]int '
        "{ os.Exit(0); return nil }\n",
        "forge": 'package solution\n\nimport (\n\t"fmt"\n\t"os"\n)\n\n'
        "func PairSum(xs []int, k int) *[2]int {\n\tfor i := 0; i < 5; i++ {\n"
        '\t\tfmt.Printf("\\n@@RLVR-CASE {\\"case\\": %d, \\"ok\\": true, " +\n'
        '\t\t\t"\\"value\\": [1, 2]}\\n", i)\n'
        "\t}\n\tos.Exit(0)\n\treturn nil\n}\n",
        "crash": 'package solution\n\nimport "time"\n\nfunc PairSum(xs []int, k int) *[2]int {\n'
        '\tgo func() { panic("boom") }()\n\ttime.Sleep(time.Second)\n\treturn nil\n}\n',
        "no_compile": "package solution\n\nfunc PairSum(xs []int, k int) *[2]int "
        "{ return undefinedName }\n",
        "runner_line": 'package solution\n\nimport (\n\t"fmt"\n\t"os"\n)\n\n'
        "func PairSum(xs []int, k int) *[2]int {\n"
        f"\tfmt.Print({go_string(RUNNER_LINE)})\n"
        f"\tfmt.Fprint(os.Stderr, {go_string(RUNNER_LINE)})\n"
        "\treturn &[2]int{1, 2}\n}\n",
    },
    "rust": {
        "wrong": "fn pair_sum(xs: Vec<i64>, k: i64) -> Option<(i64, i64)> { Some((0, 1)) }\n",
        "always_equal": "fn pair_sum(xs: Vec<i64>, k: i64) -> Vec<String> "
        '{ vec![String::from("x")] }\n',
        "exit": "fn pair_sum(xs: Vec<i64>, k: i64) -> Option<(i64, i64)> "
        "{ std::process::exit(0) }\n",
        "forge": "fn pair_sum(xs: Vec<i64>, k: i64) -> Option<(i64, i64)> {\n"
        '    for i in 0..5 { println!("\\n@@RLVR-CASE {{\\"case\\": {}, \\"ok\\": true, '
        '\\"value\\": [1, 2]}}", i); }\n    std::process::exit(0)\n}\n',
        "crash": "fn pair_sum(xs: Vec<i64>, k: i64) -> Option<(i64, i64)> "
        "{ std::process::abort() }\n",
        "no_compile": "fn pair_sum(xs: Vec<i64>, k: i64) -> Option<(i64, i64)> "
        "{ undefined_name }\n",
        "runner_line": "fn pair_sum(xs: Vec<i64>, k: i64) -> Option<(i64, i64)> {\n"
        f'    print!("{{}}", {go_string(RUNNER_LINE)});\n'
        f'    eprint!("{{}}", {go_string(RUNNER_LINE)});\n'
        "    Some((1, 2))\n}\n",
    },
}


@pytest.mark.parametrize("stack", STACKS)
def test_attacks_gain_nothing_and_leave_the_reference_passing(
    graders: dict[str, FunctionGrader], stack: str
) -> None:
    task = _task(stack, "examples/pair_sum")
    names = list(ATTACKS[stack])
    answers = [fenced(stack, ATTACKS[stack][n]) for n in names]
    reference = fenced(stack, TASKS["examples/pair_sum"].references[stack])
    verdicts = graders[stack].grade_group(task, [reference, *answers, reference])
    assert verdicts[0].passed and verdicts[-1].passed, (verdicts[0].reason, verdicts[-1].reason)
    for name, v in zip(names, verdicts[1:-1], strict=True):
        assert v.status == "scored" and v.reward == 0.0, (stack, name, v.reason)
    forged = verdicts[1 + names.index("forge")]
    assert "reported twice" in forged.reason or "1/5" in forged.reason, forged.reason


def test_a_leftover_process_does_not_reach_the_next_answer(
    graders: dict[str, FunctionGrader],
) -> None:
    """Same container, one after the other: a child left behind to print forged lines later is
    killed with its job, which fails; the next answer's verdict is its own."""
    leaver = (
        "import os, time\n\n"
        'LINE = b\'\\n@@RLVR-CASE {"case": %d, "ok": true, "value": null}\\n\'\n'
        "def pair_sum(xs, k):\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(1.5)\n"
        "        for i in range(5):\n"
        "            os.write(1, LINE % i)\n"
        "        os._exit(0)\n"
        "    return None\n"
    )
    one = FunctionGrader(stack="python", pool_size=1)
    task = _task("python", "examples/pair_sum")
    wrong = fenced("python", "def pair_sum(xs, k):\n    return (1, 2)\n")
    left, after = one.grade_group(task, [fenced("python", leaver), wrong])
    assert not left.passed
    assert after.status == "scored" and after.reward == 0.0
    assert after.details["passed"] == 1, after.details["cases"]  # its own (1, 2), not the child's


def _execs(grader: FunctionGrader) -> tuple[int, int]:
    """(containers the pool holds, execs its idle containers have served)."""
    pool = grader.pool
    return pool._total, sum(c.jobs for c in pool._idle)


@pytest.mark.parametrize("stack", STACKS)
def test_a_batch_judges_each_answer_alone_in_one_exec(stack: str) -> None:
    """Crashing, non-compiling and forging answers between correct ones, all in one exec: each
    verdict is its answer's own (a forged runner line on the answer's stdout or stderr is data
    inside the runner's report, never a report)."""
    grader = FunctionGrader(stack=stack, pool_size=1, batch_size=16)
    task = _task(stack, "examples/pair_sum")
    reference = fenced(stack, TASKS["examples/pair_sum"].references[stack])
    names = [n for n in ("crash", "no_compile", "runner_line", "forge") if n in ATTACKS[stack]]
    answers = [reference]
    for name in names:
        answers += [fenced(stack, ATTACKS[stack][name]), reference]
    grader.grade_group(task, [reference])  # a warm container
    before = _execs(grader)
    verdicts = grader.grade_group(task, answers)
    for i, v in enumerate(verdicts[::2]):
        assert v.passed, (stack, i, v.reason, v.details.get("stderr"))
    for name, v in zip(names, verdicts[1::2], strict=True):
        assert v.status == "scored" and v.reward == 0.0, (stack, name, v.reason)
    assert _execs(grader) == (before[0], before[1] + 1)  # same container, one more exec


HANG = "def pair_sum(xs, k):\n    while True:\n        pass\n"
FLOOD = "import os\n\ndef pair_sum(xs, k):\n    while True:\n        os.write(1, b'x' * 65536)\n"
FORK_BOMB = (
    "import os\n\ndef pair_sum(xs, k):\n    while True:\n        try:\n            os.fork()\n"
    "        except OSError:\n            pass\n"
)


def test_a_hang_a_flood_and_a_fork_bomb_in_a_batch_change_no_siblings_verdict() -> None:
    """Each stops its own job at its own limit; the batch stops after it (the container is in
    doubt and is replaced) and the answers after it run on a fresh container."""
    grader = FunctionGrader(stack="python", pool_size=1, limits={"timeout_s": 4})
    task = _task("python", "examples/pair_sum")
    reference = fenced("python", TASKS["examples/pair_sum"].references["python"])
    attacks = {"hang": HANG, "flood": FLOOD, "fork bomb": FORK_BOMB}
    answers = [reference]
    for code in attacks.values():
        answers += [fenced("python", code), reference]
    verdicts = grader.grade_group(task, answers)
    for i, v in enumerate(verdicts[::2]):
        assert v.passed, (i, v.reason, v.details.get("stderr"))
    got = {name: v for name, v in zip(attacks, verdicts[1::2], strict=True)}
    for name, v in got.items():
        assert v.status == "scored" and v.reward == 0.0, (name, v.reason)
    assert got["hang"].reason == "timeout"
    assert got["flood"].reason == "output limit exceeded"


def test_batches_are_consecutive_and_even() -> None:
    from rlvr.graders.code.function import _chunks

    assert [len(c) for c in _chunks(list(range(17)), 8)] == [6, 6, 5]
    assert [len(c) for c in _chunks(list(range(8)), 8)] == [8]
    assert [x for c in _chunks(list(range(9)), 1) for x in c] == list(range(9))


def test_reference_validation_packs_several_tasks_into_one_exec() -> None:
    """`rlvr envs validate --references` grades through `grade_groups`: tasks share execs."""
    import rlvr
    from rlvr.grading import batches
    from rlvr.references import check_references

    env = rlvr.load_env("synth-python", grader_options={"pool_size": 1})
    assert batches(env.grader)
    before = _execs(env.grader)
    results = check_references(env, n_tasks=12)
    assert len(results) == 12 and all(r.passed for r in results), [
        (r.task_id, r.reason) for r in results if not r.passed
    ]
    assert _execs(env.grader)[1] - before[1] == 2  # 12 tasks in two batches of 6
