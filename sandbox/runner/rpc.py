"""The judge's side of a Python answer that runs in another process (and uid).

The judge (pytest or the python-check harness) never imports the answer. It gets a proxy module
whose attributes are `Remote` handles: calling one sends the arguments as plain data over a pipe
to answer_server.py, which calls the answer and sends back plain data (or a handle to an object
that is not data, or the builtin exception it raised). So nothing the answer defines ever runs
in the judge: no `__eq__`, `__bool__`, metaclass, import hook, patched `json` or `builtins`; the
answer cannot see the judge's frames, expected values or test code, and exiting, hanging or
printing gains it nothing. Values are decoded here, with this process's own code, into exact
builtin types.

Wire format: one JSON document per line. Values: JSON scalars and lists as themselves; other
types as {"$": tag, "v": ...} (tuple, dict as pairs, set, frozenset, bytes as hex, bytearray,
complex, float specials); handles as {"$": "handle", "id": n, "kind": ..., "name": ...}.
Standard library only.
"""

from __future__ import annotations

import builtins
import json
import os
import sys
import types

MAX_LINE = 64 << 20
MAX_DEPTH = 200


class AnswerError(Exception):
    """The answer process failed to answer (exited, crashed, sent something malformed)."""


def _builtin_exception(names: list, message: str) -> BaseException:
    """The first builtin exception class among `names` (the answer's exception's MRO)."""
    for name in names:
        cls = getattr(builtins, str(name), None)
        if isinstance(cls, type) and issubclass(cls, Exception) and cls.__module__ == "builtins":
            try:
                return cls(message)
            except Exception:  # exotic constructors (UnicodeDecodeError)
                continue
    return AnswerError(message)


def encode(x, depth: int = 0):
    """Judge-side values (builtins and handles only) as wire data."""
    if depth > MAX_DEPTH:
        raise TypeError("value nested too deeply to pass to the answer")
    t = type(x)
    if x is None or t is bool or t is int or t is str:
        return x
    if t is float:
        return (
            x if x == x and x not in (float("inf"), float("-inf")) else {"$": "float", "v": repr(x)}
        )
    if t is list:
        return [encode(e, depth + 1) for e in x]
    if t is tuple or t is set or t is frozenset:
        return {"$": t.__name__, "v": [encode(e, depth + 1) for e in x]}
    if t is dict:
        return {"$": "dict", "v": [[encode(k, depth + 1), encode(v, depth + 1)]
                                   for k, v in x.items()]}  # fmt: skip
    if t is bytes or t is bytearray:
        return {"$": t.__name__, "v": bytes(x).hex()}
    if t is complex:
        return {"$": "complex", "v": [x.real, x.imag]}
    if t is Remote:
        return {"$": "ref", "id": object.__getattribute__(x, "_id")}
    raise TypeError(f"cannot pass a {t.__name__} to the answer (it runs in another process)")


class Channel:
    """Blocking request/response over two pipe fds."""

    def __init__(self, rfd: int, wfd: int) -> None:
        self.r = os.fdopen(rfd, "rb", buffering=1 << 16)
        self.w = os.fdopen(wfd, "wb", buffering=0)
        self.dead = ""

    def call(self, op: str, **kw):
        if self.dead:
            raise AnswerError(self.dead)
        try:
            self.w.write(json.dumps({"op": op, **kw}).encode() + b"\n")
            line = self.r.readline(MAX_LINE)
        except OSError as e:
            line = b""
            self.dead = f"the answer process is gone ({e})"
        if not line.endswith(b"\n"):
            self.dead = self.dead or (
                "the answer exited before the tests finished (or sent an oversized reply)"
            )
            raise AnswerError(self.dead)
        try:
            msg = json.loads(line)
        except (ValueError, RecursionError):
            self.dead = "the answer process sent a malformed reply"
            raise AnswerError(self.dead) from None
        if not isinstance(msg, dict):
            raise AnswerError("the answer process sent a malformed reply")
        if "raise" in msg:
            names = msg["raise"] if isinstance(msg["raise"], list) else []
            raise _builtin_exception(names, str(msg.get("message", ""))[:2000])
        return msg.get("value"), msg.get("after")

    def value(self, op: str, **kw):
        value, _ = self.call(op, **kw)
        return decode(value, self)


def decode(x, ch: Channel, depth: int = 0):
    """Wire data -> exact builtin values and Remote handles (never the answer's types)."""
    if depth > MAX_DEPTH:
        raise AnswerError("the answer returned a value nested too deeply")
    t = type(x)
    if x is None or t is bool or t is int or t is float or t is str:
        return x
    if t is list:
        return [decode(e, ch, depth + 1) for e in x]
    if t is not dict:
        raise AnswerError(f"malformed value from the answer: {t.__name__}")
    tag = x.get("$")
    fn = _TAGS.get(tag) if isinstance(tag, str) else None
    if fn is None:
        raise AnswerError(f"malformed value from the answer: tag {tag!r}")
    try:
        return fn(x, x.get("v"), ch, depth + 1)
    except (TypeError, ValueError, KeyError) as e:  # unhashable keys, bad hex, ...
        raise AnswerError(f"malformed value from the answer: {e}") from None


