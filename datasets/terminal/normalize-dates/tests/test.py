import csv
import hashlib
import io

WANT = [
    ["id", "date", "title"],
    ["1", "2026-07-06", 'The "big" demo'],
    ["2", "2026-11-29", "Retro"],
    ["3", "2026-03-08", 'The "big" demo'],
    ["4", "2026-05-02", "Retro"],
    ["5", "2026-07-18", 'The "big" demo'],
    ["6", "2026-05-06", "Planning"],
    ["7", "2026-11-18", "Review, final"],
    ["8", "2026-01-06", "Retro"],
    ["9", "2026-02-04", "Retro"],
    ["10", "2026-01-22", "Planning"],
    ["11", "2026-02-24", "Planning"],
    ["12", "2026-04-18", "Planning"],
    ["13", "2026-05-20", "Planning"],
    ["14", "2026-11-17", "Launch"],
    ["15", "2026-12-14", "Planning"],
    ["16", "2026-09-20", "Launch"],
    ["17", "2026-01-20", "Planning"],
    ["18", "2026-03-26", "Planning"],
    ["19", "2026-05-06", "Planning"],
    ["20", "2026-09-17", "Review, final"],
    ["21", "2026-10-21", 'The "big" demo'],
    ["22", "2026-01-05", "Review, final"],
    ["23", "2026-03-21", 'The "big" demo'],
    ["24", "2026-11-13", "Planning"],
    ["25", "2026-12-06", "Launch"],
    ["26", "2026-03-27", "Planning"],
    ["27", "2026-06-17", 'The "big" demo'],
    ["28", "2026-02-14", "Planning"],
    ["29", "2026-03-12", "Planning"],
    ["30", "2026-10-04", "Planning"],
]
EXACT = 'id,date,title\n1,2026-07-06,"The ""big"" demo"\n2,2026-11-29,Retro\n3,2026-03-08,"The ""big"" demo"\n4,2026-05-02,Retro\n5,2026-07-18,"The ""big"" demo"\n6,2026-05-06,Planning\n7,2026-11-18,"Review, final"\n8,2026-01-06,Retro\n9,2026-02-04,Retro\n10,2026-01-22,Planning\n11,2026-02-24,Planning\n12,2026-04-18,Planning\n13,2026-05-20,Planning\n14,2026-11-17,Launch\n15,2026-12-14,Planning\n16,2026-09-20,Launch\n17,2026-01-20,Planning\n18,2026-03-26,Planning\n19,2026-05-06,Planning\n20,2026-09-17,"Review, final"\n21,2026-10-21,"The ""big"" demo"\n22,2026-01-05,"Review, final"\n23,2026-03-21,"The ""big"" demo"\n24,2026-11-13,Planning\n25,2026-12-06,Launch\n26,2026-03-27,Planning\n27,2026-06-17,"The ""big"" demo"\n28,2026-02-14,Planning\n29,2026-03-12,Planning\n30,2026-10-04,Planning\n'


def test_rows(ws):
    got = list(csv.reader(io.StringIO(ws.read_text("events_iso.csv"))))
    assert got[0] == WANT[0], f"header: {got[0]}"
    assert len(got) == len(WANT), f"{len(got)} lines, expected {len(WANT)}"
    for g, w in zip(got, WANT):
        assert g == w, f"row {g}, expected {w}"


def test_exact_text(ws):
    assert ws.read_text("events_iso.csv").replace("\r\n", "\n") == EXACT, (
        "events_iso.csv is not formatted as the input CSV (quoting, newlines)"
    )


def test_input_untouched(ws):
    assert (
        hashlib.sha256(ws.read_bytes("events.csv")).hexdigest()
        == "5e0e153b40e7de07754cdda1e99e2c7984d23672acc07457698369052d4924c1"
    ), "events.csv changed"
