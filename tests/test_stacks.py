"""The javascript, go and rust stacks' test-framework mode in the real Docker sandbox.

These are the opt-in `<stack>-tests` environments (the bundled `<stack>` ones are
function-judged: tests/test_stack_functions.py). For each stack: every task's reference passes;
a wrong answer fails; answers that print fake pass lines, exit early, forge the report or try
to read the hidden tests fail too. Images are built through rlvr's own build function (skipped
when their content hash is current). Without a Docker daemon these tests fail with the fix;
RLVR_SKIP_DOCKER=1 skips them.
"""

from __future__ import annotations

import json
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
    """The three test-framework environments with their images built (or already up to date)."""
    from rlvr.sandbox.images import build_stack

    _require_docker()
    for stack in FENCE:
        build_stack(ENVS / stack)
    return {stack: env_from_manifest(ENVS / f"{stack}-tests") for stack in FENCE}


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
        assert sorted(t.name for t in verdict.tests) == sorted(task.meta["test_names"])


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
        assert verdict.reward == 0.0 and not verdict.passed, (kind, verdict.tests)
    # the wrong answer really ran and failed some tests (not rejected for another reason)
    wrong = by_kind["wrong"]
    assert 0 < wrong.details["passed"] < len(task.meta["test_names"]), wrong.reason


def test_a_forged_go_pass_meets_the_real_failure(envs: dict[str, Environment]) -> None:
    env = envs["go"]
    code = GO_BAD["prints fake PASS lines, then the real tests run"]
    (verdict,) = env.grade(env.task("go-two-sum"), [fenced("go", code)])
    assert verdict.reward == 0.0
    # printed before rlvr's TestMain signs the output: ignored, the real failures stand
    assert verdict.reason.startswith("2/5 tests passed"), verdict.reason


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


# --- the hidden tests stay out of reach at run time (writable_workspace stacks) ---------------
# Each answer is correct, but first walks /w and /tmp and reads every file it can: it finds a
# "leak" when a file carries the hidden test file's name or one of its definition lines (the
# marker, kept reversed in the answer so the answer's own files never match). A leak makes the
# answer wrong on purpose (reward 0, paths on stderr), so a readable copy of the hidden tests
# anywhere shows up as a failed test here.
LEAK_MARKER = {
    "javascript": ("hidden.test.js", "test('twosum earliest j then i', () => {"),
    "go": ("hidden_test.go", "func TestTwoSumEarliest(t *testing.T) {"),
    "rust": ("hidden.rs", "fn earliest_j_then_i() {"),
}
LEAK_ANSWERS = {
    "javascript": """const fs = require('fs');
const path = require('path');
const marker = @MARKER@.split('').reverse().join('');
const leaks = [];
function scan(dir) {
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch (e) { return; }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { scan(p); continue; }
    if (!e.isFile()) continue;
    try {
      const text = fs.readFileSync(p, 'latin1');
      if (e.name === @NAME@ || text.includes(marker)) leaks.push(p);
    } catch (err) {}
  }
}
scan('/w');
scan('/tmp');
if (leaks.length) process.stderr.write('LEAKED ' + leaks.join(' ') + '\\n');

function twoSum(nums, target) {
  if (leaks.length) return [0, 0];
  const seen = new Map();
  for (let j = 0; j < nums.length; j++) {
    const want = target - nums[j];
    if (seen.has(want)) return [seen.get(want), j];
    if (!seen.has(nums[j])) seen.set(nums[j], j);
  }
  return null;
}
module.exports = { twoSum };
""",
    "go": """package solution

import (
\t"io/fs"
\t"os"
\t"path/filepath"
\t"strings"
)

var leaks []string

func reverse(s string) string {
\tr := []rune(s)
\tfor i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
\t\tr[i], r[j] = r[j], r[i]
\t}
\treturn string(r)
}

func init() {
\tmarker := reverse(@MARKER@)
\tfor _, root := range []string{"/w", "/tmp"} {
\t\tfilepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
\t\t\tif err != nil || !d.Type().IsRegular() {
\t\t\t\treturn nil
\t\t\t}
\t\t\tdata, err := os.ReadFile(p)
\t\t\tif err == nil && (d.Name() == @NAME@ || strings.Contains(string(data), marker)) {
\t\t\t\tleaks = append(leaks, p)
\t\t\t}
\t\t\treturn nil
\t\t})
\t}
\tif len(leaks) > 0 {
\t\tos.Stderr.WriteString("LEAKED " + strings.Join(leaks, " ") + "\\n")
\t}
}

func TwoSum(nums []int, target int) (int, int, bool) {
\tif len(leaks) > 0 {
\t\treturn 0, 0, false
\t}
\tseen := map[int]int{}
\tfor j, v := range nums {
\t\tif i, found := seen[target-v]; found {
\t\t\treturn i, j, true
\t\t}
\t\tif _, found := seen[v]; !found {
\t\t\tseen[v] = j
\t\t}
\t}
\treturn 0, 0, false
}
""",
    "rust": """use std::collections::HashMap;
use std::path::Path;

fn scan(dir: &Path, marker: &str, found: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(_) => return,
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let kind = match entry.file_type() {
            Ok(kind) => kind,
            Err(_) => continue,
        };
        if kind.is_dir() {
            scan(&path, marker, found);
        } else if kind.is_file() {
            if let Ok(data) = std::fs::read(&path) {
                let named = entry.file_name().to_string_lossy() == @NAME@;
                if named || String::from_utf8_lossy(&data).contains(marker) {
                    found.push(path.display().to_string());
                }
            }
        }
    }
}

fn leaks() -> Vec<String> {
    let marker: String = @MARKER@.chars().rev().collect();
    let mut found = Vec::new();
    for root in ["/w", "/tmp"] {
        scan(Path::new(root), &marker, &mut found);
    }
    if !found.is_empty() {
        eprintln!("LEAKED {}", found.join(" "));
    }
    found
}

thread_local! {
    static LEAKS: Vec<String> = leaks();
}

pub fn two_sum(nums: &[i64], target: i64) -> Option<(usize, usize)> {
    if LEAKS.with(|l| !l.is_empty()) {
        return Some((0, 0));
    }
    let mut seen: HashMap<i64, usize> = HashMap::new();
    for (j, &v) in nums.iter().enumerate() {
        if let Some(&i) = seen.get(&(target - v)) {
            return Some((i, j));
        }
        seen.entry(v).or_insert(j);
    }
    None
}
""",
}


def leak_answer(stack: str) -> str:
    name, marker = LEAK_MARKER[stack]
    code = LEAK_ANSWERS[stack].replace("@MARKER@", json.dumps(marker[::-1]))
    return code.replace("@NAME@", json.dumps(name))


@pytest.mark.parametrize("stack", list(FENCE))
def test_hidden_tests_are_unreadable_while_the_answer_runs(
    envs: dict[str, Environment], stack: str
) -> None:
    env = envs[stack]
    task = env.task(BAD[stack][0])
    name, marker = LEAK_MARKER[stack]
    assert marker in (task.hidden_tests or "")  # the marker really is in the hidden tests
    spec = env.grader.spec  # type: ignore[attr-defined]
    assert (spec.build_command or spec.answer_command) and spec.test_files.hidden.endswith(name)
    (verdict,) = env.grade(task, [fenced(stack, leak_answer(stack))])
    details = verdict.details
    output = (
        details.get("stderr", "") + details.get("stdout", "") + details.get("answer_output", "")
    )
    assert "LEAKED" not in output, output[:1000]
    assert verdict.passed and verdict.reward == 1.0, (verdict.reason, output[:1000])
