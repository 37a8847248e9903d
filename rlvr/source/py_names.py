"""What a Python answer names, reads, writes and builds: the facts the static checks judge.

One pass over the AST resolves every call and attribute to a qualified name through the
answer's imports and aliases (`from os import _exit as e` makes `e` mean `os._exit`), folds
strings built from literals, and notes state kept between calls. Builtins count only when the
answer does not bind the same name itself, so a helper named `open` is not `open`.
"""

from __future__ import annotations

import ast
import base64
import builtins
import codecs
import zlib
from dataclasses import dataclass, field
from typing import Any

BUILTIN_NAMES = frozenset(dir(builtins)) | {"__builtins__", "__file__", "__loader__", "__spec__"}
RUNNERS = {"exec", "eval", "compile", "builtins.exec", "builtins.eval", "builtins.compile"}
IMPORTERS = {"__import__", "importlib.import_module", "builtins.__import__", "importlib.__import__"}
DECODERS = {
    "base64.b64decode",
    "base64.b32decode",
    "base64.b16decode",
    "base64.b85decode",
    "base64.a85decode",
    "base64.urlsafe_b64decode",
    "base64.decodebytes",
    "codecs.decode",
    "zlib.decompress",
    "bytes.fromhex",
    "binascii.unhexlify",
    "binascii.a2b_base64",
}
MUTATORS = {
    "append",
    "extend",
    "insert",
    "pop",
    "popleft",
    "appendleft",
    "remove",
    "clear",
    "rotate",
    "add",
    "discard",
    "__setitem__",
}
MAX_FOLD = 100_000


@dataclass
class Facts:
    """Everything the rules look at; `uses` holds qualified names with the node that uses them."""

    aliases: dict[str, str] = field(default_factory=dict)
    local_names: set[str] = field(default_factory=set)
    assigned: dict[str, ast.expr] = field(default_factory=dict)
    uses: list[tuple[str, ast.AST]] = field(default_factory=list)
    imports_seen: list[tuple[str, ast.AST]] = field(default_factory=list)
    stores: list[tuple[str, ast.AST]] = field(default_factory=list)
    module_bindings: list[tuple[str, ast.AST]] = field(default_factory=list)
    file_writes: list[ast.AST] = field(default_factory=list)
    base_exception_classes: set[str] = field(default_factory=set)
    strings: list[str] = field(default_factory=list)
    payloads: dict[int, str] = field(default_factory=dict)
    decoded_args: dict[int, bool] = field(default_factory=dict)
    names_read: set[str] = field(default_factory=set)
    attrs_read: set[str] = field(default_factory=set)
    state_notes: list[str] = field(default_factory=list)
    resolving: set[str] = field(default_factory=set)
    _depth: int = 0

    def qualify(self, node: ast.AST) -> str | None:
        """The qualified name `node` refers to (`os._exit`), or None for local values."""
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            return node.id if node.id in BUILTIN_NAMES and node.id not in self.local_names else None
        if isinstance(node, ast.Attribute):
            base = self.qualify(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Call):
            return self._qualify_call(node)
        if isinstance(node, ast.Subscript):
            base, key = self.qualify(node.value), self.fold(node.slice)
            if base == "sys.modules" and key:
                return key
            if base in ("__builtins__", "builtins.__dict__", "vars") and key:
                return key
        return None

    def _qualify_call(self, node: ast.Call) -> str | None:
        q = self.qualify(node.func)
        if q in IMPORTERS and node.args:
            return self.fold(node.args[0])
        if q in ("getattr", "builtins.getattr") and len(node.args) >= 2:
            base, attr = self.qualify(node.args[0]), self.fold(node.args[1])
            return f"{base}.{attr}" if base and attr else None
        if q in ("vars", "globals") and node.args:
            return self.qualify(node.args[0]) if q == "vars" else None
        return None

    def fold(self, node: ast.AST | None) -> str | None:
        """The string an expression built only from literals evaluates to, if it is one."""
        if node is None or self._depth > 40:
            return None
        self._depth += 1
        try:
            out = _fold(self, node)
        except (ValueError, TypeError, UnicodeError, zlib.error, OverflowError, MemoryError):
            out = None
        finally:
            self._depth -= 1
        return out if out is None or len(out) <= MAX_FOLD else out[:MAX_FOLD]