def _float(x, v, ch, d):
    if v not in ("nan", "inf", "-inf"):
        raise ValueError(f"bad float {v!r}")
    return float(v)


_TAGS = {
    "tuple": lambda x, v, ch, d: tuple(decode(e, ch, d) for e in v),
    "set": lambda x, v, ch, d: {decode(e, ch, d) for e in v},
    "frozenset": lambda x, v, ch, d: frozenset(decode(e, ch, d) for e in v),
    "dict": lambda x, v, ch, d: {decode(k, ch, d): decode(e, ch, d) for k, e in v},
    "bytes": lambda x, v, ch, d: bytes.fromhex(v),
    "bytearray": lambda x, v, ch, d: bytearray.fromhex(v),
    "complex": lambda x, v, ch, d: complex(float(v[0]), float(v[1])),
    "float": _float,
    "handle": lambda x, v, ch, d: Remote(
        ch, int(x["id"]), str(x.get("kind", "object")), str(x.get("name", ""))
    ),
}


def _write_back(args: list, after) -> None:
    """Mirror in-place changes the answer made to list/dict/set/bytearray arguments."""
    if not isinstance(after, dict):
        return
    for key, val in after.items():
        try:
            target = args[int(key)]
        except (ValueError, IndexError):
            continue
        if type(target) is list and type(val) is list:
            target[:] = val
        elif (type(target) is dict and type(val) is dict) or (
            type(target) is set and type(val) is set
        ):
            target.clear()
            target.update(val)
        elif type(target) is bytearray and type(val) is bytearray:
            target[:] = val


class Remote:
    """A handle to an object that lives in the answer's process."""

    __slots__ = ("_ch", "_id", "_kind", "_name")

    def __init__(self, ch: Channel, hid: int, kind: str, name: str) -> None:
        for k, v in (("_ch", ch), ("_id", hid), ("_kind", kind), ("_name", name)):
            object.__setattr__(self, k, v)

    def _op(self, op: str, **kw):
        ch = object.__getattribute__(self, "_ch")
        return ch.value(op, id=object.__getattribute__(self, "_id"), **kw)

    def __call__(self, *args, **kwargs):
        ch = object.__getattribute__(self, "_ch")
        sent = list(args) + list(kwargs.values())
        value, after = ch.call("call", id=object.__getattribute__(self, "_id"),
                               args=[encode(a) for a in args],
                               kwargs={str(k): encode(v) for k, v in kwargs.items()})  # fmt: skip
        if isinstance(after, dict):
            _write_back(sent, {k: decode(v, ch) for k, v in after.items()})
        return decode(value, ch)

    def __getattr__(self, name: str):
        return self._op("getattr", name=name)

    def __setattr__(self, name: str, value) -> None:
        self._op("setattr", name=name, value=encode(value))

    def __len__(self) -> int:
        n = self._op("len")
        if type(n) is not int or n < 0:
            raise TypeError("the answer's __len__ returned a non-integer")
        return n

    def __iter__(self):
        items = self._op("iter")
        if type(items) is not list:
            raise TypeError("the answer's object is not iterable")
        return iter(items)

    def __contains__(self, item) -> bool:
        return self._op("contains", value=encode(item)) is True

    def __getitem__(self, key):
        return self._op("getitem", value=encode(key))

    def __setitem__(self, key, value) -> None:
        self._op("setitem", value=encode(key), extra=encode(value))

    def __delitem__(self, key) -> None:
        self._op("delitem", value=encode(key))

    def __bool__(self) -> bool:
        return self._op("bool") is True

    def __str__(self) -> str:
        s = self._op("str")
        return s if type(s) is str else "<answer object>"

    def __repr__(self) -> str:
        s = self._op("repr")
        return s if type(s) is str else "<answer object>"

    def __eq__(self, other) -> bool:
        return self is other

    def __hash__(self) -> int:
        return object.__getattribute__(self, "_id")


def channel_from_env() -> Channel:
    r, w = (int(x) for x in os.environ.pop("RLVR_RPC_FDS").split(","))
    return Channel(r, w)


def import_answer(ch: Channel, module: str) -> types.ModuleType:
    """A module object standing for the answer's module: its attributes are fetched remotely."""
    root = ch.value("import", name=module)
    if type(root) is not Remote:
        raise ImportError(f"the answer's module {module!r} could not be imported")
    mod = types.ModuleType(module, "the answer, running in another process")

    def __getattr__(name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        try:
            return getattr(root, name)
        except AttributeError:
            raise ImportError(f"cannot import name {name!r} from the answer") from None

    mod.__getattr__ = __getattr__  # type: ignore[attr-defined]
    mod.__file__ = f"<answer {module}>"
    return mod


def install(ch: Channel, module: str) -> types.ModuleType:
    """Make `import <module>` in the judge give the proxy module."""
    mod = import_answer(ch, module)
    sys.modules[module] = mod
    return mod
