import hashlib

FINAL = {
    "src/users.py": "688d1f0f45a8f5d36898e2fc4290db46b0073848510d60b2179f311e9d9d5519",
    "src/api.py": "daa0f5b43c1aa062c72be617bd99344147b1c026d689586056392bd6269dce18",
    "src/legacy/compat.py": "a0706cc08bf9fb096e38b58ee8fccbd01c1aff308cfc6760263ae63d163e78ae",
    "src/README.md": "581d4c519a6c139b3772e4084ad8570541da7065f1aec80905f5d42b637f0747",
    "src/notes.txt": "a6dccb16588bc6568ecf5234765c05e82f59d8d69e931d389c646152d29a6741",
}


def test_python_files(ws):
    for p, h in FINAL.items():
        if p.endswith(".py"):
            assert hashlib.sha256(ws.read_bytes(p)).hexdigest() == h, (
                f"{p} is not as expected:\n{ws.read_text(p)[:400]}"
            )


def test_other_files_unchanged(ws):
    for p, h in FINAL.items():
        if not p.endswith(".py"):
            assert hashlib.sha256(ws.read_bytes(p)).hexdigest() == h, f"{p} was changed"


def test_code_runs(ws):
    run = ws.run(
        [
            "python3",
            "-c",
            "import sys; sys.path.insert(0, 'src'); import api; print(api.handler(7))",
        ]
    )
    assert run.output.strip() == "7", run.output[:300]
