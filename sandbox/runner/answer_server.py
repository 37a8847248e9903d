"""The answer's side of rpc.py: runs as the answer's own uid, holds nothing but the answer.

    python3 -I /opt/rlvr/answer_server.py ANSWER_DIR     (fds in RLVR_RPC_FDS: read,write)
    python3 -I -S /opt/rlvr/answer_server.py - NAME      (the program on stdin, as module NAME)

Reads one JSON request per line, acts on the answer's objects, writes one JSON reply per line.
Everything in this process is the answer's to change, and that is fine: what it sends back is
only data the judge decodes with its own code, so a patched `json`, a lying `__eq__` or an
early exit here can only produce a wrong or missing value, never a pass. Standard library only.
"""

from __future__ import annotations

import importlib
import json
import os
import sys

MAX_ITEMS = 1_000_000
_objects: dict[int, object] = {}


def _tag(x, seen: int = 0):
    """Our objects as wire data: exact builtin types only, anything else becomes a handle."""
    if seen > 200:
        raise ValueError("value nested too deeply to send")
    t = type(x)
    if x is None or t is bool or t is int or t is str:
        return x
    if t is float:
        return x if x == x and abs(x) != float("inf") else {"$": "float", "v": repr(x)}
    if t is list:
        return [_tag(e, seen + 1) for e in x]
    if t in (tuple, set, frozenset):
        return {"$": t.__name__, "v": [_tag(e, seen + 1) for e in x]}
    if t is dict or (t.__module__ == "collections" and t.__name__ in (
            "OrderedDict", "defaultdict", "Counter")):  # fmt: skip
        return {"$": "dict", "v": [[_tag(k, seen + 1), _tag(v, seen + 1)]
                                   for k, v in dict.items(x)]}  # fmt: skip
    if t is bytes or t is bytearray:
        return {"$": t.__name__, "v": bytes(x).hex()}
    if t is complex:
        return {"$": "complex", "v": [x.real, x.imag]}
    return _handle(x)


def _handle(x) -> dict:
    hid = len(_objects) + 1
    _objects[hid] = x
    kind = "class" if isinstance(x, type) else "callable" if callable(x) else "object"
    return {"$": "handle", "id": hid, "kind": kind, "name": getattr(x, "__name__", "")}


def _untag(x):
    t = type(x)
    if t is list:
        return [_untag(e) for e in x]
    if t is not dict:
        return x
    tag, v = x.get("$"), x.get("v")
    if tag == "ref":
        return _objects[x["id"]]
    if tag == "tuple":
        return tuple(_untag(e) for e in v)
    if tag == "set":
        return {_untag(e) for e in v}
    if tag == "frozenset":
        return frozenset(_untag(e) for e in v)
    if tag == "dict":
        return {_untag(k): _untag(e) for k, e in v}
    if tag in ("bytes", "bytearray"):
        return (bytes if tag == "bytes" else bytearray).fromhex(v)
    if tag == "complex":
        return complex(*v)
    if tag == "float":
        return float(v)
    raise ValueError(f"unknown tag {tag!r}")


def _call(req: dict):
    fn = _objects[req["id"]]
    args = [_untag(a) for a in req.get("args", [])]
    kwargs = {k: _untag(v) for k, v in req.get("kwargs", {}).items()}
    value = fn(*args, **kwargs)
    sent = args + list(kwargs.values())
    after = {str(i): _tag(a) for i, a in enumerate(sent)
             if type(a) in (list, dict, set, bytearray)}  # fmt: skip
    return value, after


def _iter(obj) -> list:
    out = []
    for item in obj:
        out.append(item)
        if len(out) > MAX_ITEMS:
            raise ValueError("the iterable is too long")
    return out


OPS = {
    "getattr": lambda o, r: getattr(o, r["name"]),
    "setattr": lambda o, r: setattr(o, r["name"], _untag(r["value"])),
    "len": lambda o, r: len(o),
    "iter": lambda o, r: _iter(o),
    "contains": lambda o, r: _untag(r["value"]) in o,
    "getitem": lambda o, r: o[_untag(r["value"])],
    "setitem": lambda o, r: o.__setitem__(_untag(r["value"]), _untag(r["extra"])),
    "delitem": lambda o, r: o.__delitem__(_untag(r["value"])),
    "bool": lambda o, r: bool(o),
    "str": lambda o, r: str(o),
    "repr": lambda o, r: repr(o),
}


def handle(req: dict) -> dict:
    op = req.get("op")
    try:
        after = None
        if op == "import":
            if req["name"] in _failed:
                raise _failed[req["name"]]
            value = importlib.import_module(req["name"])
            if req.get("attr"):  # the module's one attribute the judge needs (a round trip less)
                value = getattr(value, req["attr"])
        elif op == "call":
            value, after = _call(req)
        else:
            value = OPS[op](_objects[req["id"]], req)
        reply = {"value": _tag(value)}
        if after:
            reply["after"] = after
        return reply
    except Exception as e:  # the answer's exception goes to the judge as data
        names = [c.__name__ for c in type(e).__mro__ if c.__module__ == "builtins"]
        return {"raise": names, "message": str(e)[:2000]}


def _load_program(program: str, name: str) -> None:
    """Make `import name` give `program`; its errors surface on the judge's first import."""
    import types

    module = types.ModuleType(name)
    module.__file__ = "solution.py"
    sys.modules[name] = module
    try:
        exec(compile(program, "solution.py", "exec"), module.__dict__)
    except BaseException as e:  # reported when the judge imports the module
        sys.modules.pop(name, None)
        _failed[name] = e


_failed: dict[str, BaseException] = {}


def main() -> int:
    try:  # under memory pressure the kernel kills the answer first, not the judge or runner
        with open("/proc/self/oom_score_adj", "w") as fh:
            fh.write("1000")
    except OSError:
        pass
    rfd, wfd = (int(x) for x in os.environ.pop("RLVR_RPC_FDS").split(","))
    if sys.argv[1] == "-":  # `- NAME`: the program comes on stdin, as module NAME
        program = sys.stdin.buffer.read().decode("utf-8", "replace")
        sys.stdin.close()
        _load_program(program, sys.argv[2])
    else:
        sys.path.insert(0, os.path.abspath(sys.argv[1]))
        os.chdir(sys.argv[1])
    rd = os.fdopen(rfd, "rb")
    wr = os.fdopen(wfd, "wb", buffering=0)
    for line in rd:
        try:
            reply = json.dumps(handle(json.loads(line)))
        except Exception as e:  # unencodable value, cyclic data, ...
            reply = json.dumps({"raise": ["TypeError"], "message": f"cannot send: {e}"[:2000]})
        wr.write(reply.encode() + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
