import hashlib
import shlex

CASES = [
    (
        '[{"sku": "D18", "qty": 340, "price": 168.23}, {"sku": "B-71", "qty": 48, "price": 667.86}, {"sku": "D16", "qty": 320, "price": 610.22}, {"sku": "D18", "qty": 54, "price": 528.37}]',
        "D18       $57,198.20\nB-71      $32,057.28\nD16       $195,270.40\nD18       $28,531.98\nTOTAL     $313,057.86\n",
    ),
    (
        '[{"sku": "CX-30005", "qty": 319, "price": 541.75}, {"sku": "D15", "qty": 100, "price": 412.15}, {"sku": "CX-30000", "qty": 287, "price": 275.0}, {"sku": "B-77", "qty": 296, "price": 450.9}, {"sku": "A-1008", "qty": 354, "price": 800.83}, {"sku": "CX-30007", "qty": 305, "price": 191.63}]',
        "CX-30005  $172,818.25\nD15       $41,215.00\nCX-30000  $78,925.00\nB-77      $133,466.40\nA-1008    $283,493.82\nCX-30007  $58,447.15\nTOTAL     $768,365.62\n",
    ),
    (
        '[{"sku": "A-1008", "qty": 143, "price": 662.7}]',
        "A-1008    $94,766.10\nTOTAL     $94,766.10\n",
    ),
]


def test_sample(ws):
    run = _feed(ws, ["node", "report.js"], ws.read_text("orders.json"))
    assert run.exit_code == 0, run.output[-400:]
    assert run.output.splitlines()[-1] == "TOTAL     $3,769.40", run.output[-200:]


def test_new_orders(ws):
    for stdin, want in CASES:
        run = _feed(ws, ["node", "report.js"], stdin)
        assert run.output == want, f"got {run.output[:300]!r}, expected {want!r}"


def test_report_unchanged(ws):
    assert (
        hashlib.sha256(ws.read_bytes("report.js")).hexdigest()
        == "d758a2914af51489d2f95a3dd440e9052d0d850c0e5bf4425477df02a6e7d6fd"
    ), "report.js was changed"


def _feed(ws, argv, stdin):
    """Run argv with `stdin` as its input, passed through a file (the program may exit before reading it)."""
    return ws.run('f=$(mktemp) && cat > "$f" && exec ' + shlex.join(argv) + ' < "$f"', stdin=stdin)
