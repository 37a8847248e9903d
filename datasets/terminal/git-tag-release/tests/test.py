RELEASE = "4f9ce3778696fb3841bd93cd875f1204b84a9a0c"
HEAD = "847a46df0e5dfbc9e182e86555e0feb706994934"


def git(ws, *args):
    return ws.run(["git", "-C", "tool", *args])


def test_annotated_tag(ws):
    assert git(ws, "cat-file", "-t", "v2.0.0").output.strip() == "tag", (
        "v2.0.0 is missing or not an annotated tag"
    )
    assert git(ws, "rev-parse", "v2.0.0^{commit}").output.strip() == RELEASE, (
        "v2.0.0 is on the wrong commit"
    )


def test_tag_message(ws):
    got = git(ws, "tag", "-l", "--format=%(contents)", "v2.0.0").output.strip()
    assert got == "Release 2.0.0", f"tag message is {got!r}"


def test_stable_moved(ws):
    assert git(ws, "rev-parse", "stable^{commit}").output.strip() == RELEASE, (
        "stable does not point to the release commit"
    )


def test_main_unchanged(ws):
    assert git(ws, "rev-parse", "main").output.strip() == HEAD, "main moved"
    assert git(ws, "status", "--porcelain").output.strip() == "", "working tree not clean"
