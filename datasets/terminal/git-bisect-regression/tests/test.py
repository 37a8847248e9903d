BAD = "6b670aab0719f3e7ae19bc59813b88f5a31d41db"
HEAD = "ae8c031540fc4024b37aa4b7995fda753e5df2b1"


def git(ws, *args):
    return ws.run(["git", "-C", "calc", *args])


def test_first_bad(ws):
    got = ws.read_text("first_bad.txt").strip()
    subject = git(ws, "log", "-1", "--format=%s", got).output.strip() if len(got) == 40 else ""
    assert got == BAD, f"first_bad.txt holds {got!r} ({subject!r})"


def test_no_bisect_in_progress(ws):
    assert not ws.exists("calc/.git/BISECT_LOG") and not ws.exists("calc/.git/BISECT_START"), (
        "a bisect is still in progress (git bisect reset)"
    )


def test_repository_restored(ws):
    assert git(ws, "symbolic-ref", "--short", "HEAD").output.strip() == "main", (
        "main is not checked out"
    )
    assert git(ws, "rev-parse", "main").output.strip() == HEAD, "main moved"
    assert git(ws, "status", "--porcelain").output.strip() == "", "working tree not clean"
