BASE = "5374f8234c0d3f7622599c9ad8529d1130da069e"
TREE = "41f9d75272c25d1a9c082757cf10552707859939"


def git(ws, *args):
    return ws.run(["git", "-C", "lib", *args])


def test_authors(ws):
    got = git(ws, "log", "--format=%an <%ae>", "main").output.splitlines()
    assert got[:2] == ["Jane Doe <jane@example.com>"] * 2, f"authors of the last commits: {got[:2]}"
    assert got[2:] == ["Bob Builder <bob@example.com>"] * 3, (
        f"authors of the earlier commits: {got[2:]}"
    )


def test_messages_and_content(ws):
    got = git(ws, "log", "--format=%s", "main").output.splitlines()
    assert got == ["Document functions", "Add mul", "Add readme", "Add sub", "Add calc"], got
    assert git(ws, "rev-parse", "main^{tree}").output.strip() == TREE, (
        "the content of the last commit changed"
    )


def test_earlier_commits_unchanged(ws):
    assert git(ws, "rev-parse", "main~2").output.strip() == BASE, "earlier commits were rewritten"


def test_clean(ws):
    assert git(ws, "symbolic-ref", "--short", "HEAD").output.strip() == "main"
    assert git(ws, "status", "--porcelain").output.strip() == "", "working tree not clean"
