LINKS = {
    "bin/fmt": "../tools/v2/fmt",
    "bin/lint": "../tools/v2/lint",
    "bin/test": "../tools/v2/test",
    "bin/serve": "../tools/extra/serve",
    "bin/pack": "../tools/v2/pack",
    "bin/deploy": "../tools/v2/deploy",
}
REMOVED = ["build", "clean"]


def test_links(ws):
    for p, target in LINKS.items():
        got = ws.link_target(p)
        assert got == target, f"{p} points to {got!r}, expected {target!r}"


def test_broken_removed(ws):
    for name in REMOVED:
        assert not ws.exists("bin/" + name), f"bin/{name} should be deleted"


def test_removed_list(ws):
    got = ws.read_text("removed-links.txt").splitlines()
    assert got == REMOVED, f"removed-links.txt holds {got}"


def test_links_work(ws):
    run = ws.run("bin/fmt && bin/pack && bin/serve")
    assert run.exit_code == 0 and run.output.split("\n")[:3] == ["fmt v2", "pack v2", "serve"], (
        run.output[:300]
    )
