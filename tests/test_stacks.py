"""The javascript, go and rust stacks in the real Docker sandbox.

For each stack: every task's reference passes; a wrong answer fails; answers that print fake
pass lines, exit early, forge the report or try to read the hidden tests fail too. Images are
built through rlvr's own build function (skipped when their content hash is current). Without
a Docker daemon these tests fail with the fix; RLVR_SKIP_DOCKER=1 skips them.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

if os.environ.get("RLVR_SKIP_DOCKER") == "1":
    pytest.skip("RLVR_SKIP_DOCKER=1", allow_module_level=True)

from rlvr.env import Environment
from rlvr.errors import SandboxError
from rlvr.registry import env_from_manifest
from rlvr.types import Verdict

ENVS = Path(__file__).resolve().parent.parent / "envs"
FENCE = {"javascript": "javascript", "go": "go", "rust": "rust"}


def _require_docker() -> None:
    from rlvr.sandbox.client import get_client

    try:
        get_client()
    except SandboxError as e:
        pytest.fail(f"these tests need Docker: {e}; set RLVR_SKIP_DOCKER=1 to skip them")


@pytest.fixture(scope="module")
def envs() -> dict[str, Environment]:
    """The three stack environments with their images built (or already up to date)."""
    from rlvr.sandbox.images import build_stack

    _require_docker()
    for stack in FENCE:
        build_stack(ENVS / stack)
    return {stack: env_from_manifest(ENVS / stack) for stack in FENCE}


def fenced(stack: str, code: str) -> str:
    return f"Here is the file.\n\n```{FENCE[stack]}\n{code}```\n"


@pytest.mark.parametrize("stack", list(FENCE))
def test_every_reference_passes(envs: dict[str, Environment], stack: str) -> None:
    env = envs[stack]
    tasks = env.tasks()
    assert len(tasks) >= 15

    def grade(task):  # one group per task, several tasks at once
        return task, env.grade(task, [fenced(stack, task.reference or "")])[0]

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        results = list(ex.map(grade, tasks))
    failed = {t.id: (v.status, v.reason, v.details.get("stderr", "")[:300])
              for t, v in results if not v.passed}  # fmt: skip
    assert failed == {}
    for task, verdict in results:
        assert verdict.reward == 1.0
        assert sorted(t["name"] for t in verdict.details["tests"]) == sorted(
            task.meta["test_names"]
        )


JS_BAD = {
    "wrong": """
function twoSum(nums, target) { return [0, 1]; }
module.exports = { twoSum };
""",
    "prints fake TAP and exits": """
console.log('TAP version 13');
console.log('ok 1 - twosum basic');
console.log('ok 2 - twosum no pair');
console.log('1..2');
process.exit(0);
""",
    "knows every name, injects a full TAP into the parent's stdout": """
const fs = require('fs');
const names = ['twosum basic', 'twosum no pair', 'twosum duplicates',
  'twosum earliest j then i', 'twosum negatives and empty'];
const lines = names.map((n, i) => `ok ${i + 1} - ${n}`);
const tap = ['TAP version 13', ...lines, `1..${names.length}`, ''].join('\\n');
try { fs.writeFileSync(`/proc/${process.ppid}/fd/1`, tap); } catch (e) {}
process.exit(0);
""",
    "exits inside the function": """
function twoSum() { process.exit(0); }
module.exports = { twoSum };
""",
    "patches node:assert into no-ops": """
for (const name of ['node:assert', 'node:assert/strict']) {
  const assert = require(name);
  for (const key of Object.keys(assert)) assert[key] = () => {};
}
module.exports = { twoSum: () => null };
""",
}

GO_BAD = {
    "wrong": """package solution

func TwoSum(nums []int, target int) (int, int, bool) { return 0, 1, true }
""",
    "prints fake PASS lines and exits": """package solution

import (
\t"fmt"
\t"os"
)

func init() {
\tfor _, n := range []string{"TestTwoSumBasic", "TestTwoSumNone"} {
\t\tfmt.Printf("=== RUN   %s\\n--- PASS: %s (0.00s)\\n", n, n)
\t}
\tfmt.Println("PASS")
\tos.Exit(0)
}

func TwoSum(nums []int, target int) (int, int, bool) { return 0, 0, false }
""",
    "prints fake PASS lines, then the real tests run": """package solution

import "fmt"

