"""Checks of fix-makefile: the agent's build runs, and the sources are as shipped."""

import hashlib

SOURCES = {
    "main.c": "7ba4c69cc847d713a486872b98cfe7e977d20a61924daffaca87f378cd07af6e",
    "greet.c": "23564805c2fc9e845b72b53228a3be34d5d68ce3c6bde11012ed3d63ce28267c",
}


def test_program_greets(ws):
    run = ws.run(["./greet", "Ada"])
    assert run.exit_code == 0 and run.output.strip() == "hello, Ada", run.output[:200]


def test_default_greeting(ws):
    run = ws.run(["./greet"])
    assert run.output.strip() == "hello, world", run.output[:200]


def test_makefile_links_both_objects(ws):
    text = ws.read_text("Makefile")
    for trick in ("$(info", "$(shell", "$(error", "$(warning"):
        assert trick not in text, f"the Makefile uses {trick})"
    rules = [line for line in text.splitlines() if line.startswith("greet:")]
    assert len(rules) == 1, f"no single greet rule: {rules}"
    prerequisites = rules[0].split(":", 1)[1].split()
    assert {"main.o", "greet.o"} <= set(prerequisites), f"greet depends on {prerequisites}"


def test_greet_is_the_compiled_program(ws):
    for name in ("greet", "main.o", "greet.o"):
        assert ws.read_bytes(name)[:4] == b"\x7fELF", f"{name} is not a compiled ELF file"
    symbols = ws.run(["nm", "greet"])
    assert " T greeting" in symbols.output and " T main" in symbols.output, symbols.output[:300]


def test_sources_unchanged(ws):
    for name, digest in SOURCES.items():
        assert hashlib.sha256(ws.read_bytes(name)).hexdigest() == digest, f"{name} was changed"
