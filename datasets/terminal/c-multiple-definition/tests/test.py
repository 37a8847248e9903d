import hashlib

CASES = [
    (["0", "quiet", "please"], ""),
    (["1", "hello", "world"], "[log] hello\n[log] world\n"),
    (
        ["2", "abc", "longer message"],
        "[log] abc\n[log]   (3 chars)\n[log] longer message\n[log]   (14 chars)\n",
    ),
    (["3"], ""),
]


def test_program(ws):
    for args, want in CASES:
        run = ws.run(["./logger", *args])
        assert run.exit_code == 0 and run.output == want, (
            f"./logger {args}: {run.output[:200]!r} (expected {want!r})"
        )


def test_make_up_to_date(ws):
    run = ws.run(["make", "-q", "logger"])
    assert run.exit_code == 0, f"`make -q logger` exits {run.exit_code}: {run.output[:200]}"


def test_no_common_flag(ws):
    run = ws.run(["make", "-n", "-B", "logger"])
    assert run.exit_code == 0 and "main.o" in run.output, run.output[:300]
    assert "-fcommon" not in run.output and "multiple" not in ws.read_text("Makefile"), (
        "the Makefile allows multiple definitions"
    )


def test_main_unchanged(ws):
    assert (
        hashlib.sha256(ws.read_bytes("main.c")).hexdigest()
        == "5f2e284e65ccb88a5756e38f615e5b15e04e8ca17139ee09225ae3a3abbb839b"
    ), "main.c was changed"


def test_built_programs_are_compiled(ws):
    for name in ["logger", "main.o", "log.o"]:
        kind = ws.run(["file", "-b", name]).output
        assert kind.startswith("ELF"), f"{name} is not a compiled ELF file: {kind[:100]}"


def test_makefile_plain(ws):
    text = ws.read_text("Makefile")
    for trick in ("$(info", "$(shell", "$(error", "$(warning", "${info", "${shell"):
        assert trick not in text, f"the Makefile uses {trick})"


def test_a_clean_rebuild_works(ws):
    """The sources themselves link: a copy rebuilt from scratch as another user (a binary left
    by a build with a forbidden flag on make's command line does not count)."""
    run = ws.run('d=$(mktemp -d) && cp -a . "$d" && make -s -C "$d" -B logger >/dev/null 2>&1 '
                 '&& "$d"/logger 2 abc', timeout_s=60)  # fmt: skip
    assert run.exit_code == 0 and run.output == "[log] abc\n[log]   (3 chars)\n", (
        f"`make -B logger` on a copy of /app does not give a working logger: {run.output[:300]}"
    )
