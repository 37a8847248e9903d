BASE = "fab1d508e570b9b8d2c97a58862c0932cf8b7921"
TREE = "110d568e231f43a8b87948c4f1370d88b8566639"


def git(ws, *args):
    return ws.run(["git", "-C", "exporter", *args])


def test_history(ws):
    got = git(ws, "log", "--format=%s", "main").output.splitlines()
    assert got == ["Add CSV export", "Add reader", "Initial"], f"history: {got}"
    assert git(ws, "rev-parse", "main~1").output.strip() == BASE, "earlier commits were rewritten"


def test_message(ws):
    got = git(ws, "log", "-1", "--format=%B", "main").output.strip()
    assert got == "Add CSV export", f"message: {got!r}"


def test_same_content(ws):
    assert git(ws, "rev-parse", "main^{tree}").output.strip() == TREE, "the final content differs"


def test_clean(ws):
    assert git(ws, "symbolic-ref", "--short", "HEAD").output.strip() == "main"
    assert git(ws, "status", "--porcelain").output.strip() == "", "working tree not clean"
