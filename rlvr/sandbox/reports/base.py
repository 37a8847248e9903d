"""Report adapters: turn what a stack's test tool wrote into one outcome per test.

An adapter is a pure host-side function `parse(ReportInput) -> list[TestOutcome]`, optionally
with `count_tests(source) -> int | None` (how many tests one test file defines). Adapters only
parse; the code grader decides (only "passed" passes, counts and names must match). Sources, all
equal: the built-ins, `@register_report_adapter`, the `rlvr.report_adapters` entry-point
group, a "package.module:function" reference, or "file.py:function" in the env folder.

Built-ins: "pytest" (rlvr's own plugin, nonce-signed lines on a pipe the answer never sees the
key of) here; "tap" (node --test), "go-test-json" (test2json) and "cargo-test" (libtest) in
stacks.py; "go-test-v" and "nonce-lines" in signed.py; "junit-xml" (GoogleTest, JUnit, pytest
--junitxml, Catch2, ...) in junit.py. Those modules import this one and register themselves;
the package's `__init__` imports them all, so importing `rlvr.sandbox.reports` loads every
built-in.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

from pydantic import BaseModel

from rlvr.errors import ManifestError
from rlvr.named import Registry
from rlvr.pyast import parse as parse_python
from rlvr.types import TestOutcome, TestStatus

ENTRY_POINT_GROUP = "rlvr.report_adapters"
Outcome = TestStatus  # what an adapter may report per test (rlvr.types.TestOutcome)


class ReportInput(BaseModel):
    """Everything an adapter may read about one run."""

    stdout: str = ""
    stderr: str = ""
    report: str | None = None
    exit_code: int | None = None
    nonce: str = ""


Parse = Callable[[ReportInput], list[TestOutcome]]
Count = Callable[[str], "int | None"]


@dataclass(frozen=True)
class ReportAdapter:
    """A named parser and, optionally, a test counter for one stack's test files."""

    name: str
    parse: Parse
    count_tests: Count | None = None


ADAPTERS: Registry[list[TestOutcome]] = Registry("report adapter")
_COUNTERS: dict[str, Count] = {}


def register_report_adapter(
    name: str, count_tests: Count | None = None
) -> Callable[[Parse], Parse]:
    """Decorate a parse function to make `name` usable as `sandbox.report` in manifests.

    A name can be registered once (`rlvr.named.Registry`): a second adapter under a taken name
    is refused rather than silently replacing the first, which would change how every stack
    using it is graded.
    """
    register = ADAPTERS.register(name)

    def deco(parse: Parse) -> Parse:
        register(parse)
        if count_tests is not None:
            _COUNTERS[name] = count_tests
        return parse

    return deco


def _from_object(name: str, obj: object, where: str) -> ReportAdapter:
    if hasattr(obj, "parse"):
        return ReportAdapter(name, obj.parse, getattr(obj, "count_tests", None))  # type: ignore[attr-defined]
    if callable(obj):
        return ReportAdapter(name, obj)  # type: ignore[arg-type]
    raise ManifestError(
        f"{where}: report adapter {name!r} is a {type(obj).__name__}",
        "point it at a parse(ReportInput) function or an object with .parse",
    )


def _from_file(ref: str, env_dir: Path) -> ReportAdapter:
    file, _, func = ref.partition(":")
    path = (env_dir / file).resolve()
    if not path.is_file():
        raise ManifestError(
            f"{env_dir / 'env.toml'}: sandbox.report {ref!r}: {path} does not exist",
            "add the file to the environment folder or fix the name",
        )
    spec = importlib.util.spec_from_file_location(f"rlvr_report_{env_dir.name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not hasattr(module, func):
        raise ManifestError(f"{path} has no function {func!r}", "define it or fix sandbox.report")
    return ReportAdapter(ref, getattr(module, func), getattr(module, "count_tests", None))


def get_report_adapter(ref: str, env_dir: str | Path | None = None) -> ReportAdapter:
    """Resolve `sandbox.report`: built-in / registered name, entry point, module or file ref."""
    if ref in ADAPTERS:
        return ReportAdapter(ref, ADAPTERS[ref], _COUNTERS.get(ref))
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == ref:
            return _from_object(ref, ep.load(), f"entry point {ep.value}")
    file_part = ref.partition(":")[0]
    if ":" in ref and file_part.endswith(".py") and env_dir is not None:
        return _from_file(ref, Path(env_dir))
    if ":" in ref:
        module, _, attr = ref.partition(":")
        try:
            obj = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise ManifestError(
                f"sandbox.report {ref!r} cannot be imported ({e})",
                "install the package that provides it or fix the 'module:function' spelling",
            ) from None
        return _from_object(ref, obj, ref)
    raise ManifestError(
        f"unknown report adapter {ref!r}",
        f"use one of {sorted(ADAPTERS)}, an entry point of group {ENTRY_POINT_GROUP}, "
        "'package.module:function' or 'file.py:function' in the env folder",
    )


def parse_pytest(inp: ReportInput) -> list[TestOutcome]:
    """rlvr's pytest plugin lines `<nonce> {json}`; lines without the nonce are ignored.

    Without the final `done` line (the session was cut short) the tests seen so far are kept
    but a synthetic failed `<session>` outcome is added, so the answer cannot pass.
    """
    out: list[TestOutcome] = []
    done = False
    prefix = inp.nonce + " "
    for line in (inp.report or "").splitlines():
        if not inp.nonce or not line.startswith(prefix):
            continue
        try:
            rec = json.loads(line[len(prefix) :])
        except ValueError:
            continue
        kind = rec.get("kind")
        if kind == "test":
            out.append(
                TestOutcome(name=rec["name"], outcome=rec["outcome"], message=rec["message"])
            )
        elif kind == "collect_error":
            out.append(TestOutcome(name=rec["name"] or "<collect>", outcome="error",
                                   message=rec.get("message", "")))  # fmt: skip
        elif kind == "done":
            done = True
    if not done:
        out.append(TestOutcome(name="<session>", outcome="error",
                               message="the test session ended early (exit or crash)"))  # fmt: skip
    return out


def _param_count(dec: ast.expr) -> int:
    """Cases of a literal @pytest.mark.parametrize(names, [..]); 1 for other decorators."""
    if (
        isinstance(dec, ast.Call)
        and isinstance(dec.func, ast.Attribute)
        and dec.func.attr == "parametrize"
        and len(dec.args) >= 2
    ):
        if isinstance(dec.args[1], ast.List | ast.Tuple):
            return len(dec.args[1].elts)
        return -1
    return 1


def _count_defs(body: list[ast.stmt]) -> int | None:
    total = 0
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            n = 1
            for dec in node.decorator_list:
                k = _param_count(dec)
                if k < 0:
                    return None
                n *= k
            total += n
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            sub = _count_defs(node.body)
            if sub is None:
                return None
            total += sub
    return total


def count_pytest(source: str) -> int | None:
    """Tests a pytest file defines (module functions and Test* classes; literal parametrize)."""
    try:
        return _count_defs(parse_python(source).body)
    except SyntaxError:
        return None


register_report_adapter("pytest", count_pytest)(parse_pytest)
