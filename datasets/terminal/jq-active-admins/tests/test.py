import hashlib
import json

ADMINS = [
    "user30@corp.example",
    "user16@corp.example",
    "user28@corp.example",
    "user17@corp.example",
    "user32@corp.example",
    "user19@corp.example",
    "user9@corp.example",
    "user40@corp.example",
]
ROLES = {"admin": 8, "billing": 13, "dev": 8, "ops": 8, "viewer": 10}


def test_admins(ws):
    got = ws.read_text("admins.txt").splitlines()
    assert got == ADMINS, f"admins.txt holds {got}"


def test_roles(ws):
    got = json.loads(ws.read_text("roles.json"))
    assert got == ROLES, f"roles.json holds {got}"


def test_input_untouched(ws):
    assert (
        hashlib.sha256(ws.read_bytes("users.json")).hexdigest()
        == "90df9ac5bd77290f36a365b3a5f5934aa83c5038992f50637e9b3a81b6de707b"
    ), "users.json was changed"
