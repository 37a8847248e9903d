"""The package's shape, as rlvr/README.md states it: layers, no import cycle, no hidden imports.

Read from the source with `ast` (nothing is imported), so a violation names its file and line:

- no module-level import cycle between rlvr modules;
- every module sits in a layer of LAYERS (the table of rlvr/README.md) and imports only from
  its own layer or lower ones;
- an rlvr module is imported inside a function only when that module pulls a heavy optional
  dependency (HEAVY) at import time, and the import line says so in a `# heavy:` comment;
- every file in rlvr/ is under 400 lines.

Run `python tests/test_architecture.py` for the full list of violations.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "rlvr"
README = PACKAGE / "README.md"
HEAVY = ("torch", "transformers", "trl", "ray", "docker")
MAX_LINES = 400

# Lowest first. A module belongs to the longest prefix listed; it may import its own layer and
# the layers above it in this list, never the ones below. Keep in step with rlvr/README.md.
LAYERS: list[tuple[str, list[str]]] = [
    (
        "foundation",
        [
            "rlvr.errors",
            "rlvr.types",
            "rlvr.pyast",
            "rlvr.named",
            "rlvr.bundled",
            "rlvr.fences",
            "rlvr.shorten",
        ],
    ),
    (
        "data",
        [
            "rlvr.splits",
            "rlvr.stats",
            "rlvr.store",
            "rlvr.manifest",
            "rlvr.discovery",
            "rlvr.frontier",
            "rlvr.advantages",
            "rlvr.report",
            "rlvr.trackers",
        ],
    ),
    ("policies", ["rlvr.policies"]),
    ("sandbox", ["rlvr.sandbox"]),
    ("functions", ["rlvr.functions"]),
    ("graders", ["rlvr.graders"]),
    ("tasksets", ["rlvr.tasksets"]),
    ("source", ["rlvr.source"]),
    ("flags", ["rlvr.flags"]),
    ("episodes", ["rlvr.episodes"]),
    ("env", ["rlvr.env"]),
    ("registry", ["rlvr.registry", "rlvr.grading", "rlvr.references", "rlvr.selection"]),
    ("audit", ["rlvr.audit"]),
    (
        "rollout",
        [
            "rlvr.rollout",
            "rlvr.pairs",
            "rlvr.frontier_report",
            "rlvr.sft",
            "rlvr.warm_strength",
            "rlvr.distil",
            "rlvr.distil_dataset",
            "rlvr.evaluation",
        ],
    ),
    (
        "models",
        ["rlvr.tiny", "rlvr.tiny_code", "rlvr.tiny_agent", "rlvr.pretrained", "rlvr.models"],
    ),
    ("distributed", ["rlvr.distributed"]),
    ("training", ["rlvr.learners", "rlvr.integrations"]),
    (
        "apps",
        [
            "rlvr.demo",
            "rlvr.demo_code",
            "rlvr.demo_jobs",
            "rlvr.demo_page",
            "rlvr.demo_transcripts",
            "rlvr.stack_scaffold",
            "rlvr.stack_check",
        ],
    ),
    ("cli", ["rlvr.cli"]),
    ("package", ["rlvr"]),
]


@dataclass
class Module:
    name: str
    path: Path
    lines: int
    imports: set[str] = field(default_factory=set)
    """rlvr modules imported when this module is imported (module level, not TYPE_CHECKING)."""
    third_party: set[str] = field(default_factory=set)
    """Top-level names of other packages imported at module level."""
    late: list[tuple[int, str, str]] = field(default_factory=list)
    """(line, rlvr module, source line) of imports inside functions."""


def _name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def _targets(node: ast.Import | ast.ImportFrom, current: str, is_pkg: bool, known: set[str]):
    """The modules an import statement names: `from a import b` names a.b when it is a module."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        parts = (current if is_pkg else current.rsplit(".", 1)[0]).split(".")
        base = ".".join(parts[: len(parts) - node.level + 1])
        mod = f"{base}.{node.module}" if node.module else base
    else:
        mod = node.module or ""
    return [mod] + [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in known]


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.update(id(sub) for stmt in node.body for sub in ast.walk(stmt))
    return out


def _function_nodes(tree: ast.Module) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.update(id(sub) for sub in ast.walk(node) if sub is not node)
    return out


