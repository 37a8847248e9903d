EXPECTED = "region,doohickey,gadget,sprocket,widget\neast,163,28,76,114\nnorth,90,108,138,104\nsouth,168,104,61,78\nwest,208,141,0,192\nTOTAL,629,381,275,488\n"


def test_header(ws):
    assert ws.read_text("pivot.csv").splitlines()[0] == EXPECTED.splitlines()[0], "wrong header"


def test_rows(ws):
    got = ws.read_text("pivot.csv").splitlines()
    assert got[1:-1] == EXPECTED.splitlines()[1:-1], f"rows: {got[1:-1]}"


def test_total_and_exact(ws):
    got = ws.read_text("pivot.csv")
    assert got.splitlines()[-1] == EXPECTED.splitlines()[-1], f"TOTAL line: {got.splitlines()[-1:]}"
    assert got == EXPECTED, "pivot.csv differs (trailing newline?)"