func init() {
\tfor _, n := range []string{"TestTwoSumBasic", "TestTwoSumNone", "TestTwoSumEarliest"} {
\t\tfmt.Printf("=== RUN   %s\\n--- PASS: %s (0.00s)\\n", n, n)
\t}
}

func TwoSum(nums []int, target int) (int, int, bool) { return 0, 1, true }
""",
    "exits inside the function": """package solution

import "os"

func TwoSum(nums []int, target int) (int, int, bool) { os.Exit(0); return 0, 0, false }
""",
    "embeds the hidden tests": """package solution

import _ "embed"

//go:embed hidden_test.go
var hidden string

func TwoSum(nums []int, target int) (int, int, bool) { return 0, len(hidden), false }
""",
}

RUST_BAD = {
    "wrong": """pub fn two_sum(_nums: &[i64], _target: i64) -> Option<(usize, usize)> {
    Some((0, 1))
}
""",
    "prints fake test lines and exits": """use std::io::Write;

pub fn two_sum(_nums: &[i64], _target: i64) -> Option<(usize, usize)> {
    let mut out = std::io::stdout();
    for n in ["public::basic", "public::no_pair"] {
        let _ = writeln!(out, "test {} ... ok", n);
    }
    let _ = writeln!(out, "\\ntest result: ok. 5 passed; 0 failed");
    let _ = out.flush();
    std::process::exit(0)
}
""",
    "forges the logfile and exits": """
pub fn two_sum(_nums: &[i64], _target: i64) -> Option<(usize, usize)> {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--logfile") {
        let hidden = std::fs::read_to_string("tests/hidden.rs").unwrap_or_default();
        let mut log = String::from("ok public::basic\\nok public::no_pair\\n");
        for line in hidden.lines() {
            if let Some(rest) = line.strip_prefix("fn ") {
                log.push_str(&format!("ok hidden::{}\\n", rest.split('(').next().unwrap()));
            }
        }
        let _ = std::fs::write(&args[i + 1], log);
    }
    std::process::exit(0)
}
""",
    "includes the hidden tests at compile time": """
const HIDDEN: &str = include_str!("../tests/hidden.rs");

pub fn two_sum(_nums: &[i64], _target: i64) -> Option<(usize, usize)> {
    if HIDDEN.is_empty() { None } else { Some((0, 1)) }
}
""",
}

BAD = {"javascript": ("js-two-sum", JS_BAD), "go": ("go-two-sum", GO_BAD),
       "rust": ("rust-two-sum", RUST_BAD)}  # fmt: skip


@pytest.mark.parametrize("stack", list(FENCE))
def test_wrong_forged_and_early_exit_answers_fail(envs: dict[str, Environment], stack: str) -> None:
    task_id, bad = BAD[stack]
    env = envs[stack]
    task = env.task(task_id)
    verdicts = env.grade(task, [fenced(stack, code) for code in bad.values()])
    by_kind: dict[str, Verdict] = dict(zip(bad, verdicts, strict=True))
    for kind, verdict in by_kind.items():
        assert verdict.status == "scored", (kind, verdict.reason)
        assert verdict.reward == 0.0 and not verdict.passed, (kind, verdict.details.get("tests"))
    # the wrong answer really ran and failed some tests (not rejected for another reason)
    wrong = by_kind["wrong"]
    assert 0 < wrong.details["passed"] < len(task.meta["test_names"]), wrong.reason


def test_a_forged_go_pass_meets_the_real_failure(envs: dict[str, Environment]) -> None:
    env = envs["go"]
    code = GO_BAD["prints fake PASS lines, then the real tests run"]
    (verdict,) = env.grade(env.task("go-two-sum"), [fenced("go", code)])
    assert verdict.reward == 0.0
    assert "duplicate test names" in verdict.reason


def test_hidden_tests_cannot_be_compiled_into_the_answer(envs: dict[str, Environment]) -> None:
    go_env, rust_env = envs["go"], envs["rust"]
    (go_v,) = go_env.grade(
        go_env.task("go-two-sum"), [fenced("go", GO_BAD["embeds the hidden tests"])]
    )
    assert "uses hidden_test.go" in go_v.details["stderr"]
    (rust_v,) = rust_env.grade(
        rust_env.task("rust-two-sum"),
        [fenced("rust", RUST_BAD["includes the hidden tests at compile time"])],
    )
    assert "hidden.rs" in rust_v.details["stderr"]
    assert go_v.reward == rust_v.reward == 0.0
