MAIN = "bc22a703462eb9184a175cd2701ac0260a28f303"
WORKER = 'RETRIES = 3\n\n\ndef run(job):\n    """Run a job, retrying."""\n    for _ in range(RETRIES):\n        try:\n            return job()\n        except Exception:\n            pass\n    return job()\n'


def git(ws, *args):
    return ws.run(["git", "-C", "worker", *args])


def test_branch_commit(ws):
    got = git(ws, "log", "--format=%s", "retry-logic").output.splitlines()
    assert got == ["Add retry logic", "Document run", "Add worker"], f"retry-logic history: {got}"
    assert git(ws, "rev-parse", "retry-logic~1").output.strip() == MAIN, (
        "retry-logic does not start at main"
    )
    assert git(ws, "show", "retry-logic:worker.py").output == WORKER, (
        "worker.py on retry-logic is not the stashed version"
    )
    assert git(ws, "show", "retry-logic:README.md").output == "# worker\n", (
        "the unrelated stash was applied too"
    )


def test_stash_list(ws):
    got = git(ws, "stash", "list", "--format=%s").output.splitlines()
    assert len(got) == 1 and got[0].endswith("wip: unrelated notes"), f"stash list: {got}"


def test_main_unchanged(ws):
    assert git(ws, "rev-parse", "main").output.strip() == MAIN, "main changed"
    assert git(ws, "symbolic-ref", "--short", "HEAD").output.strip() == "main", (
        "main is not checked out"
    )
    assert git(ws, "status", "--porcelain").output.strip() == "", "working tree not clean"
