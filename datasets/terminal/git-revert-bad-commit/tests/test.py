"""Checks of git-revert-bad-commit: history kept, the bad commit reverted, tree clean."""

SUBJECTS = ["Add tax", "Document prices", "Tidy pricing", "Add pricing with a 10% discount"]


def _log(ws):
    run = ws.run(["git", "-C", "shop", "log", "--format=%s"])
    assert run.exit_code == 0, run.output[:300]
    return run.output.splitlines()


def test_history_kept_and_last_commit_is_the_revert(ws):
    log = _log(ws)
    assert log[1:] == SUBJECTS, f"history is {log[:6]}"
    assert log[0] == 'Revert "Tidy pricing"', f"last commit is {log[0]!r}"


def test_price_is_fixed(ws):
    run = ws.run(
        [
            "python3",
            "-c",
            "import sys; sys.path.insert(0, 'shop');import pricing; print(pricing.price(100))",
        ]
    )
    assert run.output.strip() == "90.0", run.output[:200]


def test_working_tree_clean(ws):
    run = ws.run(["git", "-C", "shop", "status", "--porcelain"])
    assert run.exit_code == 0 and run.output.strip() == "", run.output[:300]


def test_other_files_kept(ws):
    assert "discount" in ws.read_text("shop/README.md")
    assert "def tax" in ws.read_text("shop/tax.py")
