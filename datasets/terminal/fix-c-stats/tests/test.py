import shlex

CASES = [
    ("1 2 3 4\n", "count=4 sum=10.00 mean=2.50 stddev=1.12\n"),
    ("10.5 -3.25 7 7 0.125\n", "count=5 sum=21.38 mean=4.28 stddev=5.05\n"),
    ("", "count=0\n"),
    ("42\n", "count=1 sum=42.00 mean=42.00 stddev=0.00\n"),
    (
        "-86.75 -59.25 91.0 -48.5 -53.25 -38.5 54.5 -4.75 -50.0 11.5 78.5 11.5 40.0 -35.5 -109.75 -21.0 120.5 84.75 90.75 31.25 -21.5 26.75 12.0 41.0 59.75 -99.75 66.0 103.0 90.25 -39.75 122.75 16.0 113.75 -8.25 -61.25 -94.0 -120.0 -49.25 -53.25 -88.25 -70.5 -94.0 70.25 -14.75 72.25 102.75 125.0 76.75 94.25 9.5\n",
        "count=50 sum=494.50 mean=9.89 stddev=71.29\n",
    ),
]


def test_sample(ws):
    run = _feed(ws, ["./stats"], "2 4 4 4 5 5 7 9\n")
    assert run.exit_code == 0, run.output[:300]
    assert run.output == "count=8 sum=40.00 mean=5.00 stddev=2.00\n", run.output[:300]


def test_new_inputs(ws):
    for stdin, want in CASES:
        run = _feed(ws, ["./stats"], stdin)
        assert run.output == want, (
            f"for input {stdin[:60]!r}: got {run.output[:200]!r}, expected {want!r}"
        )


def test_make_is_up_to_date(ws):
    run = ws.run(["make", "-q", "stats"])
    assert run.exit_code == 0, (
        "`make -q stats` says the build is not up to date (was ./stats built by make?)"
    )
    dry = ws.run(["make", "-n", "-B", "stats"])
    assert dry.exit_code == 0 and "-lm" in dry.output, (
        f"the Makefile does not link the math library: {dry.output[:200]}"
    )


def test_built_programs_are_compiled(ws):
    for name in ["stats"]:
        kind = ws.run(["file", "-b", name]).output
        assert kind.startswith("ELF"), f"{name} is not a compiled ELF file: {kind[:100]}"


def test_makefile_plain(ws):
    text = ws.read_text("Makefile")
    for trick in ("$(info", "$(shell", "$(error", "$(warning", "${info", "${shell"):
        assert trick not in text, f"the Makefile uses {trick})"


def _feed(ws, argv, stdin):
    """Run argv with `stdin` as its input, passed through a file (the program may exit before reading it)."""
    return ws.run('f=$(mktemp) && cat > "$f" && exec ' + shlex.join(argv) + ' < "$f"', stdin=stdin)


def test_a_clean_rebuild_works(ws):
    """The sources and Makefile themselves build: a copy rebuilt from scratch as another user
    (a binary left by a build with flags on make's command line does not count)."""
    run = ws.run('d=$(mktemp -d) && cp -a . "$d" && make -s -C "$d" -B stats >/dev/null 2>&1 '
                 '&& echo "1 2 3 4" | "$d"/stats', timeout_s=60)  # fmt: skip
    assert run.exit_code == 0 and run.output == "count=4 sum=10.00 mean=2.50 stddev=1.12\n", (
        f"`make -B stats` on a copy of /app does not give a working stats: {run.output[:300]}"
    )
