"""`rlvr stack new` writes a stack folder and its derived environments that load as they are
(every task unsupported until the translator is filled in, and saying so), and `rlvr stack
check` runs every check of a stack in one table: on the bundled go stack all of them hold."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rlvr.cli import app


def test_new_writes_a_stack_that_loads_and_says_what_to_fill_in(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["--language", "Ruby", "--fence", "ruby", "--ext", "rb", "--apt", "ruby"]
    made = runner.invoke(app, ["stack", "new", "ruby2", *args, "--into", str(tmp_path)])
    assert made.exit_code == 0, made.output
    hint = " ".join(made.output.split())  # the next steps, in order, wherever rich wraps them
    assert hint.index("function_driver") < hint.index("DONE = True") < hint.index("references")
    assert hint.index("references") < hint.index(f"rlvr stack check ruby2 --env-path {tmp_path}")
    template = (tmp_path / "ruby2" / "translator.py").read_text()
    assert "exactly once" in template and "{scratch}" in template  # where READY goes, scratch
    for rel in (
        "ruby2/Dockerfile",
        "ruby2/env.toml",
        "ruby2/translator.py",
        "synth-ruby2/env.toml",
        "humaneval-ruby2/env.toml",
        "repair-ruby2/env.toml",
    ):
        assert (tmp_path / rel).is_file(), rel  # fmt: skip
    assert "apt-get install -y --no-install-recommends ruby python3" in (
        tmp_path / "ruby2" / "Dockerfile").read_text()  # fmt: skip
    assert 'LANGUAGES = ["ruby"]' in (tmp_path / "ruby2" / "translator.py").read_text()
    shown = runner.invoke(app, ["envs", "show", "ruby2", "--env-path", str(tmp_path)])
    assert shown.exit_code == 0, shown.output
    assert "not filled in yet" in shown.output
    again = runner.invoke(app, ["stack", "new", "ruby2", "--into", str(tmp_path)])
    assert again.exit_code != 0 and "--force" in again.output + str(again.exception)

    checked = runner.invoke(app, ["stack", "check", "ruby2", "--env-path", str(tmp_path),
                                  "--no-build"])  # fmt: skip
    assert checked.exit_code == 1
    record = json.loads(checked.stdout.strip().splitlines()[-1])
    assert record["failed"][0] == "translator" and record["rows"][1]["ok"] is None


def test_check_holds_on_the_bundled_go_stack() -> None:
    checked = CliRunner().invoke(app, ["stack", "check", "go", "--tasks", "1", "--no-build"])
    record = json.loads(checked.stdout.strip().splitlines()[-1])
    assert checked.exit_code == 0, record
    names = [r["check"] for r in record["rows"]]
    refs = ["references go", "references synth-go", "references humaneval-go"]
    assert names == ["translator", *refs, "spec-gap audit", "hack audit", "repair replay"]
    import re

    for row in record["rows"][1:4]:  # "1 of 1 pass (<the graded ids>)", nothing else named
        assert re.fullmatch(r"1 of 1 pass \([^,;]+\)", row["detail"]), row["detail"]
    helped = CliRunner().invoke(app, ["stack", "check", "--help"], env={"COLUMNS": "200"})
    assert "--skip-missing" in helped.output and "stdout gets one JSON" in helped.output
