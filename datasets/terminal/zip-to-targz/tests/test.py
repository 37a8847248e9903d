EXPECTED = {
    "myapp-1.4.0/bin/run.sh": "#!/bin/sh\necho running myapp\n",
    "myapp-1.4.0/lib/core.py": "VERSION = '1.4.0'\n",
    "myapp-1.4.0/lib/util.py": "def f():\n    return 1\n",
    "myapp-1.4.0/README.txt": "MyApp 1.4.0\n",
    "myapp-1.4.0/conf/default.ini": "[main]\nkey = value\n",
}


def _members(ws):
    run = ws.run(["tar", "tzf", "myapp-1.4.0.tar.gz"])
    assert run.exit_code == 0, f"cannot list myapp-1.4.0.tar.gz: {run.output[:200]}"
    names = [n[2:] if n.startswith("./") else n for n in run.output.splitlines()]
    return sorted(n for n in names if not n.endswith("/"))


def test_members(ws):
    got = _members(ws)
    assert got == sorted(EXPECTED), f"archive files: {got}"


def test_contents(ws):
    for name, text in EXPECTED.items():
        run = ws.run(["tar", "xzOf", "myapp-1.4.0.tar.gz", name])
        assert run.exit_code == 0 and run.output == text, f"{name}: {run.output[:100]!r}"


def test_run_sh_executable(ws):
    run = ws.run("tar tzvf myapp-1.4.0.tar.gz | grep 'bin/run.sh'")
    assert run.output.startswith("-rwxr-xr-x"), f"run.sh entry: {run.output[:120]!r}"


def test_workspace_clean(ws):
    assert ws.is_file("release.zip"), "release.zip is gone"
    assert not ws.exists("myapp-1.4") and not ws.exists("myapp-1.4.0"), (
        "extracted files were left in /app"
    )