def _decode(name: str, data: str, args: list[str | None]) -> str | None:
    raw = data.encode("latin-1")
    if name == "codecs.decode":
        enc = (args[0] or "").replace("-", "_").lower() if args else ""
        if enc in ("rot13", "rot_13"):
            return codecs.decode(data, "rot13")
        if enc in ("hex", "base64", "zlib"):
            return codecs.decode(raw, enc).decode("latin-1")
        return None
    if name in ("bytes.fromhex", "binascii.unhexlify"):
        return bytes.fromhex(data).decode("latin-1")
    if name == "zlib.decompress":
        return zlib.decompress(raw).decode("latin-1")
    fn = getattr(base64, name.split(".")[-1].replace("decodebytes", "b64decode"), None)
    if name == "binascii.a2b_base64":
        fn = base64.b64decode
    return fn(raw).decode("latin-1") if fn else None


def _fold_call(facts: Facts, node: ast.Call) -> str | None:
    q = facts.qualify(node.func)
    if q == "chr" and node.args and isinstance(node.args[0], ast.Constant):
        return chr(node.args[0].value)
    if q in DECODERS and node.args:
        data = facts.fold(node.args[0])
        extra = [facts.fold(a) for a in node.args[1:]]
        return _decode(q, data, extra) if data is not None else None
    if q in ("bytes", "bytearray", "str") and node.args:
        try:
            value = ast.literal_eval(node.args[0])
        except (ValueError, TypeError, SyntaxError):
            return facts.fold(node.args[0]) if q == "str" else None
        return bytes(value).decode("latin-1") if isinstance(value, list) else None
    if isinstance(node.func, ast.Attribute):
        attr, obj = node.func.attr, node.func.value
        if attr in ("decode", "encode"):
            return facts.fold(obj)
        if attr in ("strip", "lower", "upper") and not node.args:
            base = facts.fold(obj)
            return getattr(base, attr)() if base is not None else None
        if attr == "fromhex" and node.args:
            data = facts.fold(node.args[0])
            return bytes.fromhex(data).decode("latin-1") if data is not None else None
        if attr == "join" and node.args:
            return _fold_join(facts, facts.fold(obj), node.args[0])
        if attr == "replace" and len(node.args) == 2:
            parts = [facts.fold(obj), *(facts.fold(a) for a in node.args)]
            return parts[0].replace(parts[1], parts[2]) if None not in parts else None  # type: ignore[union-attr,arg-type]
    return None


def _fold_join(facts: Facts, sep: str | None, arg: ast.AST) -> str | None:
    if sep is None:
        return None
    if isinstance(arg, ast.List | ast.Tuple):
        parts = [facts.fold(e) for e in arg.elts]
        return sep.join(parts) if None not in parts else None  # type: ignore[arg-type]
    if isinstance(arg, ast.GeneratorExp | ast.ListComp) and len(arg.generators) == 1:
        elt, gen = arg.elt, arg.generators[0]
        if isinstance(elt, ast.Call) and facts.qualify(elt.func) == "chr" and not gen.ifs:
            values = _literal(gen.iter)
            if isinstance(values, list | tuple) and all(isinstance(v, int) for v in values):
                return sep.join(chr(v) for v in values)
    is_map = isinstance(arg, ast.Call) and facts.qualify(arg.func) == "map" and len(arg.args) == 2
    if is_map and facts.qualify(arg.args[0]) == "chr":  # type: ignore[attr-defined]
        values = _literal(arg.args[1])  # type: ignore[attr-defined]
        if isinstance(values, list | tuple) and all(isinstance(v, int) for v in values):
            return sep.join(chr(v) for v in values)
    return None


def _literal(node: ast.AST) -> Any:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _fold(facts: Facts, node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return node.value
        return node.value.decode("latin-1") if isinstance(node.value, bytes) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = facts.fold(node.left), facts.fold(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = [
            facts.fold(v.value if isinstance(v, ast.FormattedValue) else v) for v in node.values
        ]
        return "".join(parts) if None not in parts else None  # type: ignore[arg-type]
    if isinstance(node, ast.Call):
        return _fold_call(facts, node)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        base, step = facts.fold(node.value), _literal(node.slice.step) if node.slice.step else None
        return base[::-1] if base is not None and step == -1 and not node.slice.lower else None
    if isinstance(node, ast.Name) and node.id in facts.assigned and node.id not in facts.resolving:
        facts.resolving.add(node.id)
        try:
            return facts.fold(facts.assigned[node.id])
        finally:
            facts.resolving.discard(node.id)
    return None
