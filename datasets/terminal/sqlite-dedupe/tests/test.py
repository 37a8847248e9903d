EXPECTED = "1|user10@example.com|Bob|2026-09-11\n2|user6@example.com|Bob|2026-03-16\n3|user13@example.com|Bob|2026-02-18\n5|user7@example.com|Cy|2026-09-11\n6|user0@example.com|Cy|2026-03-12\n7|user8@example.com|Bob|2026-01-13\n10|user3@example.com|Bob|2026-05-19\n11|user4@example.com|Bob|2026-06-12\n12|user5@example.com|Ann|2026-08-17\n15|user1@example.com|Ann|2026-06-13\n16|user14@example.com|Ann|2026-08-17\n19|user9@example.com|Ann|2026-08-13\n21|user12@example.com|Cy|2026-09-13\n24|user11@example.com|Bob|2026-08-19\n33|user2@example.com|Cy|2026-08-17"


def _sql(ws, query):
    run = ws.run(["sqlite3", "-readonly", "list.db", query])
    assert run.exit_code == 0, f"sqlite3: {run.output[:300]}"
    return run.output.strip()


def test_rows(ws):
    got = _sql(ws, "SELECT rowid, email, name, joined FROM subscribers ORDER BY rowid;")
    assert got == EXPECTED, f"subscribers holds:\n{got[:600]}"


def test_unique_index(ws):
    got = _sql(
        ws,
        "SELECT \"unique\" FROM pragma_index_list('subscribers') WHERE name = 'subscribers_email';",
    )
    assert got == "1", "no unique index subscribers_email"
    cols = _sql(ws, "SELECT name FROM pragma_index_info('subscribers_email');")
    assert cols == "email", f"subscribers_email indexes {cols!r}"


def test_schema_kept(ws):
    got = _sql(ws, "SELECT name, type FROM pragma_table_info('subscribers') ORDER BY cid;")
    assert got.split() == ["email|TEXT", "name|TEXT", "joined|TEXT"], got
