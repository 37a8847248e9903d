import json

MERGED = {
    "name": "svc",
    "port": 9090,
    "db": {"host": "db.prod", "port": 5432, "pool": {"min": 1, "max": 50}, "ssl": True},
    "features": ["c"],
    "log": {"level": "info"},
    "extra": {"new": {"deep": 1}},
}


def test_merged(ws):
    got = json.loads(ws.read_text("merged.json"))
    assert got == MERGED, f"merged.json: {got}"


def test_removed_keys(ws):
    got = json.loads(ws.read_text("merged.json"))
    assert "tags" not in got and "file" not in got.get("log", {}), (
        "keys set to null in override were not removed"
    )


def test_inputs_untouched(ws):
    assert json.loads(ws.read_text("base.json")) == {
        "name": "svc",
        "port": 8080,
        "db": {"host": "localhost", "port": 5432, "pool": {"min": 1, "max": 10}, "ssl": False},
        "features": ["a", "b"],
        "log": {"level": "info", "file": "/var/log/svc.log"},
        "tags": {"team": "core"},
    }, "base.json changed"
    assert json.loads(ws.read_text("override.json")) == {
        "port": 9090,
        "db": {"host": "db.prod", "pool": {"max": 50}, "ssl": True},
        "features": ["c"],
        "log": {"file": None},
        "tags": None,
        "extra": {"new": {"deep": 1}},
    }, "override.json changed"
