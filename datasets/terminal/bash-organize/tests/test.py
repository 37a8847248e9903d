SETUP = "\nd=$(mktemp -d) && cd \"$d\"\ntouch a.TXT b.txt c.tar.gz README 'my file.PDF' .hidden noext. x.Jpeg y.jpeg\nmkdir sub && touch sub/inner.txt\n"


def test_executable(ws):
    assert ws.mode("organize.sh") & 0o111, "organize.sh is not executable"


def test_moves(ws):
    run = ws.run(SETUP + '/app/organize.sh "$d" >/dev/null && find . -type f | LC_ALL=C sort')
    want = [
        "./.hidden",
        "./gz/c.tar.gz",
        "./jpeg/x.Jpeg",
        "./jpeg/y.jpeg",
        "./other/README",
        "./other/noext.",
        "./pdf/my file.PDF",
        "./sub/inner.txt",
        "./txt/a.TXT",
        "./txt/b.txt",
    ]
    assert run.output.splitlines() == want, f"files after organize.sh: {run.output.splitlines()}"


def test_summary(ws):
    run = ws.run(SETUP + '/app/organize.sh "$d"')
    assert run.exit_code == 0, f"exit {run.exit_code}: {run.output[:200]}"
    assert run.output == "gz 1\njpeg 2\nother 2\npdf 1\ntxt 2\n", f"summary: {run.output[:300]!r}"


def test_second_dir(ws):
    run = ws.run(
        'd=$(mktemp -d) && cd "$d" && touch one.c two.C three.h && /app/organize.sh "$d" && ls c h'
    )
    assert run.output == "c 2\nh 1\nc:\none.c\ntwo.C\n\nh:\nthree.h\n", f"{run.output[:300]!r}"


def test_missing_dir(ws):
    run = ws.run('/app/organize.sh /tmp/does-not-exist 2>/dev/null; echo "exit=$?"')
    assert run.output == "exit=2\n", f"{run.output[:200]!r}"
