EXPECTED = [
    "M README",
    "A conf/y.ini",
    "D docs/api.md",
    "M docs/guide.md",
    "A docs/howto.md",
    "M src/b.py",
    "A src/new.py",
    "D src/old.py",
]


def test_changes(ws):
    got = ws.read_text("changes.txt").splitlines()
    assert got == EXPECTED, f"changes.txt: {got}"


def test_trailing_newline(ws):
    assert ws.read_text("changes.txt").endswith("\n")


def test_workspace(ws):
    assert ws.is_file("v1.tar.gz") and ws.is_file("v2.tar.gz"), "an archive is gone"
    assert not ws.exists("app-1.0") and not ws.exists("app-1.1"), (
        "extracted files were left in /app"
    )