def scan() -> dict[str, Module]:
    """Every module of the package with its imports."""
    paths = sorted(PACKAGE.rglob("*.py"))
    known = {_name(p) for p in paths}
    mods: dict[str, Module] = {}
    for path in paths:
        text = path.read_text(encoding="utf-8")
        source = text.splitlines()
        tree = ast.parse(text)
        name = _name(path)
        mod = Module(name, path, len(source))
        typing_only, in_function = _type_checking_nodes(tree), _function_nodes(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or id(node) in typing_only:
                continue
            targets = _targets(node, name, path.name == "__init__.py", known)
            ours = [t for t in targets if t in known and t != name]
            if id(node) in in_function:
                line = " ".join(source[node.lineno - 1 : node.end_lineno or node.lineno])
                mod.late.extend((node.lineno, t, line) for t in ours)
                continue
            mod.imports.update(ours)
            top = targets[0].split(".")[0] if targets else ""
            if not getattr(node, "level", 0) and top and top != "rlvr":
                mod.third_party.add(top)
        mods[name] = mod
    return mods


def heavy_deps(mods: dict[str, Module]) -> dict[str, set[str]]:
    """The HEAVY packages each module pulls in at import time, directly or through others."""
    out: dict[str, set[str]] = {}

    def visit(name: str, stack: set[str]) -> set[str]:
        if name in out:
            return out[name]
        if name in stack:
            return set()
        mod = mods[name]
        found = {t for t in mod.third_party if t in HEAVY}
        for dep in mod.imports:
            found |= visit(dep, stack | {name})
        if not stack:
            out[name] = found
        return found

    for name in mods:
        out[name] = visit(name, set())
    return out


def cycles(mods: dict[str, Module]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in mods[v].imports:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(mods):
        if v not in index:
            connect(v)
    return found


def layer_of(name: str) -> int | None:
    """The index in LAYERS of the longest listed prefix of `name` (None: not placed)."""
    best: tuple[int, int] | None = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            inside = name == prefix or (prefix != "rlvr" and name.startswith(prefix + "."))
            if inside and (best is None or len(prefix) > best[0]):
                best = (len(prefix), i)
    return None if best is None else best[1]


def unplaced(mods: dict[str, Module]) -> list[str]:
    return sorted(n for n in mods if layer_of(n) is None)


def upward_imports(mods: dict[str, Module]) -> list[str]:
    """Imports from a lower layer to a higher one (inside functions too: a heavy import is
    still an import)."""
    out = []
    for name, mod in sorted(mods.items()):
        mine = layer_of(name)
        for dep in sorted(mod.imports | {t for _, t, _ in mod.late}):
            theirs = layer_of(dep)
            if mine is not None and theirs is not None and theirs > mine:
                out.append(f"{name} ({LAYERS[mine][0]}) imports {dep} ({LAYERS[theirs][0]})")
    return out


def hidden_imports(mods: dict[str, Module]) -> list[str]:
    """Function-level rlvr imports that are not a commented import of a heavy module."""
    heavy = heavy_deps(mods)
    out = []
    for mod in mods.values():
        for line, target, text in mod.late:
            where = f"{mod.path.relative_to(ROOT)}:{line} imports {target}"
            if not heavy[target]:
                out.append(f"{where} inside a function, and it pulls no heavy dependency")
            elif "# heavy:" not in text:
                out.append(f"{where} ({', '.join(sorted(heavy[target]))}) without a # heavy: note")
    return sorted(out)


def big_files(mods: dict[str, Module]) -> list[str]:
    return [f"{m.path.relative_to(ROOT)}: {m.lines} lines" for m in mods.values()
            if m.lines >= MAX_LINES]  # fmt: skip


# Known violations waiting for their fix, each with its owner; empty when the package keeps
# every rule. An entry that no longer occurs fails the test, so the list only shrinks. Line
# numbers are left out of the keys so that an edit above a listed import does not break it.
ALLOWED: dict[str, str] = {}


def check(kind: str, items: list[str]) -> None:
    """No violation of `kind` beyond ALLOWED, and no ALLOWED entry of it already fixed."""
    found = [re.sub(r"(\.py):\d+ ", r"\1 ", f"{kind}: {item}") for item in items]
    assert [v for v in found if v not in ALLOWED] == []
    fixed = [v for v in ALLOWED if v.startswith(f"{kind}: ") and v not in found]
    assert fixed == [], "fixed: remove these from ALLOWED"


def test_no_import_cycle() -> None:
    check("cycle", [" <-> ".join(c) for c in cycles(scan())])


def test_every_module_has_a_layer() -> None:
    assert unplaced(scan()) == [], "add the module to LAYERS here and to rlvr/README.md"


def test_no_import_from_a_lower_layer_to_a_higher_one() -> None:
    check("upward", upward_imports(scan()))


def test_rlvr_imports_inside_functions_only_for_heavy_modules() -> None:
    check("hidden", hidden_imports(scan()))


def test_every_file_is_under_400_lines() -> None:
    check("big", big_files(scan()))


def test_the_package_readme_states_these_layers() -> None:
    rows = re.findall(r"^\| (\d+) \| ([a-z ]+) \| (.*?) \|", README.read_text(), re.M)
    assert [name for _, name, _ in rows] == [name for name, _ in LAYERS]
    for (_, _, modules), (name, prefixes) in zip(rows, LAYERS, strict=True):
        for prefix in prefixes:
            short = prefix.removeprefix("rlvr.").replace(".", "/") if prefix != "rlvr" else ""
            named = {f"`{short}`", f"`{short}/`"} if short else {"`rlvr/__init__.py`"}
            assert any(n in modules for n in named), f"rlvr/README.md: layer {name} lacks {prefix}"


def test_heavy_dependencies_are_traced_through_imports() -> None:
    mods = scan()
    heavy = heavy_deps(mods)
    assert "torch" in heavy["rlvr.advantages"]
    assert heavy["rlvr.errors"] == set()


if __name__ == "__main__":
    modules = scan()
    for title, items in (
        ("cycles", [" <-> ".join(c) for c in cycles(modules)]),
        ("not in a layer", unplaced(modules)),
        ("upward imports", upward_imports(modules)),
        ("hidden imports", hidden_imports(modules)),
        ("big files", big_files(modules)),
    ):
        print(f"{title}: {len(items)}")
        for item in items:
            print(f"  {item}")
