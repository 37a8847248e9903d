MAIN_TIP = "363031a8adeb6d865e675d1f87bfe975e3438e48"
FEATURE_TIP = "8b8e2f1cd69bc6650b95f78fa9e3d97944f77f4d"


def git(ws, *args):
    run = ws.run(["git", "-C", "app", *args])
    return run


def test_main_history(ws):
    run = git(ws, "log", "--format=%s", "main")
    assert run.output.splitlines() == [
        "Fix off-by-one in paginate",
        "Describe the app",
        "Add view",
        "Add pager",
    ], run.output[:300]
    parent = git(ws, "rev-parse", "main~1").output.strip()
    assert parent == MAIN_TIP, "main's earlier history was rewritten"


def test_only_the_fix(ws):
    assert git(ws, "cat-file", "-e", "main:api.py").exit_code != 0, (
        "experimental api.py reached main"
    )
    run = ws.run(
        [
            "python3",
            "-c",
            "import sys; sys.path.insert(0, 'app'); import pager; print(pager.paginate(list(range(10)), 1, 3))",
        ]
    )
    assert run.output.strip() == "[3, 4, 5]", run.output[:300]


def test_feature_branch_kept(ws):
    assert git(ws, "rev-parse", "feature/experimental").output.strip() == FEATURE_TIP, (
        "feature/experimental changed"
    )


def test_on_main_and_clean(ws):
    assert git(ws, "symbolic-ref", "--short", "HEAD").output.strip() == "main", (
        "HEAD is not on main"
    )
    run = git(ws, "status", "--porcelain")
    assert run.exit_code == 0 and run.output.strip() == "", run.output[:300]
