import hashlib

EXPECTED = "customer_id,name,orders,total\n105,Ken Thompson,10,2459.63\n107,Frances Allen,7,2264.86\n101,Alan Turing,4,1081.90\n100,Ada Lovelace,3,1006.37\n102,Grace Hopper,4,846.31\n106,Donald Knuth,2,733.33\n109,Radia Perlman,2,468.52\n103,Edsger Dijkstra,2,439.53\n108,John McCarthy,1,352.84\n104,Barbara Liskov,2,197.79\n"


def test_header(ws):
    assert ws.read_text("totals.csv").splitlines()[0] == "customer_id,name,orders,total"


def test_rows(ws):
    got = ws.read_text("totals.csv").splitlines()[1:]
    assert got == EXPECTED.splitlines()[1:], f"rows: {got}"


def test_exact(ws):
    assert ws.read_text("totals.csv") == EXPECTED, "totals.csv differs (trailing newline?)"


def test_inputs_untouched(ws):
    assert (
        hashlib.sha256(ws.read_bytes("orders.csv")).hexdigest()
        == "a7d6703b0aecbe7104dd930580b7f8620fb41342e15fedc714005a7f38198ff4"
    ), "orders.csv changed"
    assert (
        hashlib.sha256(ws.read_bytes("customers.csv")).hexdigest()
        == "9def0c63dfafcb9485d9da6fd6f5020a01c1603df3dc150395659280ceed9936"
    ), "customers.csv changed"
