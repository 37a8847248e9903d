def _sql(ws, query):
    run = ws.run(["sqlite3", "-readonly", "-separator", "|", "people.db", query])
    assert run.exit_code == 0, f"sqlite3: {run.output[:300]}"
    return run.output.strip()


def test_schema(ws):
    got = _sql(ws, "SELECT name, type, pk FROM pragma_table_info('people') ORDER BY cid;")
    assert got.splitlines() == ["id|INTEGER|1", "name|TEXT|0", "email|TEXT|0", "age|INTEGER|0"], got


def test_rows(ws):
    assert _sql(ws, "SELECT count(*), sum(id), sum(age) FROM people;") == "25|325|1130"
    assert _sql(ws, "SELECT count(*) FROM people WHERE age >= 18;") == "18"
    assert _sql(ws, "SELECT name FROM people WHERE id = 7;") == "Smith, J7", (
        "quoted names were not parsed"
    )


def test_nulls(ws):
    got = _sql(
        ws,
        "SELECT sum(age IS NULL), sum(email IS NULL), sum(email = ''), sum(typeof(age) = 'text') FROM people;",
    )
    assert got == "5|4|0|0", (
        f"NULL/empty/text counts (age NULL, email NULL, email '', age text): {got}"
    )


def test_csv_untouched(ws):
    import hashlib

    assert (
        hashlib.sha256(ws.read_bytes("people.csv")).hexdigest()
        == "7594ee634ae0676bd1deaa8ef45b35223d6e76c0e247dbbc3cd1762cb4a61f38"
    ), "people.csv changed"
