"""Register a new stack without touching rlvr's code, end to end (the envs/README.md walkthrough).

A `bash` stack is written to a temporary folder: env.toml, a Dockerfile that copies the stack's
test harness into the image, a report adapter in report.py, and a task file kept outside the
env folder (the build context). Then: discover it through RLVR_ENV_PATH, validate it, build its
image with rlvr's build function, and grade a reference (passes), a wrong answer and an
`exit 0` answer (both fail). A second test registers a report adapter and a whole environment
through the `rlvr.report_adapters` / `rlvr.envs` entry points of an installed distribution.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rlvr.discovery import discover
from rlvr.registry import load_env, validate_env_folder
from rlvr.sandbox.reports import ReportInput, get_report_adapter

ENV_NAME = "bash-functions"
ENV_TOML = """
name = "bash-functions"
description = "Bash functions graded by a tiny test harness."

[tasks]
path = "../../data/tasks.jsonl"

[prompt]
template = "{prompt}\\n\\nReply with the complete solution.sh in one ```bash block."

[grader]
kind = "code"

[grader.options]
language = ["bash", "sh"]

[sandbox]
image = "rlvr-test-bash:bookworm"
answer_file = "solution.sh"
test_files = { public = "public_test.sh", hidden = "hidden_test.sh" }
test_command = ["bash", "/usr/local/share/rlvr-bash/run-tests.sh", "{answer}", "{tests}"]
report = "report.py:parse"
timeout_s = 20
memory_mb = 256
"""
DOCKERFILE = """
ARG BASE=rlvr-base:bookworm
FROM ${BASE}
COPY run-tests.sh /usr/local/share/rlvr-bash/run-tests.sh
"""
# Each test runs in a fresh bash with its output discarded; it passes only when that bash exits
# with a code the harness picked for it, so an `exit 0` in the solution does not pass.
HARNESS = r"""#!/bin/bash
solution="$1"; shift
for file in "$@"; do
  for name in $(grep -oE '^test_[A-Za-z0-9_]+' "$file"); do
    code=$(( RANDOM % 200 + 20 ))
    timeout 5 bash -c 'source "./$1"; source "./$2" && "$3" && exit '"$code"'; exit 1' \
      _ "$solution" "$file" "$name" </dev/null >/dev/null 2>&1
    if [ $? -eq "$code" ]; then echo "ok $name"; else echo "not ok $name"; fi
  done
done
"""
REPORT_PY = '''
"""Report adapter of the bash stack: the harness's `ok NAME` / `not ok NAME` lines."""
import re

from rlvr.sandbox.reports import ReportInput, TestOutcome

LINE = re.compile(r"^(ok|not ok) (test_\\w+)$")


def parse(inp: ReportInput) -> list[TestOutcome]:
    out = []
    for line in (inp.report or "").splitlines():
        m = LINE.match(line)
        if m:
            passed = m.group(1) == "ok"
            out.append(TestOutcome(name=m.group(2), outcome="passed" if passed else "failed"))
    return out


def count_tests(source: str) -> int | None:
    return len(re.findall(r"^test_\\w+", source, re.M)) or None
