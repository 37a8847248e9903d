import hashlib

EXPECTED = "path\tcount\tavg_ms\tmax_ms\n/api/items\t68\t131\t238\n/api/orders\t70\t146\t237\n/api/search\t62\t773\t1159\n/api/users\t62\t137\t237\n/health\t70\t5\t9\n/login\t68\t132\t232\n"


def test_header(ws):
    first = ws.read_text("latency.tsv").splitlines()[0]
    assert first == "path\tcount\tavg_ms\tmax_ms", f"header is {first!r}"


def test_rows(ws):
    got = ws.read_text("latency.tsv").splitlines()[1:]
    want = EXPECTED.splitlines()[1:]
    assert got == want, f"rows are {got}"


def test_exact_file(ws):
    assert ws.read_text("latency.tsv") == EXPECTED, (
        "latency.tsv is not exactly the expected table (trailing newline?)"
    )


def test_log_untouched(ws):
    assert (
        hashlib.sha256(ws.read_bytes("timing.log")).hexdigest()
        == "99c9473ab6329b296e1dab502caf8ffa5e6ca04d181dc945994f2f000d304383"
    ), "timing.log was changed"
