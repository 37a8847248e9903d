import hashlib
import shlex

CASES = [
    (
        "bird fish dog. and bird The bird Bird dog, fish Mouse! and fish bird dog, the A dog. Mouse! fish of dog. a cat A fish Mouse! bird A The cat bird The A Bird Bird Mouse! (cat) (cat) the Mouse! fish and the A of a bird of dog. (cat) mouse? the (cat) Mouse! The dog. The a and\n",
        3,
        "10 bird\n7 dog\n7 mouse\n",
    ),
    (
        "fish dog, a bird dog, a a of fish CAT; the the of Bird CAT; CAT; and and The A Mouse! fish mouse? bird dog. fish Bird fish of CAT; of the cat bird CAT; a of (cat) and a bird bird mouse? a CAT; the (cat) CAT; and and of the dog, a and bird dog. fish A (cat)\n",
        5,
        "11 cat\n8 bird\n6 fish\n5 dog\n3 mouse\n",
    ),
    (
        "the a The bird dog, bird of a the Mouse! mouse? the the and CAT; bird fish bird fish A dog, the the Mouse! the CAT; Mouse! bird (cat) fish the The the bird A dog. the CAT; dog, dog, the CAT; the the cat (cat) bird bird bird a (cat) A fish fish the and CAT; bird the the\n",
        10,
        "10 bird\n9 cat\n5 dog\n5 fish\n4 mouse\n",
    ),
]


def test_cli_runs(ws):
    run = _feed(ws, ["python3", "-m", "textstats.cli", "2"], "b a b c c c the the the the\n")
    assert run.exit_code == 0 and run.output == "3 c\n2 b\n", run.output[:400]


def test_new_texts(ws):
    for text, n, want in CASES:
        run = _feed(ws, ["python3", "-m", "textstats.cli", str(n)], text)
        assert run.output == want, f"N={n}: got {run.output[:300]!r}, expected {want!r}"


def test_modules_import_alone(ws):
    for mod in ("textstats.utils", "textstats.counter"):
        run = ws.run(["python3", "-c", f"import {mod}"])
        assert run.exit_code == 0, f"import {mod} fails: {run.output[-300:]}"


def test_cli_unchanged(ws):
    assert (
        hashlib.sha256(ws.read_bytes("textstats/cli.py")).hexdigest()
        == "24b4e5f35369d78dbf01aae9b5481e82be6ba511659f03aa91bcb2c18e362fea"
    ), "cli.py was changed"


def _feed(ws, argv, stdin):
    """Run argv with `stdin` as its input, passed through a file (the program may exit before reading it)."""
    return ws.run('f=$(mktemp) && cat > "$f" && exec ' + shlex.join(argv) + ' < "$f"', stdin=stdin)