'''
TASKS = [
    {
        "id": "bash-add",
        "prompt": "Define a bash function `add A B` that prints the sum of two integers.",
        "reference": "add() { echo $(( $1 + $2 )); }\n",
        "public_tests": 'test_add_small() { [ "$(add 1 2)" = 3 ]; }\n',
        "hidden_tests": 'test_add_negative() { [ "$(add -4 1)" = -3 ]; }\n'
        'test_add_zero() { [ "$(add 0 0)" = 0 ]; }\n',
        "entry_point": "add",
        "meta": {"test_names": ["test_add_small", "test_add_negative", "test_add_zero"]},
    },
    {
        "id": "bash-shout",
        "prompt": "Define a bash function `shout WORDS...` that prints its arguments upper-cased.",
        "reference": 'shout() { echo "$*" | tr "[:lower:]" "[:upper:]"; }\n',
        "public_tests": 'test_shout_word() { [ "$(shout hi)" = HI ]; }\n',
        "hidden_tests": 'test_shout_words() { [ "$(shout a b)" = "A B" ]; }\n',
        "entry_point": "shout",
        "meta": {"n_public": 1, "n_hidden": 1},
    },
]


def write_stack(root: Path) -> Path:
    """The env folder under root/stacks/bash and its tasks under root/data (not in the context)."""
    folder = root / "stacks" / "bash"
    folder.mkdir(parents=True)
    (folder / "env.toml").write_text(ENV_TOML, encoding="utf-8")
    (folder / "Dockerfile").write_text(DOCKERFILE, encoding="utf-8")
    (folder / "run-tests.sh").write_text(HARNESS, encoding="utf-8")
    (folder / "report.py").write_text(REPORT_PY, encoding="utf-8")
    (root / "data").mkdir()
    lines = "".join(json.dumps(t) + "\n" for t in TASKS)
    (root / "data" / "tasks.jsonl").write_text(lines, encoding="utf-8")
    return folder


def test_a_new_stack_from_a_folder_end_to_end(tmp_path: Path, monkeypatch) -> None:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1")
    from rlvr.errors import SandboxError
    from rlvr.sandbox.client import get_client
    from rlvr.sandbox.images import build_stack

    try:
        get_client()
    except SandboxError as e:
        pytest.fail(f"this test needs Docker: {e}; set RLVR_SKIP_DOCKER=1 to skip it")
    folder = write_stack(tmp_path)
    monkeypatch.setenv("RLVR_ENV_PATH", str(tmp_path / "stacks"))

    assert discover()[ENV_NAME].folder == folder
    assert len(validate_env_folder(folder).tasks()) == 2
    result = build_stack(folder)
    assert result.image == "rlvr-test-bash:bookworm"
    assert build_stack(folder).reason == "up to date"  # cached by content hash

    env = load_env(ENV_NAME)
    add, shout = env.tasks()
    answers = [
        f"```bash\n{add.reference}```",
        "```bash\nadd() { echo $(( $1 - $2 )); }\n```",
        "```bash\necho 'ok test_add_small'\nexit 0\n```",
        "no code at all",
    ]
    right, wrong, early_exit, missing = env.grade(add, answers)
    assert right.passed and right.reward == 1.0, right.reason
    assert sorted(t.name for t in right.tests) == sorted(add.meta["test_names"])
    assert wrong.status == "scored" and wrong.reward == 0.0
    assert wrong.details["passed"] == 1  # add(0, 0) is right by accident; the rest fail
    assert early_exit.reward == 0.0 and early_exit.details["passed"] == 0
    assert missing.reward == 0.0 and "no code block" in missing.reason
    (shout_v,) = env.grade(shout, [f"```sh\n{shout.reference}```"])
    assert shout_v.passed, shout_v.reason  # expected count from meta.n_public + n_hidden


ENTRY_POINTS = """
[rlvr.report_adapters]
bash-lines = rlvr_bash_stack:BashLines

[rlvr.envs]
bash-packaged = rlvr_bash_stack:ENV_FOLDER
bash-factory = rlvr_bash_stack:make_env
"""
PACKAGE = '''
"""A third-party package publishing a bash environment and its report adapter."""
from pathlib import Path

from rlvr.sandbox.reports import ReportInput, TestOutcome

ENV_FOLDER = str(Path(__file__).resolve().parent / "bash_env")


def make_env(**overrides):
    """A factory entry point: listing or building images must never call it."""
    raise AssertionError("the factory was called")


class BashLines:
    """An adapter object: parse plus count_tests."""

    @staticmethod
    def parse(inp: ReportInput) -> list[TestOutcome]:
        lines = [x for x in (inp.report or "").splitlines() if x.startswith(("ok ", "not ok "))]
        return [
            TestOutcome(name=x.split()[-1], outcome="passed" if x.startswith("ok") else "failed")
            for x in lines
        ]

    @staticmethod
    def count_tests(source: str) -> int | None:
        return source.count("test_") or None
