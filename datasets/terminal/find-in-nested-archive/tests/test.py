def test_token(ws):
    got = ws.read_text("token.txt").strip()
    assert got == "CRNFS3L48FSCH3J9UA4T", f"token.txt holds {got!r}"


def test_token_file_format(ws):
    assert ws.read_text("token.txt") == "CRNFS3L48FSCH3J9UA4T\n", (
        "token.txt must hold the value and one newline"
    )


def test_inner_archive(ws):
    got = ws.read_text("token-archive.txt").strip()
    assert got == "configs-b.tar.bz2", f"token-archive.txt holds {got!r}"


def test_bundle_kept(ws):
    run = ws.run(["tar", "tzf", "bundle.tar.gz"])
    assert run.exit_code == 0 and "configs-b.tar.bz2" in run.output, "bundle.tar.gz was changed"
