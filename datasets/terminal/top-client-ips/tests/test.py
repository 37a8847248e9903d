import hashlib

EXPECTED = "70 10.0.1.30\n46 10.0.1.20\n41 10.0.3.3\n36 10.0.2.16\n32 10.0.1.11\n"


def test_top5_exact(ws):
    got = ws.read_text("top5.txt")
    assert got == EXPECTED, f"top5.txt is {got[:300]!r}"


def test_five_lines(ws):
    assert len(ws.read_text("top5.txt").splitlines()) == 5, "top5.txt must have five lines"


def test_log_untouched(ws):
    assert (
        hashlib.sha256(ws.read_bytes("access.log")).hexdigest()
        == "36053c3d5d6ab05a76026078db60cb06cc2dd6e4084cb428723d688ceb0bfa64"
    ), "access.log was changed"
