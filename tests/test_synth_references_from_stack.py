"""Synth references that come with a stack folder: rendered from the Python reference.

The synth families write references for four stacks inside rlvr; any other stack renders its
own from the Python one through its translator's optional `reference_from_python` (envs/java
does). That only works while the families' Python stays in the subset written down in
rlvr/functions/pysubset.py, so the first test fails as soon as a family writes anything else.
"""

from __future__ import annotations

import collections
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from rlvr import load_env
from rlvr.functions.pysubset import BUILTINS, METHODS, NODES, outside, survey
from rlvr.functions.task import read_function_tasks
from rlvr.functions.translator import load_translator
from rlvr.references import check_references
from rlvr.tasksets.functions import datasets_dir

SYNTH = datasets_dir() / "synth" / "functions.jsonl"
ENVS = Path(__file__).resolve().parents[1] / "envs"


@pytest.fixture(scope="module")
def synth_tasks() -> list:
    return read_function_tasks(SYNTH)


def test_every_synth_python_reference_stays_in_the_subset(synth_tasks: list) -> None:
    """A family that starts using a new construct must extend the subset (and the renderers)."""
    used, out = survey({t.id: t.references["python"] for t in synth_tasks})
    assert out == {}, f"outside rlvr/functions/pysubset.py's subset: {dict(list(out.items())[:5])}"
    allowed = NODES | {f"{b}()" for b in BUILTINS} | {f".{m}()" for m in METHODS}
    assert set(used) <= allowed
    assert {"FloorDiv", "Mod", "Slice", "GeneratorExp", "abs()", ".join()"} <= set(used)


def test_the_checker_names_what_falls_outside() -> None:
    source = (
        "import math\ndef f(x: int) -> int:\n    print(x)\n    return x ** 2 + x.bit_length()\n"
    )
    assert outside(source) == [".bit_length()", "Import", "Pow", "alias", "print()"]
    assert outside("def f(xs: list[int]) -> int:\n    return sum(xs) // 2\n") == []


def test_every_synth_task_renders_in_java(synth_tasks: list) -> None:
    java = load_translator("java")
    missing = [
        t.id for t in synth_tasks if java.reference_from_python(t, t.references["python"]) is None
    ]
    assert missing == []


def test_java_rendering_keeps_pythons_meaning(synth_tasks: list) -> None:
    """Floor division and modulo, boxed equality, `out or str(n)`, chained comparisons."""
    java = load_translator("java")
    by_id = {t.id: t for t in synth_tasks}

    def code(task_id: str) -> str:
        return java.reference_from_python(by_id[task_id], by_id[task_id].references["python"])

    digits = code("synth/digits-0083d5535b")
    assert "Math.floorMod(n, 10)" in digits and "Math.floorDiv(n, 10)" in digits
    assert "xs.get(i - 1).equals(xs.get(i))" in code("synth/longest_run-ebcb3c577a")
    assert "if (-4 <= x && x <= 2) {" in code("synth/filter_list-757967e766")
    fizz = next(t.id for t in synth_tasks if t.meta["family"] == "fizz")
    assert "return out.isEmpty() ? String.valueOf(n) : out;" in code(fizz)
    assert re.search(r"if \(n % \d+ == 0\) \{", code(fizz))  # compared with 0: same zeros
    tally = next(t.id for t in synth_tasks if t.meta["family"] == "tally")
    assert "Map<String, Long> out = new LinkedHashMap<>();" in code(tally)
    assert java.reference_from_python(by_id[fizz], "import os\n") is None


def test_one_rendered_reference_per_family_passes_in_the_sandbox(synth_tasks: list) -> None:
    """One batch through the real java sandbox (about a minute on a loaded 2-core machine)."""
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1")
    env = load_env("synth-java")
    by_family: dict[str, object] = {}
    for t in env.tasks():
        by_family.setdefault(t.meta["tags"][0], t)
    assert len(by_family) == len({t.meta["family"] for t in synth_tasks}) == 43
    rows = check_references(env, tasks=list(by_family.values()))
    failed = [(r.task_id, r.reason) for r in rows if not r.passed]
    assert failed == []


def test_a_stack_from_a_temp_folder_gets_synth_references_through_the_hook(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stack rlvr has never seen ("jv", a copy of envs/java's files) gets `synth-jv`
    references without any file per task: the loader asks its translator to render them."""
    stack = tmp_path / "stacks" / "jv"
    stack.mkdir(parents=True)
    for f in (ENVS / "java").glob("*.py"):
        text = f.read_text("utf-8")
        (stack / f.name).write_text(text.replace('STACK = "java"', 'STACK = "jv"'), "utf-8")
    shutil.copy(ENVS / "java" / "env.toml", stack / "env.toml")
    toml = (stack / "env.toml").read_text("utf-8").replace('name = "java"', 'name = "jv"')
    (stack / "env.toml").write_text(toml.replace('stack = "java"', 'stack = "jv"'), "utf-8")
    few = tmp_path / "few.jsonl"
    by_family = collections.OrderedDict()
    for line in SYNTH.read_text("utf-8").splitlines():
        by_family.setdefault(json.loads(line)["meta"]["family"], line)
    few.write_text("\n".join(list(by_family.values())[:3]) + "\n", "utf-8")
    synth = tmp_path / "stacks" / "synth-jv"
    synth.mkdir()
    (synth / "env.toml").write_text(
        'name = "synth-jv"\n[tasks]\nloader = "rlvr.tasksets.functions:load"\n'
        f'args = {{ path = "{few}", stack = "jv" }}\n'
        '[prompt]\ntemplate = "{prompt}"\n[grader]\nkind = "function"\n'
        '[grader.options]\nstack = "jv"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("RLVR_ENV_PATH", str(tmp_path / "stacks"))
    env = load_env("synth-jv")
    tasks = env.tasks()
    assert len(tasks) == 3 and all(t.meta["stack"] == "jv" for t in tasks)
    assert all(t.reference and "class Solution" in t.reference for t in tasks)
    assert env.describe is not None and env.describe()["missing_references"] == []
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        return
    rows = check_references(env)
    assert [r.passed for r in rows] == [True] * 3, [r.reason for r in rows]
