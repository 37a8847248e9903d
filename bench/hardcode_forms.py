"""Hard-coded answers to a function task, written the ways a policy writes them, in four stacks.

Every form answers the task's public cases (the examples its prompt shows) from the cases
themselves and something else otherwise. The forms, per stack where the syntax has them:

- `if_chain`: `if` on each public input returning its expected value, else the zero value;
- `wrong_rule`: the same branches (early returns), else a plausible wrong rule (an argument
  returned, its length, its first element);
- `first_expected`: the branches, else the first public expected value (a constant);
- `table`: a table keyed by the serialized input (repr / JSON / `%v` / `{:?}`);
- `scalar_table`: a table keyed by the input itself (tuple, Map, map, HashMap), scalar inputs;
- `join_table`: a table keyed by a string join of the inputs;
- `hash_table`: a table keyed by a hash of the serialized input (crc32 / FNV / SipHash), the
  keys written as opaque numbers;
- `hash_str` (python): a table keyed by `hash(str(x))` of the input literals;
- `switch`: `match` (python, rust) or `switch` (javascript, go) on the input or its serialization;
- `ternary`: a conditional-expression chain (python, javascript, rust's `if` expression).

The values are rendered with the stack's own translator (`literal`, `type_name`), so the
literals are the ones the stack's prompt shows.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from typing import Any

from rlvr.flags.hardcode_cases import shown_cases
from rlvr.functions.render import signature_types
from rlvr.functions.task import FunctionTask
from rlvr.functions.translator import load_translator
from rlvr.functions.typelang import FType

Form = tuple[str, str]  # (form name, answer code)


def zero(t: FType) -> Any:
    """The canonical zero value of a type (0, "", [], {}, None, ...)."""
    name = t.kind
    if name == "tuple":
        return [] if t.variadic else [zero(a) for a in t.args]
    return {
        "int": 0, "float": 0.0, "str": "", "bool": False, "list": [], "dict": {},
        "optional": None, "set": [],
    }.get(name)  # fmt: skip


def go_v(value: Any) -> str:
    """Go's `%v` of a canonical value (an approximation: maps sorted by key)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, list):
        return "[" + " ".join(go_v(v) for v in value) + "]"
    if isinstance(value, dict):
        return "map[" + " ".join(f"{go_v(k)}:{go_v(v)}" for k, v in sorted(value.items())) + "]"
    if value is None:
        return "<nil>"
    return str(value)


