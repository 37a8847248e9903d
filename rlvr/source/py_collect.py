"""The one walk over a Python answer that fills `Facts` (see py_names.py).

Kept apart from the rules so that what is collected (names, stores, strings, state) reads in one
place and the rules in rlvr.flags.static_python stay tables.
"""

from __future__ import annotations

import ast

from rlvr.source.py_names import DECODERS, MUTATORS, RUNNERS, Facts

WRITE_OPENERS = {"open", "io.open", "codecs.open", "builtins.open", "os.open", "os.fdopen"}
PATH_WRITES = {
    "write_text",
    "write_bytes",
    "touch",
    "unlink",
    "mkdir",
    "rename",
    "symlink_to",
    "chmod",
    "rmdir",
    "replace",
    "hardlink_to",
}
MUTABLE_CALLS = {
    "list",
    "dict",
    "set",
    "collections.deque",
    "collections.defaultdict",
    "collections.Counter",
    "collections.OrderedDict",
    "itertools.count",
    "iter",
    "itertools.cycle",
    "bytearray",
}
EXIT_BASES = {"BaseException", "SystemExit", "KeyboardInterrupt", "GeneratorExit"}
Func = ast.FunctionDef | ast.AsyncFunctionDef


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | Func | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _top_level(tree: ast.Module) -> list[ast.stmt]:
    """Module statements, looking into top-level if/try/with blocks."""
    out: list[ast.stmt] = []
    todo = list(tree.body)
    while todo:
        node = todo.pop(0)
        out.append(node)
        if isinstance(node, ast.If | ast.With):
            todo.extend(node.body + getattr(node, "orelse", []))
        elif isinstance(node, ast.Try):
            todo.extend(node.body + node.orelse + node.finalbody)
            for h in node.handlers:
                todo.extend(h.body)
    return out


def _is_mutable(value: ast.AST, facts: Facts) -> bool:
    if isinstance(value, ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp | ast.SetComp):
        return True
    return isinstance(value, ast.Call) and facts.qualify(value.func) in MUTABLE_CALLS


def _key_names(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) for n in ast.walk(node))