'''


def test_a_package_registers_an_adapter_and_an_env_by_entry_points(
    tmp_path: Path, monkeypatch
) -> None:
    site = tmp_path / "site"
    dist = site / "rlvr_bash_stack-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: rlvr-bash-stack\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS)
    (site / "rlvr_bash_stack.py").write_text(PACKAGE)
    folder = write_stack(tmp_path / "pkg")
    env_folder = site / "bash_env"
    folder.rename(env_folder)
    manifest = (env_folder / "env.toml").read_text()
    manifest = manifest.replace('name = "bash-functions"', 'name = "bash-packaged"')
    manifest = manifest.replace('"report.py:parse"', '"bash-lines"')
    manifest = manifest.replace(
        "../../data/tasks.jsonl", str(tmp_path / "pkg" / "data" / "tasks.jsonl")
    )
    (env_folder / "env.toml").write_text(manifest)
    monkeypatch.syspath_prepend(str(site))

    adapter = get_report_adapter("bash-lines")
    got = adapter.parse(ReportInput(report="ok test_a\nnot ok test_b\nnoise\n"))
    assert [(t.name, t.outcome) for t in got] == [("test_a", "passed"), ("test_b", "failed")]
    assert adapter.count_tests is not None and adapter.count_tests("test_a() { :; }") == 1

    assert discover()["bash-packaged"].kind == "entry-point"
    env = load_env("bash-packaged")
    assert [t.id for t in env.tasks()] == ["bash-add", "bash-shout"]
    assert env.grader.adapter.parse is adapter.parse  # type: ignore[attr-defined]
    assert env.format_prompt(env.tasks()[0]).endswith("in one ```bash block.")

    # `rlvr sandbox build bash-packaged` finds the folder; the factory stays out, uncalled
    from rlvr.discovery import sandbox_envs

    buildable = sandbox_envs()
    assert buildable["bash-packaged"] == env_folder.resolve()
    assert "bash-factory" not in buildable and discover()["bash-factory"].kind == "entry-point"


# --- a stack whose test tool writes JUnit XML, registered and used only through the CLI -------

JUNIT_TOML = """
name = "NAME"
description = "Python functions graded by pytest's JUnit XML report."

[tasks]
path = "../../junit-data/TASKS"

[prompt]
template = "{prompt}\\n\\nReply with solution.py in one ```pyj block."

[grader]
kind = "code"

[grader.options]
language = ["pyj", "python"]      # a fence tag the audits have no syntax for

[sandbox]
image = "IMAGE"
answer_file = "solution.py"
test_files = { public = "test_public.py", hidden = "test_hidden.py" }
files = { "run-tests.sh" = "run-tests.sh" }
test_command = ["sh", "run-tests.sh"]
report = "ADAPTER"
report_from = "file"
report_file = "{scratch}/report.xml"
timeout_s = 30
memory_mb = 256

[sandbox.env]
REPORT = "{report_file}"
"""
JUNIT_DOCKERFILE = "FROM rlvr-python:bookworm\n"
# Like a compiled stack: check that every file compiles, then run the tests.
JUNIT_RUN = """python3 -c 'import ast, sys
for f in sys.argv[1:]: ast.parse(open(f).read(), f)' solution.py test_public.py test_hidden.py \\
  || exit 3
exec python3 -m pytest -q -p no:cacheprovider --junitxml="$REPORT" test_public.py test_hidden.py
"""
RAISING_ADAPTER = "def parse(inp):\n    raise KeyError('testsuite')\n"
JUNIT_TASKS = [
    {
        "id": "add",
        "prompt": "Write `add(a, b)`.",
        "reference": "def add(a, b):\n    if a < 0:\n        return b + a\n    return a + b\n",
        "public_tests": "from solution import add\n\n"
        "def test_small():\n    assert add(1, 2) == 3\n",
        "hidden_tests": "from solution import add\n\ndef test_zero():\n    assert add(0, 0) == 0\n"
        "\ndef test_negative():\n    assert add(-4, 1) == -3\n",
        "entry_point": "add",
        "meta": {
            "test_names": [
                "test_public.test_small",
                "test_hidden.test_zero",
                "test_hidden.test_negative",
            ]
        },
    }
]
BROKEN_TASK = {
    **JUNIT_TASKS[0],
    "id": "broken-hidden",
    "hidden_tests": "from solution import add\n\ndef test_zero(:\n    assert add(0, 0) == 0\n",
}


def write_junit_stacks(root: Path) -> Path:
    """Three stacks in root/stacks: a good one, one whose tasks include a hidden test file that
    does not compile, one whose report adapter raises; plus one whose image was never built."""
    data = root / "junit-data"
    data.mkdir(parents=True)
    (data / "good.jsonl").write_text(json.dumps(JUNIT_TASKS[0]) + "\n")
    (data / "broken.jsonl").write_text(json.dumps(JUNIT_TASKS[0]) + "\n" + json.dumps(BROKEN_TASK))
    variants = {
        "pyj": ("good.jsonl", "junit-xml", "rlvr-test-pyj:bookworm"),
        "pyj-broken": ("broken.jsonl", "junit-xml", "rlvr-test-pyj:bookworm"),
        "pyj-raising": ("good.jsonl", "raising.py:parse", "rlvr-test-pyj:bookworm"),
        "pyj-unbuilt": ("good.jsonl", "junit-xml", "rlvr-test-pyj-never-built:bookworm"),
    }
    for name, (tasks, report, image) in variants.items():
        folder = root / "stacks" / name
        folder.mkdir(parents=True)
        manifest = JUNIT_TOML.replace("NAME", name).replace("TASKS", tasks)
        (folder / "env.toml").write_text(
            manifest.replace("ADAPTER", report).replace("IMAGE", image)
        )
        (folder / "Dockerfile").write_text(JUNIT_DOCKERFILE)
        (folder / "run-tests.sh").write_text(JUNIT_RUN)
        (folder / "raising.py").write_text(RAISING_ADAPTER)
    return root / "stacks"


def rlvr_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "RLVR_ENV_PATH"}
    return subprocess.run([sys.executable, "-m", "rlvr.cli", *args], capture_output=True,
                          text=True, env=env)  # fmt: skip


def test_a_junit_xml_stack_through_the_cli(tmp_path: Path) -> None:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1")
    stacks = write_junit_stacks(tmp_path)
    good = str(stacks / "pyj")

    done = rlvr_cli("sandbox", "build", "pyj", "--env-path", good)
    assert done.returncode == 0, done.stderr
    done = rlvr_cli("envs", "validate", "--references", "pyj", "--env-path", good)
    assert done.returncode == 0, done.stderr
    assert "all 1 reference solutions pass" in done.stderr

    ref = JUNIT_TASKS[0]["reference"]
    answers = tmp_path / "answers.jsonl"
    answers.write_text("".join(json.dumps({"task_id": "add", "completion": c}) + "\n" for c in [
        f"```pyj\n{ref}```",
        "```pyj\ndef add(a, b):\n    return a - b\n```",
        "```pyj\ndef add(a, b)\n    return a + b\n```",  # does not compile
        "```pyj\nimport os\n\ndef add(a, b):\n    os._exit(0)\n```",  # ends the test process
    ]))  # fmt: skip
    done = rlvr_cli("grade", "--env", "pyj", "--answers", str(answers), "--env-path", good)
    assert done.returncode == 0, done.stderr
    right, wrong, broken, ended = [json.loads(x) for x in done.stdout.splitlines()]
    assert right["passed"] and right["reward"] == 1.0, right
    assert wrong["status"] == "scored" and wrong["reward"] == 0.0
    assert [t["name"] for t in wrong["details"]["tests"]] == JUNIT_TASKS[0]["meta"]["test_names"]
    assert broken["status"] == "scored" and broken["reward"] == 0.0
    assert broken["reason"].startswith("the test command ended before any test ran")
    assert "so the answer broke the build or the runner" in broken["reason"]
    assert (ended["status"], ended["reward"]) == ("scored", 0.0)
    assert ended["reason"].startswith(
        "the answer ended the test process before any test result was written (the test "
        "command exited with status 0 yet wrote no test result; the task's reference runs its "
        "tests)"
    ), ended["reason"]

    out = tmp_path / "audit"
    done = rlvr_cli("audit", "graders", "--env", "pyj", "--out", str(out), "--env-path", good)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["language"] == "text" and summary["reference_failed"] == 0
    assert summary["mutants"] > 0 and summary["mutants_killed"] > 0
    flat = " ".join(done.stderr.split())
    assert "checks that ran (text): reference passes; trivial answers fail" in flat
    assert 'audit_language = "javascript"' in flat
    assert "Checks that ran (text)" in (out / "report.html").read_text()


def test_junit_stack_mistakes_have_messages(tmp_path: Path) -> None:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1")
    stacks = write_junit_stacks(tmp_path)
    assert rlvr_cli("sandbox", "build", "pyj", "--env-path", str(stacks / "pyj")).returncode == 0

    # a hidden test file that does not compile: the reference check names the task and why
    done = rlvr_cli("envs", "validate", "--references", "pyj-broken", "--env-path", str(stacks))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "FAIL broken-hidden: [grader_error] the test command ended before any test ran" in (
        done.stderr
    )
    assert "the task's reference fails the same way" in done.stderr
    assert "1 of 2 reference solutions do not pass (first: broken-hidden" in done.stderr

    # a report adapter that raises: grader_error with the exception type and the traceback
    answers = tmp_path / "answers.jsonl"
    ref = JUNIT_TASKS[0]["reference"]
    answers.write_text(json.dumps({"task_id": "add", "completion": f"```pyj\n{ref}```"}) + "\n")
    done = rlvr_cli("grade", "--env", "pyj-raising", "--answers", str(answers),
                    "--env-path", str(stacks))  # fmt: skip
    (row,) = [json.loads(x) for x in done.stdout.splitlines()]
    assert row["status"] == "grader_error"
    assert row["reason"] == "report adapter 'raising.py:parse' raised KeyError: 'testsuite'"
    assert "Traceback (most recent call last)" in row["details"]["traceback"]
    assert "raise KeyError('testsuite')" in row["details"]["traceback"]

    # an image that was never built: the fix is the exact command, with the env path
    done = rlvr_cli("grade", "--env", "pyj-unbuilt", "--answers", str(answers),
                    "--env-path", str(stacks))  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr
    flat = " ".join(done.stderr.split())
    assert "sandbox image 'rlvr-test-pyj-never-built:bookworm' is not built" in flat
    assert f"rlvr sandbox build pyj-unbuilt --env-path {(stacks / 'pyj-unbuilt').resolve()}" in (
        flat
    )
    done = rlvr_cli("sandbox", "doctor", "--json", "--env-path", str(stacks))
    checks = {c["check"]: c for c in map(json.loads, done.stdout.splitlines())}
    unbuilt = checks["env pyj-unbuilt (rlvr-test-pyj-never-built:bookworm)"]
    assert not unbuilt["ok"]
    assert unbuilt["fix"] == f"rlvr sandbox build pyj-unbuilt --env-path {stacks / 'pyj-unbuilt'}"


BASH_TRANSLATOR = r'''
"""Function-task translator for bash: a function reading its arguments, printing its result.

Only int, str and list[str] arguments and int or str results; the driver is a Python script
that runs each case in a fresh bash (`source solution.sh; f ARGS...`), so the answer never
shares a process with it. The arguments travel in a file of their own, cases.json (envs/README.md,
"Large cases"), so no literal in the driver grows with a case.
"""
import json
import re

