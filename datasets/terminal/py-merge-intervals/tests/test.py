import shlex

CASES = [
    (
        "57-59\n85-87\n83-87\n2-14\n42-48\n43-44\n95-101\n11-17\n68-80\n8-15\n",
        "2-17\n42-48\n57-59\n68-80\n83-87\n95-101\n",
    ),
    ("64-76\n4-12\n\n27-29\n82-88\n54-63\n81-86\n  \n", "4-12\n27-29\n54-63\n64-76\n81-88\n"),
    (
        "96-107\n16-26\n54-63\n0-1\n22-30\n55-56\n46-51\n10-15\n9-21\n6-11\n99-103\n28-33\n43-46\n63-66\n",
        "0-1\n6-33\n43-51\n54-66\n96-107\n",
    ),
    ("12-22\n56-66\n77-84\n64-64\n2-2\n6-13\n21-32\n0-9\n", "0-32\n56-66\n77-84\n"),
    ("5-5\n1-3\n3-4\n6-7\n", "1-4\n5-5\n6-7\n"),
]


def test_example(ws):
    run = _feed(ws, ["python3", "merge.py"], "4-5\n1-3\n2-3\n")
    assert run.exit_code == 0 and run.output == "1-3\n4-5\n", run.output[:300]


def test_new_inputs(ws):
    for text, want in CASES:
        run = _feed(ws, ["python3", "merge.py"], text)
        assert run.output == want, f"for {text[:60]!r}: got {run.output[:200]!r}, expected {want!r}"


def test_empty_input(ws):
    run = _feed(ws, ["python3", "merge.py"], "")
    assert run.exit_code == 0 and run.output == "", run.output[:200]


def _feed(ws, argv, stdin):
    """Run argv with `stdin` as its input, passed through a file (the program may exit before reading it)."""
    return ws.run('f=$(mktemp) && cat > "$f" && exec ' + shlex.join(argv) + ' < "$f"', stdin=stdin)
