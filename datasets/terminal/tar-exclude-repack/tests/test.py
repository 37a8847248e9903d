EXPECTED = [
    "project/README.md",
    "project/changelog.log.md",
    "project/docs/build/guide.md",
    "project/docs/intro.md",
    "project/logs/keep.txt",
    "project/package.json",
    "project/src/main.js",
    "project/src/util/str.js",
]


def _members(ws):
    run = ws.run(["tar", "tzf", "project.tar.gz"])
    assert run.exit_code == 0, f"tar cannot list project.tar.gz: {run.output[:200]}"
    names = [n[2:] if n.startswith("./") else n for n in run.output.splitlines()]
    return sorted(n for n in names if not n.endswith("/"))


def test_is_gzip(ws):
    assert ws.read_bytes("project.tar.gz")[:2] == b"\x1f\x8b", (
        "project.tar.gz is not gzip-compressed"
    )


def test_exclusions(ws):
    got = _members(ws)
    bad = [
        n
        for n in got
        if "node_modules/" in n or n.endswith(".log") or n.startswith("project/build/")
    ]
    assert not bad, f"excluded files are in the archive: {bad}"


def test_members_exact(ws):
    got = _members(ws)
    assert got == EXPECTED, f"archive files: {got}"


def test_content(ws):
    run = ws.run(["tar", "xzOf", "project.tar.gz", "project/docs/build/guide.md"])
    assert run.output == "# guide (not the top build dir)\n", run.output[:200]
