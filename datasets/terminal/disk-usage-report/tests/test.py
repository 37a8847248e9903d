USAGE = "186669 cache\n104819 images\n91135 logs\n58636 tmp\n21285 db\n"
LARGEST = "data/images/f1.bin"


def test_usage_lines(ws):
    got = ws.read_text("usage.txt").splitlines()
    assert got == USAGE.splitlines(), f"usage.txt holds {got}"


def test_usage_exact(ws):
    assert ws.read_text("usage.txt") == USAGE, (
        "usage.txt must end with a newline and hold nothing else"
    )


def test_largest(ws):
    got = ws.read_text("largest.txt").strip()
    assert got == LARGEST, f"largest.txt holds {got!r}"


def test_data_untouched(ws):
    assert len(ws.files("data")) == 30, "files under data/ were added or removed"