from rlvr.functions.render import commented, doc_text, driver_cases_json, signature_types

STACK = "bash"
LANGUAGES = ["bash", "sh"]
SANDBOX = {"answer_file": "solution.sh", "writable_workspace": True,
           "test_command": ["python3", "-I", "driver.py"]}


def unsupported(task):
    params, ret = signature_types(task)
    if any(str(t) not in ("int", "str", "list[str]") for t in params):
        return "bash functions take int, str and list[str] arguments only"
    return None if str(ret) in ("int", "str") else "bash functions return int or str only"


def entry_name(task):
    return task.entry_point


def type_name(t):
    return {"int": "integer", "str": "word", "list[str]": "words..."}.get(str(t), str(t))


def literal(t, value):
    items = value if isinstance(value, list) else [value]
    return " ".join(json.dumps(str(v)) for v in items)


def prompt(task):
    params, ret = signature_types(task)
    names = [p.name.upper() for p in task.signature.params]
    usage = " ".join(f"{n}({type_name(t)})" for n, t in zip(names, params))
    lines = [*doc_text(task), "", f"Usage: {task.entry_point} {usage}; prints a {type_name(ret)}."]
    return commented(lines, "# ") + f"\n{task.entry_point}() {{\n"


def stub(task):
    return f"{task.entry_point}() {{\n  return 1\n}}\n"


