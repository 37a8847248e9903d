import csv
import io

ROWS = [
    ["id", "ts", "user_name", "user_email", "tags"],
    ["ev008", "2026-11-01T19:23:00Z", "Di", "a@x.io", "d;b;a"],
    ["ev002", "2026-11-02T08:59:00Z", "Bo, Jr.", "b@y.io", "d;b;a"],
    ["ev013", "2026-11-04T14:08:00Z", "Di", "b@y.io", "d;a"],
    ["ev004", "2026-11-05T06:54:00Z", "Ann", "", "c;a;d"],
    ["ev005", "2026-11-12T16:40:00Z", 'Cy "The Guy"', "b@y.io", "d;c"],
    ["ev010", "2026-11-13T10:17:00Z", 'Cy "The Guy"', "", "d"],
    ["ev012", "2026-11-14T23:18:00Z", "Bo, Jr.", "a@x.io", "d"],
    ["ev001", "2026-11-17T04:47:00Z", "Ann", "b@y.io", "c;a"],
    ["ev003", "2026-11-17T11:19:00Z", "Di", "b@y.io", "a"],
    ["ev014", "2026-11-17T18:54:00Z", "Bo, Jr.", "b@y.io", ""],
    ["ev017", "2026-11-18T09:31:00Z", 'Cy "The Guy"', "", "d;a"],
    ["ev007", "2026-11-18T15:25:00Z", "Bo, Jr.", "", "c"],
    ["ev016", "2026-11-19T12:35:00Z", "Ann", "b@y.io", "b"],
    ["ev006", "2026-11-19T21:07:00Z", "Di", "b@y.io", "d;a;c"],
    ["ev009", "2026-11-19T22:48:00Z", "Di", "a@x.io", "a"],
    ["ev015", "2026-11-20T19:01:00Z", "Bo, Jr.", "a@x.io", "a;d"],
    ["ev011", "2026-11-25T23:42:00Z", "Di", "a@x.io", ""],
    ["ev019", "2026-11-26T09:57:00Z", "Bo, Jr.", "b@y.io", ""],
    ["ev000", "2026-11-26T13:57:00Z", "Bo, Jr.", "a@x.io", "a;d;b"],
    ["ev018", "2026-11-28T01:52:00Z", 'Cy "The Guy"', "", ""],
]


def _rows(ws):
    return list(csv.reader(io.StringIO(ws.read_text("events.csv"))))


def test_header(ws):
    assert _rows(ws)[0] == ROWS[0], f"header: {_rows(ws)[0]}"


def test_rows(ws):
    got = _rows(ws)
    assert len(got) == len(ROWS), f"{len(got) - 1} data rows, expected {len(ROWS) - 1}"
    for g, w in zip(got[1:], ROWS[1:]):
        assert g == w, f"row {g} expected {w}"


def test_quoting(ws):
    text = ws.read_text("events.csv")
    assert '"Bo, Jr."' in text and ('"Cy ""The Guy""' + chr(34)) in text, (
        "fields with commas or quotes are not quoted as CSV requires"
    )
