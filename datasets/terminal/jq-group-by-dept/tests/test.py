import hashlib
import json

EXPECTED = {
    "legal": {"count": 2, "names": ["Max B27", "Tia A0"], "total_salary": 100500},
    "sales": {
        "count": 8,
        "names": [
            "Kim C2",
            "Lee W22",
            "Noa F5",
            "Pat D3",
            "Pat L11",
            "Pat Y24",
            "Sam M12",
            "Tia B1",
        ],
        "total_salary": 504500,
    },
    "ops": {
        "count": 7,
        "names": ["Kim Z25", "Max G6", "Max H7", "Ola Q16", "Pat U20", "Sam O14", "Tia N13"],
        "total_salary": 391000,
    },
    "eng": {
        "count": 9,
        "names": [
            "Kim K10",
            "Lee P15",
            "Max T19",
            "Max X23",
            "Ray V21",
            "Sam C28",
            "Sam D29",
            "Sam I8",
            "Tia A26",
        ],
        "total_salary": 466000,
    },
}


def test_departments(ws):
    got = json.loads(ws.read_text("by_dept.json"))
    assert sorted(got) == sorted(EXPECTED), f"departments: {sorted(got)}"


def test_values(ws):
    got = json.loads(ws.read_text("by_dept.json"))
    for dept, want in EXPECTED.items():
        assert got.get(dept) == want, f"{dept}: {got.get(dept)}, expected {want}"


def test_input_untouched(ws):
    assert (
        hashlib.sha256(ws.read_bytes("employees.json")).hexdigest()
        == "354a8362f40d6f9bc02a8eea3c2185697e4ebb863afbb5dd9f6aea54a2e90afa"
    ), "employees.json changed"