def program(task, completion):
    m = re.findall(r"```(?:bash|sh)?\n(.*?)```", completion, re.S)
    return m[-1] if m else None


DRIVER = """import json, subprocess, sys
sys.stdout.write("\\n@@RLVR-READY\\n"); sys.stdout.flush()
NAME, RET = %r, %r
with open("cases.json", encoding="utf-8") as f:
    CASES = json.load(f)
for i, args in enumerate(CASES):
    argv = [str(x) for a in args for x in (a if isinstance(a, list) else [a])]
    try:
        p = subprocess.run(["bash", "-c", 'source ./solution.sh && "$0" "$@"', NAME, *argv],
                           capture_output=True, text=True, timeout=5)
        out = p.stdout.rstrip("\\n")
        if p.returncode != 0:
            line = {"case": i, "ok": False, "error": "exit status %%d" %% p.returncode}
        else:
            line = {"case": i, "ok": True, "value": int(out) if RET == "int" else out}
    except Exception as e:
        line = {"case": i, "ok": False, "error": repr(e)[:300]}
    sys.stdout.write("\\n@@RLVR-CASE " + json.dumps(line) + "\\n"); sys.stdout.flush()
"""


def driver(task):
    _, ret = signature_types(task)
    return {"driver.py": DRIVER % (task.entry_point, str(ret)),
            "cases.json": driver_cases_json(task)}
