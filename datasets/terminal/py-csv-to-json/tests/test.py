import json
import shlex

SAMPLE = 'id,name,score,active,note\n1,Ada,91.5,true,\n2,"Lovelace, A.",007,false,"said ""hi"""\n'
CASES = [
    (
        'sku,qty,price,tags\nA1,3,9.99,"red,blue"\nB2,-4,-0.5,\nC3,0,10,true\n',
        [
            {"sku": "A1", "qty": 3, "price": 9.99, "tags": "red,blue"},
            {"sku": "B2", "qty": -4, "price": -0.5, "tags": None},
            {"sku": "C3", "qty": 0, "price": 10, "tags": True},
        ],
    ),
    (
        "x\n-0\n1.0e3\n12.\n.5\nTRUE\nnull\n",
        [{"x": 0}, {"x": "1.0e3"}, {"x": "12."}, {"x": ".5"}, {"x": "TRUE"}, {"x": "null"}],
    ),
    (
        'city,pop,capital\n"São Paulo",12325000,false\nOslo,709037,true\n"New\nYork",8336817,false\n',
        [
            {"city": "São Paulo", "pop": 12325000, "capital": False},
            {"city": "Oslo", "pop": 709037, "capital": True},
            {"city": "New\nYork", "pop": 8336817, "capital": False},
        ],
    ),
    (
        "a,b,c\n,,\n-12,3.14159,x y z\n",
        [{"a": None, "b": None, "c": None}, {"a": -12, "b": 3.14159, "c": "x y z"}],
    ),
]


def _run(ws, text):
    run = _feed(ws, ["python3", "csv2json.py"], text)
    assert run.exit_code == 0, f"csv2json.py exits {run.exit_code}: {run.output[-300:]}"
    return json.loads(run.output)


def test_sample(ws):
    got = _run(ws, SAMPLE)
    assert got == [
        {"id": 1, "name": "Ada", "score": 91.5, "active": True, "note": None},
        {"id": 2, "name": "Lovelace, A.", "score": "007", "active": False, "note": 'said "hi"'},
    ], got


def test_new_inputs(ws):
    for text, want in CASES:
        got = _run(ws, text)
        assert got == want, f"for {text[:50]!r}: got {got}, expected {want}"


def test_types_exact(ws):
    got = _run(ws, "n\n5\n5.0\n")
    assert type(got[0]["n"]) is int and type(got[1]["n"]) is float, got


def _feed(ws, argv, stdin):
    """Run argv with `stdin` as its input, passed through a file (the program may exit before reading it)."""
    return ws.run('f=$(mktemp) && cat > "$f" && exec ' + shlex.join(argv) + ' < "$f"', stdin=stdin)
