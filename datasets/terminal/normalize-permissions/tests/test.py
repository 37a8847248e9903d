import hashlib

MODES = {
    "site/index.html": 420,
    "site/deploy.sh": 493,
    "site/css/main.css": 420,
    "site/js/app.js": 420,
    "site/tools/build.sh": 493,
    "site/tools/README": 420,
    "site/tools/lint.sh": 493,
    "site/data/private.key": 420,
    "site/data/notes.txt": 420,
    "site/cgi/run.py": 420,
    "site": 493,
    "site/css": 493,
    "site/js": 493,
    "site/tools": 493,
    "site/data": 493,
    "site/cgi": 493,
}
HASHES = {
    "site/index.html": "737e6daf77521604fc482aa91e8bed8c47f4815c624e61e49c45ecbb5832f708",
    "site/deploy.sh": "044cf6ccded2a6d7420ab6e2f157c3750e1d189084e7aa10422c6da15dc27a85",
    "site/css/main.css": "2708d73bf31c36cdfa1aa466551ed101017280fa546caba4473cfef6e92a93b5",
    "site/js/app.js": "3879a5d930ae1999b278a3a498f7de3fd83ba8dae59330fcfa2db31c103ac21d",
    "site/tools/build.sh": "39993e331f8fd19dadcf53c122576dab80316d0946b13c2e5767792f98eae843",
    "site/tools/README": "21be1903630f069893d2d0bed2ab7945c3fd838da02dd7516f1f4f89819af857",
    "site/tools/lint.sh": "f98aac584a3561e0d1d3e0a60a49dc7624ce71db038d7df770ef10646c973740",
    "site/data/private.key": "4a3ec3730504983f960fb2df35a1d68d640ff55d151fa3128ca0fc707f86882e",
    "site/data/notes.txt": "444e0fffbd825e9610ff5b199485707a0c895339ae80c15cc8a8aee41b106fda",
    "site/cgi/run.py": "cc42155088fca5730758db72b2a5bca33112a941dfaa2d43098ec422ce4ea213",
}


def test_directory_modes(ws):
    bad = {p: oct(ws.mode(p)) for p, m in MODES.items() if ws.is_dir(p) and ws.mode(p) != m}
    assert all(ws.is_dir(p) for p, m in MODES.items() if p not in HASHES), "a directory is missing"
    assert not bad, f"directories with the wrong mode: {bad}"


def test_script_modes(ws):
    bad = {p: oct(ws.mode(p)) for p in HASHES if p.endswith(".sh") and ws.mode(p) != 0o755}
    assert not bad, f"scripts with the wrong mode: {bad}"


def test_other_file_modes(ws):
    bad = {p: oct(ws.mode(p)) for p in HASHES if not p.endswith(".sh") and ws.mode(p) != 0o644}
    assert not bad, f"files with the wrong mode: {bad}"


def test_files_unchanged(ws):
    assert ws.files("site") == sorted(HASHES), f"the files under site/ changed: {ws.files('site')}"
    for p, h in HASHES.items():
        assert hashlib.sha256(ws.read_bytes(p)).hexdigest() == h, f"{p} was changed"