'''
BASH_STACK_TOML = """
name = "bash"
description = "Bash functions (function tasks only; the driver needs nothing but the base image)."

[tasks]
path = "../../data/none.jsonl"

[grader]
kind = "function"

[grader.options]
stack = "bash"

[sandbox]
image = "rlvr-base:bookworm"
timeout_s = 20
memory_mb = 256
"""
BASH_FN_TASKS = [
    {"id": "bash/add", "entry_point": "add",
     "signature": {"params": [{"name": "a", "type": "int"}, {"name": "b", "type": "int"}],
                   "returns": "int"},
     "docstring": "Print the sum of a and b.",
     "references": {"bash": "add() { echo $(( $1 + $2 )); }\n"},
     "public_cases": [{"args": [1, 2], "expected": 3}],
     "hidden_cases": [{"args": [-4, 4], "expected": 0}, {"args": [20, 22], "expected": 42}]},
    {"id": "bash/shout", "entry_point": "shout",
     "signature": {"params": [{"name": "words", "type": "list[str]"}], "returns": "str"},
     "docstring": "Print the words upper-cased, separated by one space.",
     "references": {"bash": 'shout() { echo "$*" | tr "[:lower:]" "[:upper:]"; }\n'},
     "hidden_cases": [{"args": [["hi"]], "expected": "HI"},
                      {"args": [["a", "b"]], "expected": "A B"},
                      {"args": [["ab"] * 10_000], "expected": " ".join(["AB"] * 10_000)}]},
    {"id": "bash/mean", "entry_point": "mean",
     "signature": {"params": [{"name": "xs", "type": "list[float]"}], "returns": "float"},
     "docstring": "Not expressible in this bash stack.",
     "hidden_cases": [{"args": [[1.0]], "expected": 1.0}]},
]  # fmt: skip


def test_a_new_stack_gets_function_tasks_by_adding_its_translator(
    tmp_path: Path, monkeypatch
) -> None:
    """envs/README.md, 'A new stack gets function tasks': a translator in the stack's folder and
    an environment over a task file; rlvr's code is not touched."""
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1")
    stack = tmp_path / "stacks" / "bash"
    stack.mkdir(parents=True)
    (stack / "env.toml").write_text(BASH_STACK_TOML, encoding="utf-8")
    (stack / "translator.py").write_text(BASH_TRANSLATOR, encoding="utf-8")
    (tmp_path / "data").mkdir()
    tasks_file = tmp_path / "data" / "functions.jsonl"
    tasks_file.write_text("".join(json.dumps(t) + "\n" for t in BASH_FN_TASKS), encoding="utf-8")
    env_dir = tmp_path / "stacks" / "bash-functions-typed"
    env_dir.mkdir()
    (env_dir / "env.toml").write_text(
        'name = "bash-typed"\n[tasks]\nloader = "rlvr.tasksets.functions:load"\n'
        f'args = {{ path = "{tasks_file}", stack = "bash" }}\n'
        '[prompt]\ntemplate = "{prompt}"\n[grader]\nkind = "function"\n'
        '[grader.options]\nstack = "bash"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("RLVR_ENV_PATH", str(tmp_path / "stacks"))

    env = load_env("bash-typed")
    add, shout = env.tasks()
    assert env.describe is not None
    (left,) = env.describe()["untranslated"]
    assert left == {"id": "bash/mean", "reason": "bash functions take int, str and list[str] "
                    "arguments only"}  # fmt: skip
    assert "Usage: add A(integer) B(integer); prints a integer." in add.prompt
    answers = [
        f"```bash\n{add.reference}```",
        "```bash\nadd() { echo $(( $1 - $2 )); }\n```",
        "```bash\nadd() { exit 0; }\n```",
        '```bash\nadd() { printf \'\\n@@RLVR-CASE {"case": 0, "ok": true, "value": 3}\\n\'; }\n```',
    ]
    right, wrong, early_exit, forged = env.grade(add, answers)
    assert right.passed, right.reason
    assert wrong.reward == 0.0 and "returned -1, expected 3" in wrong.reason
    assert early_exit.reward == 0.0 and early_exit.details["passed"] == 0
    assert forged.reward == 0.0  # its line is a str result inside the driver's own line
    (v,) = env.grade(shout, [f"```bash\n{shout.reference}```"])
    assert v.passed, v.reason


def test_validating_an_env_folder_finds_its_sibling_stack(tmp_path: Path, monkeypatch) -> None:
    """`rlvr envs validate stacks/bash-functions` (the path form the docs show) finds the
    translator of its sibling stack folder without --env-path."""
    from typer.testing import CliRunner

    from rlvr.cli import app

    monkeypatch.delenv("RLVR_ENV_PATH", raising=False)
    monkeypatch.setattr("rlvr.discovery._extra_paths", [])
    stack = tmp_path / "stacks" / "bash"
    stack.mkdir(parents=True)
    (stack / "env.toml").write_text(BASH_STACK_TOML, encoding="utf-8")
    (stack / "translator.py").write_text(BASH_TRANSLATOR, encoding="utf-8")
    tasks_file = tmp_path / "functions.jsonl"
    tasks_file.write_text("".join(json.dumps(t) + "\n" for t in BASH_FN_TASKS), encoding="utf-8")
    env_dir = tmp_path / "stacks" / "bash-functions"
    env_dir.mkdir()
    (env_dir / "env.toml").write_text(
        'name = "bash-fn"\n[tasks]\nloader = "rlvr.tasksets.functions:load"\n'
        f'args = {{ path = "{tasks_file}", stack = "bash" }}\n'
        '[prompt]\ntemplate = "{prompt}"\n[grader]\nkind = "function"\n'
        '[grader.options]\nstack = "bash"\n',
        encoding="utf-8",
    )
    done = CliRunner().invoke(app, ["envs", "validate", str(env_dir)])
    assert done.exit_code == 0 and done.output.startswith("ok: bash-fn"), done.output
