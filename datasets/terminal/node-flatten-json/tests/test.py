import json
import shlex

CASES = [
    (
        '{"a": 1, "b": {"c": [1, {"d": null}], "e": {}}, "f": [], "g": "x.y"}',
        {"a": 1, "b.c.0": 1, "b.c.1.d": None, "b.e": {}, "f": [], "g": "x.y"},
    ),
    (
        '{"users": [{"name": "ann", "tags": ["a", "b"]}, {"name": "bo", "tags": []}], "meta": {"count": 2, "ok": true}}',
        {
            "users.0.name": "ann",
            "users.0.tags.0": "a",
            "users.0.tags.1": "b",
            "users.1.name": "bo",
            "users.1.tags": [],
            "meta.count": 2,
            "meta.ok": True,
        },
    ),
    (
        '{"deep": {"l1": {"l2": {"l3": {"l4": 3.5}}}}, "list": [[1, 2], [3, [4]]]}',
        {"deep.l1.l2.l3.l4": 3.5, "list.0.0": 1, "list.0.1": 2, "list.1.0": 3, "list.1.1.0": 4},
    ),
    ("{}", {}),
]


def _run(ws, text):
    run = _feed(ws, ["node", "flatten.js"], text)
    assert run.exit_code == 0, f"flatten.js exits {run.exit_code}: {run.output[-300:]}"
    return json.loads(run.output)


def test_example(ws):
    got = _run(ws, '{"a": [5, {"b": 6}], "c": {}}')
    assert got == {"a.0": 5, "a.1.b": 6, "c": {}}, got


def test_new_inputs(ws):
    for text, want in CASES:
        got = _run(ws, text)
        assert got == want, f"for {text[:60]}: got {got}, expected {want}"


def _feed(ws, argv, stdin):
    """Run argv with `stdin` as its input, passed through a file (the program may exit before reading it)."""
    return ws.run('f=$(mktemp) && cat > "$f" && exec ' + shlex.join(argv) + ' < "$f"', stdin=stdin)
