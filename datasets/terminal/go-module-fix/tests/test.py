import shlex

CASES = [
    (
        "cog 18\nbolt 7\ngear 20\ngear 4\nnut 6\nnut 12\nbolt 7\ncog 20\nWasher 17\nspring 8\naxle 6\ngear -5\nnut 0\nbad line\n",
        "Washer 17\naxle 6\nbolt 14\ncog 38\ngear 19\nnut 18\nspring 8\n",
    ),
    (
        "cog 5\naxle 15\nbolt 11\nWasher 19\nWasher 14\ngear 14\ngear 15\nbolt 5\naxle 12\nspring 13\nbolt 11\naxle -3\ncog 16\naxle 5\ngear 10\nnut 12\nspring -1\ncog 10\nspring 19\ncog -2\ncog 3\nspring 7\nbolt 20\nnut 5\nbad line\n",
        "Washer 33\naxle 29\nbolt 47\ncog 32\ngear 39\nnut 17\nspring 38\n",
    ),
    (
        "Washer -5\ngear -2\ncog 10\nbolt 9\naxle 1\nbolt 12\naxle 0\ncog -2\nbolt 18\ncog 11\ngear -4\nWasher 10\ngear -5\nbad line\n",
        "Washer 5\naxle 1\nbolt 39\ncog 19\n",
    ),
    ("widget 3\nwidget -3\ngizmo 1\n", "gizmo 1\n"),
]


def test_binary_runs(ws):
    run = _feed(ws, ["./inventory/inventory"], "bolt 2\nnut 5\nbolt 3\n")
    assert run.exit_code == 0 and run.output == "bolt 5\nnut 5\n", run.output[:300]


def test_new_inputs(ws):
    for stdin, want in CASES:
        run = _feed(ws, ["./inventory/inventory"], stdin)
        assert run.output == want, f"got {run.output[:200]!r}, expected {want!r}"


def test_import_path_kept(ws):
    assert '"example.com/inventory/store"' in ws.read_text("inventory/main.go"), (
        "main.go's import path changed"
    )
    assert ws.read_text("inventory/go.mod").split()[:2] == ["module", "example.com/inventory"], (
        "go.mod does not declare example.com/inventory"
    )


def test_built_programs_are_compiled(ws):
    for name in ["inventory/inventory"]:
        kind = ws.run(["file", "-b", name]).output
        assert kind.startswith("ELF"), f"{name} is not a compiled ELF file: {kind[:100]}"


def _feed(ws, argv, stdin):
    """Run argv with `stdin` as its input, passed through a file (the program may exit before reading it)."""
    return ws.run('f=$(mktemp) && cat > "$f" && exec ' + shlex.join(argv) + ' < "$f"', stdin=stdin)
