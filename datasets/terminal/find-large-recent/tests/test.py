EXPECTED = "68272 var/log/blob08.dat\n65103 var/cache/x/blob03.dat\n"


def test_report(ws):
    got = ws.read_text("large-recent.txt")
    assert got.splitlines() == EXPECTED.splitlines(), f"large-recent.txt: {got[:400]!r}"


def test_exact(ws):
    assert ws.read_text("large-recent.txt") == EXPECTED, (
        "large-recent.txt must end with a newline and hold only these lines"
    )


def test_nothing_deleted(ws):
    assert len(ws.files("var")) == 13, "files under var/ were added or removed"