class Collector:
    """Fills a Facts object; `run` is the only entry point."""

    def __init__(self, facts: Facts) -> None:
        self.f = facts

    def run(self, tree: ast.Module) -> None:
        self._bindings(tree)
        self._aliases(tree)
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            self._visit(node, skip)
        self._module_level(tree)
        self._state(tree)

    def _bindings(self, tree: ast.Module) -> None:
        f = self.f
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
                f.local_names.add(node.id)
            elif isinstance(node, Func | ast.ClassDef):
                f.local_names.add(node.name)
            elif isinstance(node, ast.arg):
                f.local_names.add(node.arg)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                f.local_names.add(node.name)
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    f.assigned[target.id] = node.value

    def _aliases(self, tree: ast.Module) -> None:
        f = self.f
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    f.aliases[a.asname or a.name.split(".")[0]] = (
                        a.name if a.asname else a.name.split(".")[0]
                    )
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    if a.name != "*":
                        f.aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        for _ in range(2):  # `x = __import__("os")`, `e = os._exit`, then aliases of those
            for name, value in list(f.assigned.items()):
                q = (
                    f.qualify(value)
                    if isinstance(value, ast.Name | ast.Attribute | ast.Call | ast.Subscript)
                    else None
                )
                if q and name not in f.aliases:
                    f.aliases[name] = q

    def _visit(self, node: ast.AST, skip: set[int]) -> None:
        f = self.f
        if isinstance(node, ast.Import | ast.ImportFrom):
            self._import(node)
        elif isinstance(node, ast.Call):
            self._call(node)
        elif isinstance(node, ast.Attribute):
            f.attrs_read.add(node.attr)
            q = f.qualify(node)
            if q:
                f.uses.append((q, node))
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            f.names_read.add(node.id)
            if node.id in f.aliases:
                f.uses.append((f.aliases[node.id], node))
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            for t in targets:
                self._store(t, node)
        elif isinstance(node, ast.ClassDef):
            bases = {f.qualify(b) or ast.unparse(b) for b in node.bases}
            if bases & (EXIT_BASES | f.base_exception_classes):
                f.base_exception_classes.add(node.name)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str | bytes)
            and id(node) not in skip
        ):
            value = node.value
            f.strings.append(value if isinstance(value, str) else value.decode("latin-1"))

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        mod = node.module if isinstance(node, ast.ImportFrom) else None
        for a in node.names:
            self.f.imports_seen.append((mod or a.name, node))
            self.f.uses.append((f"{mod}.{a.name}" if mod else a.name, node))

    def _store(self, target: ast.AST, node: ast.AST) -> None:
        f = self.f
        if isinstance(target, ast.Attribute | ast.Subscript):
            q = f.qualify(target.value) if isinstance(target, ast.Subscript) else f.qualify(target)
            if q:
                f.stores.append((q, node))
        elif isinstance(target, ast.Tuple | ast.List):
            for elt in target.elts:
                self._store(elt, node)

    def _call(self, node: ast.Call) -> None:
        f = self.f
        q = f.qualify(node.func)
        if q:
            f.uses.append((q, node))
        if q in RUNNERS and node.args:
            self._runner(node)
        if q in WRITE_OPENERS and self._writes(node, q):
            f.file_writes.append(node)
        if isinstance(node.func, ast.Attribute) and node.func.attr in PATH_WRITES:
            target = node.func.value
            if f.qualify(target) or "path" in ast.unparse(target).lower():
                f.file_writes.append(node)
        if q in ("setattr", "builtins.setattr") and len(node.args) >= 2:
            base, attr = f.qualify(node.args[0]), f.fold(node.args[1])
            if base:
                f.stores.append((f"{base}.{attr or '?'}", node))
        for arg in node.args:
            text = f.fold(arg) if isinstance(arg, ast.Call | ast.BinOp | ast.JoinedStr) else None
            if text is not None:
                f.strings.append(text)

    def _runner(self, node: ast.Call) -> None:
        """exec / eval / compile: keep the code they run when it folds to a string."""
        f = self.f
        text = f.fold(node.args[0])
        if text is not None:
            f.payloads[id(node)] = text
            f.strings.append(text)
        f.decoded_args[id(node)] = any(
            isinstance(n, ast.Call) and f.qualify(n.func) in DECODERS
            for n in ast.walk(node.args[0])
        )

    def _writes(self, node: ast.Call, q: str) -> bool:
        """Does this open() call open for writing?"""
        modes = [k.value for k in node.keywords if k.arg in ("mode", "flags")]
        mode = node.args[1] if len(node.args) > 1 else (modes[0] if modes else None)
        if mode is None:
            return False
        text = self.f.fold(mode)
        return q == "os.open" or bool(text and any(c in text for c in "wax+"))

    def _module_level(self, tree: ast.Module) -> None:
        f = self.f
        for node in _top_level(tree):
            if isinstance(node, Func | ast.ClassDef):
                f.module_bindings.append((node.name, node))
            elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        f.module_bindings.append((t.id, node))
            elif isinstance(node, ast.Import | ast.ImportFrom):
                for a in node.names:
                    if a.asname:
                        f.module_bindings.append((a.asname, node))

    def _state(self, tree: ast.Module) -> None:
        f = self.f
        top = _top_level(tree)
        funcs = {n.name for n in top if isinstance(n, Func)}
        mutables = set()
        for node in top:
            if isinstance(node, ast.Assign) and _is_mutable(node.value, f):
                mutables |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for fn in (n for n in ast.walk(tree) if isinstance(n, Func)):
            defaults = {
                a.arg
                for a, d in zip(fn.args.args[::-1], fn.args.defaults[::-1], strict=False)
                if _is_mutable(d, f)
            }
            self._function_state(fn, mutables | defaults, funcs)

    def _function_state(
        self, fn: ast.FunctionDef | ast.AsyncFunctionDef, shared: set[str], funcs: set[str]
    ) -> None:
        f = self.f
        declared = {
            n for s in ast.walk(fn) if isinstance(s, ast.Global | ast.Nonlocal) for n in s.names
        }
        for node in ast.walk(fn):
            where = f"{fn.name}, line {getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Name) and t.id in declared:
                        f.state_notes.append(f"{where}: rebinds global/nonlocal {t.id}")
                    elif (
                        isinstance(t, ast.Attribute)
                        and isinstance(t.value, ast.Name)
                        and t.value.id in funcs
                    ):
                        f.state_notes.append(
                            f"{where}: stores on function attribute {t.value.id}.{t.attr}"
                        )
                    elif (
                        isinstance(t, ast.Subscript)
                        and isinstance(t.value, ast.Name)
                        and t.value.id in shared
                    ) and (isinstance(node, ast.AugAssign) or not _key_names(t.slice)):
                        f.state_notes.append(f"{where}: updates shared {t.value.id}[...]")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                obj = node.func.value
                if isinstance(obj, ast.Name) and obj.id in shared and node.func.attr in MUTATORS:
                    f.state_notes.append(f"{where}: {obj.id}.{node.func.attr}() on shared state")
            elif isinstance(node, ast.Call) and f.qualify(node.func) == "next" and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Name) and arg.id in shared:
                    f.state_notes.append(f"{where}: next() on shared iterator {arg.id}")


def collect_facts(tree: ast.Module) -> Facts:
    """Resolve names, fold strings and note state for one parsed answer."""
    facts = Facts()
    Collector(facts).run(tree)
    return facts
