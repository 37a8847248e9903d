import json

MAIN_TIP = "c7318002072b6043b85c87561191165bbf82452e"
BRANCH_TIP = "6594010ca0d32a0fc3c6d8c776eb95836a831c82"
FINAL = {"name": "site", "timeout": 60, "retries": 3, "log_level": "debug", "workers": 2}


def git(ws, *args):
    return ws.run(["git", "-C", "site", *args])


def test_merge_commit(ws):
    parents = git(ws, "rev-list", "--parents", "-n", "1", "main").output.split()
    assert len(parents) == 3, f"main's last commit is not a merge: {parents}"
    assert parents[1] == MAIN_TIP and parents[2] == BRANCH_TIP, (
        f"the merge's parents are {parents[1:]}"
    )


def test_config_resolved(ws):
    run = git(ws, "show", "main:config.json")
    assert "<<<<<<<" not in run.output and ">>>>>>>" not in run.output, (
        "conflict markers were committed"
    )
    assert json.loads(run.output) == FINAL, f"committed config.json is {run.output[:300]}"
    assert json.loads(ws.read_text("site/config.json")) == FINAL, (
        "config.json in the working tree is wrong"
    )


def test_main_content_kept(ws):
    assert git(ws, "show", "main:VERSION").output == "v2\n", "VERSION from main was lost"
    assert git(ws, "rev-parse", "update-config").output.strip() == BRANCH_TIP, (
        "update-config changed"
    )


def test_clean_and_done(ws):
    assert git(ws, "symbolic-ref", "--short", "HEAD").output.strip() == "main", (
        "HEAD is not on main"
    )
    assert git(ws, "rev-parse", "-q", "--verify", "MERGE_HEAD").exit_code != 0, (
        "a merge is still in progress"
    )
    run = git(ws, "status", "--porcelain")
    assert run.exit_code == 0 and run.output.strip() == "", run.output[:300]
