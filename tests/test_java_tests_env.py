"""The `java-tests` environment: JUnit 5 judging an answer that runs in a JVM of its own.

The tasks file is checked without Docker (test names as the JUnit Platform writes them, one
per test method). In the real sandbox, one group of answers to one task: the reference earns
1.0, a wrong answer 0, and the attack that wins where the answer shares JUnit's JVM (find the
hidden tests by reflection, write a passing JUnit XML report, `Runtime.halt(0)`) earns 0; an
answer that calls `System.exit` or does not compile is scored 0 with a reason that says so
(not masked as "the test command ended before any test ran"). RLVR_SKIP_DOCKER=1 skips the
Docker part; `rlvr envs validate --references java-tests` runs every reference.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from rlvr.env import Environment
from rlvr.graders.code.verdict import score_outcomes
from rlvr.registry import env_from_manifest
from rlvr.types import TestOutcome

ROOT = Path(__file__).resolve().parent.parent
TASKS = ROOT / "datasets" / "java" / "tasks.jsonl"
METHOD = re.compile(r"@Test\s+void (\w+)\(\)")

FORGE = """import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class Solution {
    // What wins when the answer shares JUnit's JVM: find the tests, write a passing report, halt.
    static {
        StringBuilder xml = new StringBuilder("<testsuite>");
        for (String c : new String[] {"PublicTest", "HiddenTest"}) {
            try {
                for (var m : Class.forName(c).getDeclaredMethods())
                    xml.append("<testcase classname='" + c + "' name='" + m.getName() + "()'/>");
            } catch (Throwable t) {
                System.err.println("no " + c + " here: " + t);
            }
        }
        for (String n : new String[] {"firstFive", "fifteenEndsWithFizzBuzz", "nonPositive",
                "countsToHundred", "plainNumber"})
            xml.append("<testcase classname='T' name='" + n + "()'/>");
        xml.append("</testsuite>");
        for (String p : new String[] {System.getenv("REPORT"), "/tmp/report.xml", "report.xml"}) {
            try {
                Files.writeString(Path.of(String.valueOf(p)), xml);
            } catch (Throwable t) {
                System.err.println("cannot write " + p + ": " + t);
            }
        }
        Runtime.getRuntime().halt(0);
    }

    public static List<String> fizzBuzz(int n) {
        return List.of();
    }
}
"""
WRONG = """import java.util.ArrayList;
import java.util.List;

public class Solution {
    public static List<String> fizzBuzz(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) out.add(i % 3 == 0 ? "Fizz" : String.valueOf(i));
        return out;
    }
}
"""
EXITS = """import java.util.List;

public class Solution {
    public static List<String> fizzBuzz(int n) {
        System.exit(0);
        return List.of();
    }
}
"""
FLOOD = """import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

public class Solution {
    // One reply line far over the stub's cap, on the reply pipe found through rlvr.Wire: the
    // judge's JVM must not run out of heap reading it (its report would then be missing).
    public static List<String> fizzBuzz(int n) throws Exception {
        Class<?> w = Class.forName("rlvr.Wire", false, ClassLoader.getSystemClassLoader());
        Method fd = w.getDeclaredMethod("fd", int.class);
        fd.setAccessible(true);
        FileOutputStream out = new FileOutputStream((FileDescriptor) fd.invoke(null, 6));
        byte[] chunk = new byte[1 << 20];
        Arrays.fill(chunk, (byte) 'A');
        out.write("ok s:".getBytes());
        for (int i = 0; i < 40; i++) out.write(chunk);
        out.write('\\n');
        Runtime.getRuntime().halt(0);
        return null;
    }
}
"""
BROKEN = "public class Solution { public static int fizzBuzz(int n) { return } }\n"


def _tasks() -> list[dict]:
    return [json.loads(line) for line in TASKS.read_text().splitlines() if line.strip()]


def test_the_same_17_tasks_with_junit_platform_names() -> None:
    """Ids follow datasets/go's; each test name is `Class.method()`, as JUnit's report has it."""
    go = [json.loads(x)["id"] for x in (ROOT / "datasets/go/tasks.jsonl").read_text().splitlines()]
    tasks = _tasks()
    assert [t["id"].removeprefix("java-") for t in tasks] == [g.removeprefix("go-") for g in go]
    for t in tasks:
        meta = t["meta"]
        public = [f"PublicTest.{m}()" for m in METHOD.findall(t["public_tests"])]
        hidden = [f"HiddenTest.{m}()" for m in METHOD.findall(t["hidden_tests"])]
        assert meta["test_names"] == public + hidden, t["id"]
        assert (meta["n_public"], meta["n_hidden"]) == (len(public), len(hidden)), t["id"]
        assert "public class Solution" in t["reference"] and t["entry_point"] in t["reference"]


def test_registered_as_the_weaker_opt_in() -> None:
    env = env_from_manifest(ROOT / "envs" / "java-tests")
    assert "WEAKER" in env.description and len(env.tasks()) == 17
    spec = env.grader.spec  # type: ignore[attr-defined]
    assert spec.answer_command and spec.report == "junit-xml"


def test_a_cause_every_failure_shares_is_in_the_reason() -> None:
    """An answer's JVM that ended fails every later call the same way: the reason says so."""
    gone = "the answer ended its JVM (System.exit, Runtime.halt or a crash) during f(...)"
    tests = [TestOutcome(name="A.a()", outcome="failed", message=gone + "\nrlvr.Answer..."),
             TestOutcome(name="A.b()", outcome="failed", message=gone),
             TestOutcome(name="A.c()", outcome="passed")]  # fmt: skip
    v = score_outcomes(tests, 3, None, "all_pass", {})
    assert v.reason.endswith("; every failure: " + gone), v.reason
    tests[1] = TestOutcome(name="A.b()", outcome="failed", message="expected: <1> but was: <2>")
    assert "every failure" not in score_outcomes(tests, 3, None, "all_pass", {}).reason


@pytest.fixture(scope="module")
def env() -> Environment:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1")
    from rlvr.sandbox.images import build_stack

    build_stack(ROOT / "envs" / "java")
    return env_from_manifest(ROOT / "envs" / "java-tests")


def test_reference_wrong_forged_exiting_and_broken_answers(env: Environment) -> None:
    task = next(t for t in env.tasks() if t.id == "java-fizzbuzz")
    answers = {"reference": task.reference or "", "wrong": WRONG, "forge": FORGE,
               "exits": EXITS, "broken": BROKEN, "flood": FLOOD}  # fmt: skip
    verdicts = env.grade(task, [f"```java\n{a}```" for a in answers.values()])
    got = dict(zip(answers, verdicts, strict=True))
    assert got["reference"].reward == 1.0, got["reference"].reason
    assert sorted(t.name for t in got["reference"].tests) == sorted(task.meta["test_names"])
    for name in ("wrong", "forge", "exits", "broken", "flood"):
        v = got[name]
        assert v.is_scored and v.reward == 0.0 and v.cause == "tests_failed", (name, v.reason)
    assert "the answer ended its JVM" in got["exits"].reason, got["exits"].reason
    assert "before any test ran" not in got["exits"].reason
    assert "does not compile" in got["broken"].reason, got["broken"].reason
    assert "sent a reply over 16 MiB" in got["flood"].reason, got["flood"].reason
    assert any(t.outcome == "passed" for t in got["wrong"].tests)  # its zero is the tests' own
