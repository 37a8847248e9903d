import hashlib

EXPECTED = [
    "carol@test.org",
    "grace@mail.net",
    "ivan@test.org",
    "frank@test.org",
    "heidi@example.com",
    "JUDY@MAIL.NET",
    "erin@example.com",
    "alice@example.com",
    "bob@example.com",
    "dave@mail.net",
]


def test_unique_lines(ws):
    got = ws.read_text("unique.txt").splitlines()
    assert got == EXPECTED, f"unique.txt holds {got}"


def test_unique_trailing_newline(ws):
    assert ws.read_text("unique.txt").endswith("\n"), "unique.txt must end with a newline"


def test_dropped_count(ws):
    got = ws.read_text("dropped.txt").strip()
    assert got == "50", f"dropped.txt holds {got!r}"


def test_input_untouched(ws):
    assert (
        hashlib.sha256(ws.read_bytes("contacts.txt")).hexdigest()
        == "10b500dec0cc1217f9d418087d1e2ce71902504d2f8b661ded26544797ac8c31"
    ), "contacts.txt was changed"
