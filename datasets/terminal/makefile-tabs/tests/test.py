import hashlib

CASES = [
    (["Ada"], "Hello, Ada! (2 vowels)\n"),
    (
        ["Grace", "Linus", "xyz"],
        "Hello, Grace! (2 vowels)\nHello, Linus! (2 vowels)\nHello, xyz! (0 vowels)\n",
    ),
    ([], "Hello, nobody!\n"),
    (["AEIOUaeiou"], "Hello, AEIOUaeiou! (10 vowels)\n"),
]
SOURCES = {
    "main.c": "4324fd213c804e0c0f76c2b3aa4702c6a442248b760e91402b07653a447cf6ca",
    "util.c": "fe3642596be076402a5284bc0780ce9b91e4c9e6901a80ad9c464ad6c587d726",
    "util.h": "d139bc454cf523ab85c5740907b649f36280ba542d92b3229d3897b8a37a4d71",
}


def test_program(ws):
    for args, want in CASES:
        run = ws.run(["./hello", *args])
        assert run.exit_code == 0 and run.output == want, f"./hello {args}: {run.output[:200]!r}"


def test_make_up_to_date(ws):
    run = ws.run(["make", "-q", "hello"])
    assert run.exit_code == 0, f"`make -q hello` exits {run.exit_code}: {run.output[:200]}"


def test_rules(ws):
    run = ws.run(["make", "-n", "-B", "hello"])
    assert run.exit_code == 0 and "-c main.c" in run.output and "-c util.c" in run.output, (
        f"`make -B hello` would not compile both objects: {run.output[:300]}"
    )
    run = ws.run(["make", "-n", "clean"])
    assert run.exit_code == 0 and "rm -f" in run.output, run.output[:300]


def test_sources_unchanged(ws):
    for name, digest in SOURCES.items():
        assert hashlib.sha256(ws.read_bytes(name)).hexdigest() == digest, f"{name} was changed"


def test_built_programs_are_compiled(ws):
    for name in ["hello", "main.o", "util.o"]:
        kind = ws.run(["file", "-b", name]).output
        assert kind.startswith("ELF"), f"{name} is not a compiled ELF file: {kind[:100]}"


def test_makefile_plain(ws):
    text = ws.read_text("Makefile")
    for trick in ("$(info", "$(shell", "$(error", "$(warning", "${info", "${shell"):
        assert trick not in text, f"the Makefile uses {trick})"


def test_a_clean_rebuild_works(ws):
    """The Makefile itself builds: a copy rebuilt from scratch as another user (a binary left
    by compiling by hand does not count)."""
    run = ws.run('d=$(mktemp -d) && cp -a . "$d" && make -s -C "$d" -B hello >/dev/null 2>&1 '
                 '&& "$d"/hello Ada', timeout_s=60)  # fmt: skip
    assert run.exit_code == 0 and run.output == "Hello, Ada! (2 vowels)\n", (
        f"`make -B hello` on a copy of /app does not give a working hello: {run.output[:300]}"
    )
