LEAK = "ccea1a7fdfa3fd3849728a51c66275c3a780917a"


def test_commit_hash(ws):
    got = ws.read_text("leak_commit.txt").strip()
    assert len(got) == 40, f"leak_commit.txt holds {got!r}, not a full hash"
    subject = ws.run(["git", "-C", "service", "log", "-1", "--format=%s", got]).output.strip()
    assert got == LEAK, f"{got} ({subject!r}) is not the commit that first added the key"


def test_author(ws):
    got = ws.read_text("leak_author.txt").strip()
    assert got == "mallory@example.com", f"leak_author.txt holds {got!r}"


def test_repository_unchanged(ws):
    run = ws.run(["git", "-C", "service", "log", "--format=%s"])
    assert len(run.output.splitlines()) == 9, f"history changed: {run.output[:300]}"
    assert ws.run(["git", "-C", "service", "status", "--porcelain"]).output.strip() == "", (
        "working tree changed"
    )
