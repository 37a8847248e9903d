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
    dry = ws.run(["make", "-n", "-B", "greet"])
    assert "greet.o" in dry.output and "main.o" in dry.output, dry.output[:300]


def test_sources_unchanged(ws):
    for name, digest in SOURCES.items():
        assert hashlib.sha256(ws.read_bytes(name)).hexdigest() == digest, f"{name} was changed"