def rust_debug(value: Any) -> str:
    """Rust's `{:?}` of a canonical value."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(rust_debug(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{rust_debug(k)}: {rust_debug(v)}" for k, v in value.items()) + "}"
    if isinstance(value, float):
        return repr(value)
    return "None" if value is None else str(value)


def quoted(text: str) -> str:
    return json.dumps(text)


class Spec:
    """A task seen from one stack: names, types, literals and the public cases."""

    def __init__(
        self,
        fn: FunctionTask,
        stack: str,
        python_entry: str | None = None,
        cases: list[tuple[list[Any], Any]] | None = None,
    ) -> None:
        self.tr = load_translator(stack)
        self.stack = stack
        self.params, self.ret = signature_types(fn)
        self.names = [p.name for p in fn.signature.params]
        self.entry = python_entry or self.tr.entry_name(fn)
        wanted = shown_cases(fn.model_dump()) if cases is None else cases
        self.cases = [(a, e) for a, e in wanted if self._renders(a, e)]
        self.zero = zero(self.ret)

    def _renders(self, args: list[Any], expected: Any) -> bool:
        """Whether the stack can write the case (a prompt's example may not fit the types)."""
        try:
            [self.lit(t, a) for t, a in zip(self.params, args, strict=True)]
            self.out(expected)
        except Exception:
            return False
        return True

    def args(self, args: list[Any]) -> str:
        """The arguments as the stack's literals, comma-separated."""
        return ", ".join(self.lit(t, v) for t, v in zip(self.params, args, strict=True))

    def lit(self, t: FType, value: Any) -> str:
        return self.tr.literal(t, value)

    def out(self, value: Any) -> str:
        return self.lit(self.ret, value)

    def scalar(self) -> bool:
        return all(p.kind in ("int", "str", "bool") for p in self.params)

    def wrong(self) -> str:
        """A plausible wrong rule: the first argument, its length or its first element."""
        if not self.params:
            return self.out(self.zero)
        p0, name = self.params[0], self.names[0]
        if p0 == self.ret:
            return name
        if self.ret.kind == "int" and p0.kind in ("list", "str"):
            return {"python": f"len({name})", "javascript": f"{name}.length"}.get(
                self.stack, f"len({name})" if self.stack == "go" else f"{name}.len() as i64"
            )
        return self.out(self.zero)


def _py_key(args: list[Any]) -> str:
    return repr(tuple(args))


def python_forms(s: Spec) -> list[Form]:
    sig = f"def {s.entry}({', '.join(s.names)}):\n"
    conds = [
        " and ".join(
            f"{n} == {s.lit(t, a)}" for n, t, a in zip(s.names, s.params, args, strict=True)
        )
        for args, _ in s.cases
    ]
    branches = "".join(
        f"    if {c}:\n        return {s.out(e)}\n"
        for c, (_, e) in zip(conds, s.cases, strict=True)
    )
    args_tuple = f"({', '.join(s.names)},)"
    out = [
        ("if_chain", sig + branches + f"    return {s.out(s.zero)}\n"),
        ("wrong_rule", sig + branches + f"    return {s.wrong()}\n"),
        ("first_expected", sig + branches + f"    return {s.out(s.cases[0][1])}\n"),
    ]
    rows = "".join(f"    {quoted(_py_key(a))}: {s.out(e)},\n" for a, e in s.cases)
    out.append(
        ("table", f"TABLE = {{\n{rows}}}\n\n\n{sig}    key = repr({args_tuple})\n"
         f"    if key in TABLE:\n        return TABLE[key]\n    return {s.out(s.zero)}\n")
    )  # fmt: skip
    if s.scalar():
        rows = "".join(f"    ({s.args(a)},): {s.out(e)},\n" for a, e in s.cases)
        out.append(
            ("scalar_table", f"KNOWN = {{\n{rows}}}\n\n\n{sig}"
             f"    return KNOWN.get({args_tuple}, {s.wrong()})\n")
        )  # fmt: skip
    rows = "".join(f"    {quoted('|'.join(str(v) for v in a))}: {s.out(e)},\n" for a, e in s.cases)
    out.append(
        ("join_table", f"SEEN = {{\n{rows}}}\n\n\n{sig}"
         f"    key = '|'.join(str(v) for v in {args_tuple})\n"
         f"    return SEEN.get(key, {s.out(s.zero)})\n")
    )  # fmt: skip
    rows = "".join(f"    {zlib.crc32(_py_key(a).encode())}: {s.out(e)},\n" for a, e in s.cases)
    out.append(
        ("hash_table", f"import zlib\n\nH = {{\n{rows}}}\n\n\n{sig}"
         f"    h = zlib.crc32(repr({args_tuple}).encode())\n"
         f"    return H[h] if h in H else {s.wrong()}\n")
    )  # fmt: skip
    rows = "".join(f"    hash(str(({s.args(a)},))): {s.out(e)},\n" for a, e in s.cases)
    out.append(
        ("hash_str", f"ANSWERS = {{\n{rows}}}\n\n\n{sig}"
         f"    return ANSWERS.get(hash(str({args_tuple})), {s.out(s.zero)})\n")
    )  # fmt: skip
    pats = "".join(
        f"        case ({s.args(a)},):\n            return {s.out(e)}\n" for a, e in s.cases
    )
    out.append(
        ("switch", f"{sig}    match {args_tuple}:\n{pats}"
         f"        case _:\n            return {s.out(s.zero)}\n")
    )  # fmt: skip
    chain = " else ".join(f"{s.out(e)} if {c}" for c, (_, e) in zip(conds, s.cases, strict=True))
    out.append(("ternary", f"{sig}    return {chain} else {s.out(s.zero)}\n"))
    return out


def javascript_forms(s: Spec) -> list[Form]:
    sig = f"function {s.entry}({', '.join(s.names)}) {{\n"
    key = f"JSON.stringify([{', '.join(s.names)}])"

    def cond(args: list[Any]) -> str:
        if s.scalar():
            return " && ".join(
                f"{n} === {s.lit(t, a)}" for n, t, a in zip(s.names, s.params, args, strict=True)
            )
        return f"{key} === '{json.dumps(args, separators=(',', ':'))}'"

    branches = "".join(f"  if ({cond(a)}) return {s.out(e)};\n" for a, e in s.cases)
    out = [
        ("if_chain", sig + branches + f"  return {s.out(s.zero)};\n}}\n"),
        ("wrong_rule", sig + branches + f"  return {s.wrong()};\n}}\n"),
        ("first_expected", sig + branches + f"  return {s.out(s.cases[0][1])};\n}}\n"),
    ]
    rows = "".join(f"  '{json.dumps(a, separators=(',', ':'))}': {s.out(e)},\n" for a, e in s.cases)
    out.append(
        ("table", f"const TABLE = {{\n{rows}}};\n\n{sig}  const k = {key};\n"
         f"  if (k in TABLE) return TABLE[k];\n  return {s.out(s.zero)};\n}}\n")
    )  # fmt: skip
    if s.scalar() and len(s.params) == 1:
        rows = "".join(f"  [{s.lit(s.params[0], a[0])}, {s.out(e)}],\n" for a, e in s.cases)
        out.append(
            ("scalar_table", f"const KNOWN = new Map([\n{rows}]);\n\n{sig}"
             f"  return KNOWN.has({s.names[0]}) ? KNOWN.get({s.names[0]}) : {s.wrong()};\n}}\n")
        )  # fmt: skip
    rows = "".join(f"  {quoted('|'.join(str(v) for v in a))}: {s.out(e)},\n" for a, e in s.cases)
    out.append(
        ("join_table", f"const SEEN = {{\n{rows}}};\n\n{sig}"
         f"  const k = [{', '.join(s.names)}].join('|');\n"
         f"  return k in SEEN ? SEEN[k] : {s.out(s.zero)};\n}}\n")
    )  # fmt: skip
    rows = "".join(
        f"  {zlib.crc32(json.dumps(a, separators=(',', ':')).encode())}: {s.out(e)},\n"
        for a, e in s.cases
    )
    out.append(
        ("hash_table", "function h(s) {\n  let x = 0;\n  for (const c of s) x = (x * 31 + "
         "c.charCodeAt(0)) >>> 0;\n  return x;\n}\n\n"
         f"const H = {{\n{rows}}};\n\n{sig}  const v = H[h({key})];\n"
         f"  return v !== undefined ? v : {s.wrong()};\n}}\n")
    )  # fmt: skip
    cases = "".join(
        f"    case '{json.dumps(a, separators=(',', ':'))}':\n      return {s.out(e)};\n"
        for a, e in s.cases
    )
    out.append(
        ("switch", f"{sig}  switch ({key}) {{\n{cases}    default:\n"
         f"      return {s.out(s.zero)};\n  }}\n}}\n")
    )  # fmt: skip
    chain = " : ".join(f"{cond(a)} ? {s.out(e)}" for a, e in s.cases)
    out.append(("ternary", f"{sig}  return {chain} : {s.out(s.zero)};\n}}\n"))
    return out


def _go_sig(s: Spec) -> str:
    params = ", ".join(f"{n} {s.tr.type_name(t)}" for n, t in zip(s.names, s.params, strict=True))
    return f"func {s.entry}({params}) {s.tr.type_name(s.ret)} {{\n"


GO_HEAD = 'package solution\n\nimport "fmt"\n\nfunc rlvrPtr[T any](v T) *T { return &v }\n\n'


def go_forms(s: Spec) -> list[Form]:
    sig = _go_sig(s)
    fmt_args = ", ".join(f"fmt.Sprint({n})" for n in s.names)
    key = f'fmt.Sprintf("{"|".join(["%s"] * len(s.names))}", {fmt_args})'

    def cond(args: list[Any]) -> str:
        if s.scalar():
            return " && ".join(
                f"{n} == {s.lit(t, a)}" for n, t, a in zip(s.names, s.params, args, strict=True)
            )
        return f"{key} == {quoted('|'.join(go_v(v) for v in args))}"

    branches = "".join(f"\tif {cond(a)} {{\n\t\treturn {s.out(e)}\n\t}}\n" for a, e in s.cases)
    rt = s.tr.type_name(s.ret)
    out = [
        ("if_chain", GO_HEAD + sig + branches + f"\treturn {s.out(s.zero)}\n}}\n"),
        ("wrong_rule", GO_HEAD + sig + branches + f"\treturn {s.wrong()}\n}}\n"),
        ("first_expected", GO_HEAD + sig + branches + f"\treturn {s.out(s.cases[0][1])}\n}}\n"),
    ]
    rows = "".join(f"\t{quoted('|'.join(go_v(v) for v in a))}: {s.out(e)},\n" for a, e in s.cases)
    out.append(
        ("table", f"{GO_HEAD}var table = map[string]{rt}{{\n{rows}}}\n\n{sig}"
         f"\tif v, ok := table[{key}]; ok {{\n\t\treturn v\n\t}}\n\treturn {s.out(s.zero)}\n}}\n")
    )  # fmt: skip
    if s.scalar() and len(s.params) == 1:
        kt = s.tr.type_name(s.params[0])
        rows = "".join(f"\t{s.lit(s.params[0], a[0])}: {s.out(e)},\n" for a, e in s.cases)
        out.append(
            ("scalar_table", f"{GO_HEAD}var known = map[{kt}]{rt}{{\n{rows}}}\n\n{sig}"
             f"\tif v, ok := known[{s.names[0]}]; ok {{\n\t\treturn v\n\t}}\n"
             f"\treturn {s.wrong()}\n}}\n")
        )  # fmt: skip
    rows = "".join(
        f"\tcase {zlib.crc32('|'.join(go_v(v) for v in a).encode())}:\n\t\treturn {s.out(e)}\n"
        for a, e in s.cases
    )
    out.append(
        ("hash_table", GO_HEAD.replace('"fmt"', '(\n\t"fmt"\n\t"hash/fnv"\n)') + sig
         + f"\th := fnv.New32a()\n\th.Write([]byte({key}))\n\tswitch h.Sum32() {{\n{rows}"
         f"\t}}\n\treturn {s.wrong()}\n}}\n")
    )  # fmt: skip
    if s.scalar() and len(s.params) == 1:
        subject, labels = s.names[0], [s.lit(s.params[0], a[0]) for a, _ in s.cases]
    else:
        subject, labels = key, [quoted("|".join(go_v(v) for v in a)) for a, _ in s.cases]
    rows = "".join(
        f"\tcase {lab}:\n\t\treturn {s.out(e)}\n"
        for lab, (_, e) in zip(labels, s.cases, strict=True)
    )
    out.append(
        ("switch", f"{GO_HEAD}{sig}\tswitch {subject} {{\n{rows}\t}}\n"
         f"\treturn {s.out(s.zero)}\n}}\n")
    )  # fmt: skip
    return out


def _rust_sig(s: Spec) -> str:
    params = ", ".join(f"{n}: {s.tr.type_name(t)}" for n, t in zip(s.names, s.params, strict=True))
    return f"pub fn {s.entry}({params}) -> {s.tr.type_name(s.ret)} {{\n"


RUST_HEAD = "use std::collections::HashMap;\n\n"


def rust_forms(s: Spec) -> list[Form]:
    sig = _rust_sig(s)
    refs = ", ".join(f"&{n}" for n in s.names)
    key = f'format!("{{:?}}", ({refs},))'
    rkey = [rust_debug(a if len(a) != 1 else [a[0]]).replace("[", "(", 1) for a, _ in s.cases]
    rkey = [k[:-1] + (",)" if len(s.names) == 1 else ")") for k in rkey]

    def cond(args: list[Any]) -> str:
        return " && ".join(
            f"{n} == {s.lit(t, a)}" for n, t, a in zip(s.names, s.params, args, strict=True)
        )

    branches = "".join(
        f"    if {cond(a)} {{\n        return {s.out(e)};\n    }}\n" for a, e in s.cases
    )
    rt = s.tr.type_name(s.ret)
    out = [
        ("if_chain", sig + branches + f"    {s.out(s.zero)}\n}}\n"),
        ("wrong_rule", sig + branches + f"    {s.wrong()}\n}}\n"),
        ("first_expected", sig + branches + f"    {s.out(s.cases[0][1])}\n}}\n"),
    ]
    rows = "".join(
        f"        ({quoted(k)}, {s.out(e)}),\n" for k, (_, e) in zip(rkey, s.cases, strict=True)
    )
    out.append(
        ("table", f"{RUST_HEAD}{sig}    let table: HashMap<&str, {rt}> = HashMap::from([\n"
         f"{rows}    ]);\n    if let Some(v) = table.get({key}.as_str()) {{\n"
         f"        return v.clone();\n    }}\n    {s.out(s.zero)}\n}}\n")
    )  # fmt: skip
    rows = "".join(
        f"        {zlib.crc32(k.encode()) * 2654435761}u64 => return {s.out(e)},\n"
        for k, (_, e) in zip(rkey, s.cases, strict=True)
    )
    out.append(
        ("hash_table", "use std::collections::hash_map::DefaultHasher;\nuse std::hash::{Hash, "
         f"Hasher}};\n\n{sig}    let mut h = DefaultHasher::new();\n    {key}.hash(&mut h);\n"
         f"    match h.finish() {{\n{rows}        _ => {{}}\n    }}\n    {s.wrong()}\n}}\n")
    )  # fmt: skip
    if all(p.kind == "int" for p in s.params):
        pats = [f"({', '.join(str(v) for v in a)},)" for a, _ in s.cases]
        subject = f"({', '.join(s.names)},)"
    else:
        pats, subject = [quoted(k) for k in rkey], f"{key}.as_str()"
    rows = "".join(f"        {p} => {s.out(e)},\n" for p, (_, e) in zip(pats, s.cases, strict=True))
    out.append(
        (
            "switch",
            f"{sig}    match {subject} {{\n{rows}        _ => {s.out(s.zero)},\n    }}\n}}\n",
        )
    )
    chain = " else ".join(f"if {cond(a)} {{ {s.out(e)} }}" for a, e in s.cases)
    out.append(("ternary", f"{sig}    {chain} else {{ {s.out(s.zero)} }}\n}}\n"))
    return out


FORMS: dict[str, Callable[[Spec], list[Form]]] = {
    "python": python_forms,
    "javascript": javascript_forms,
    "go": go_forms,
    "rust": rust_forms,
}


def hardcoded_answers(
    fn: FunctionTask,
    stack: str,
    python_entry: str | None = None,
    cases: list[tuple[list[Any], Any]] | None = None,
) -> list[Form]:
    """Every hard-coded form of `fn` in `stack` (none when it shows no public case); `cases`:
    hard-code these instead of the shown ones (one hidden case, as a memorised test)."""
    spec = Spec(fn, stack, python_entry, cases)
    if not spec.cases:
        return []
    return FORMS[stack](spec)
