EXPECTED = "product,category,units,revenue\nInk,supplies,59,3897.05\nEnamel,paint,47,2785.18\nFile,tools,45,2591.00\nKiln,ceramics,57,2353.48\nChisel,tools,40,2262.90\n"
CATEGORIES = [("ceramics", 235348), ("paint", 619373), ("supplies", 531437), ("tools", 1235591)]


def _sql(ws, query):
    run = ws.run(["sqlite3", "-readonly", "-separator", "|", "shop.db", query])
    assert run.exit_code == 0, f"sqlite3: {run.output[:300]}"
    return run.output


def test_top_products(ws):
    got = ws.read_text("top_products.csv")
    assert got.splitlines() == EXPECTED.splitlines(), f"top_products.csv: {got[:400]!r}"
    assert got.endswith("\n"), "top_products.csv must end with a newline"


def test_view(ws):
    out = _sql(
        ws,
        "SELECT category, revenue_cents, typeof(revenue_cents) FROM category_revenue ORDER BY category;",
    )
    got = [tuple(line.split("|")) for line in out.splitlines()]
    want = [(c, str(r), "integer") for c, r in CATEGORIES]
    assert got == want, f"category_revenue: {got}"


def test_is_a_view(ws):
    out = _sql(ws, "SELECT type FROM sqlite_master WHERE name = 'category_revenue';")
    assert out.strip() == "view", f"category_revenue is {out.strip()!r}"


def test_data_unchanged(ws):
    out = _sql(
        ws,
        "SELECT count(*), sum(qty * unit_price_cents) FROM order_items; SELECT count(*) FROM orders WHERE status = 'cancelled';",
    )
    assert out.split() == ["108|3081243", "6"], f"the tables changed: {out}"
