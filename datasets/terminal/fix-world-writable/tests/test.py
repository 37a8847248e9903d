AFTER = {
    "srv": 493,
    "srv/index.html": 436,
    "srv/upload": 509,
    "srv/upload/README": 420,
    "srv/bin": 493,
    "srv/bin/restart.sh": 509,
    "srv/bin/status.sh": 493,
    "srv/conf": 493,
    "srv/conf/app.conf": 436,
    "srv/conf/secret.conf": 416,
    "srv/logs": 509,
    "srv/logs/app.log": 384,
}
CHANGED = [
    "srv/bin/restart.sh",
    "srv/bin/status.sh",
    "srv/conf",
    "srv/conf/app.conf",
    "srv/index.html",
    "srv/logs",
    "srv/logs/app.log",
    "srv/upload",
]


def test_modes(ws):
    bad = {p: oct(ws.mode(p)) for p, m in AFTER.items() if ws.mode(p) != m}
    assert not bad, f"wrong modes: {bad} (expected { {p: oct(AFTER[p]) for p in bad} })"


def test_no_world_writable_or_setid(ws):
    bad = [p for p in AFTER if ws.mode(p) & 0o6002]
    assert not bad, f"still world-writable or set-id: {bad}"


def test_changed_list(ws):
    got = ws.read_text("changed.txt").splitlines()
    assert got == CHANGED, f"changed.txt: {got}"
