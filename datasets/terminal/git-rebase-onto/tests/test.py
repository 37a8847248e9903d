MAIN = "83dd8a7504133f34f8f37fbb70d762962e61ccc9"
OLD = "407bb218c061b843f30ac519a8a7dc25ddabcecd"


def git(ws, *args):
    return ws.run(["git", "-C", "web", *args])


def test_feature_history(ws):
    got = git(ws, "log", "--format=%s", "feature").output.splitlines()
    assert got == ["Add logout", "Add login", "Describe the site", "Add b", "Add a", "Initial"], (
        f"feature: {got}"
    )
    assert git(ws, "rev-parse", "feature~2").output.strip() == MAIN, "feature is not on top of main"


def test_feature_content(ws):
    assert git(ws, "cat-file", "-e", "feature:legacy.txt").exit_code != 0, (
        "legacy.txt from old-base is on feature"
    )
    assert "def logout" in git(ws, "show", "feature:logout.py").output
    assert "def login" in git(ws, "show", "feature:login.py").output


def test_other_branches(ws):
    assert git(ws, "rev-parse", "main").output.strip() == MAIN, "main changed"
    assert git(ws, "rev-parse", "old-base").output.strip() == OLD, "old-base changed"


def test_checked_out_clean(ws):
    assert git(ws, "symbolic-ref", "--short", "HEAD").output.strip() == "feature", (
        "feature is not checked out"
    )
    assert git(ws, "status", "--porcelain").output.strip() == "", "working tree not clean"
