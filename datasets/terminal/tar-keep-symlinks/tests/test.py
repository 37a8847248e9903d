def _listing(ws):
    run = ws.run(["tar", "tzvf", "app.tar.gz"])
    assert run.exit_code == 0, f"cannot list app.tar.gz: {run.output[:200]}"
    return run.output.splitlines()


def _entry(lines, name):
    for line in lines:
        parts = line.split()
        path = parts[5] if len(parts) > 5 else ""
        if path.lstrip("./") == name or path.rstrip("/").lstrip("./") == name:
            return line
    return None


def test_links_kept(ws):
    lines = _listing(ws)
    for name, target in (
        ("app/current", "releases/v2"),
        ("app/releases/v2/config.ini", "../shared/config.ini"),
        ("app/host-link", "/etc/hostname"),
    ):
        e = _entry(lines, name)
        assert e is not None and e.startswith("l") and e.endswith("-> " + target), f"{name}: {e!r}"


def test_files_present(ws):
    lines = _listing(ws)
    for name in ["app/releases/v1/app.py", "app/releases/v2/app.py", "app/shared/config.ini"]:
        e = _entry(lines, name)
        assert e is not None and e.startswith("-"), f"{name} missing or not a regular file: {e!r}"


def test_no_followed_copies(ws):
    lines = _listing(ws)
    assert _entry(lines, "app/current/app.py") is None, "the link app/current was followed"
    run = ws.run(["tar", "xzOf", "app.tar.gz", "app/releases/v1/app.py"])
    assert run.output == "print('v1')\n", run.output[:200]


def test_tree_unchanged(ws):
    assert ws.link_target("app/current") == "releases/v2", "app/current changed"
