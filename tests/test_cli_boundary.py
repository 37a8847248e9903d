"""No command ends in a traceback: the error boundary of the CLI."""

from pathlib import Path

import pytest
import typer
from pydantic import BaseModel

from rlvr.cli.boundary import run_with_boundary, split_debug
from rlvr.errors import RlvrError

app = typer.Typer()


class Limits(BaseModel):
    memory_mb: int


@app.command()
def boom(kind: str) -> None:
    if kind == "bug":
        raise ValueError("unknown language 'cpp'")
    if kind == "invalid":
        Limits.model_validate({"memory_mb": "512MB"})
    if kind == "user":
        raise RlvrError("bad input", "do this instead")


def test_unexpected_errors_print_type_message_and_log(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("RLVR_CACHE", str(tmp_path))
    with pytest.raises(SystemExit) as e:
        run_with_boundary(app, ["bug"])
    assert e.value.code == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "error: unexpected ValueError: unknown language 'cpp'" in err
    assert "Traceback" not in err and "rerun with --debug to print it" in err
    (log,) = (tmp_path / "logs").glob("error-*.log")
    assert str(log) in err
    assert "Traceback (most recent call last)" in log.read_text()


def test_validation_errors_name_the_field(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("RLVR_CACHE", str(tmp_path))
    with pytest.raises(SystemExit):
        run_with_boundary(app, ["invalid"])
    err = " ".join(capsys.readouterr().err.split())
    assert "error: invalid Limits: memory_mb: Input should be a valid integer" in err
    assert "got '512MB'" in err


def test_user_errors_and_debug(capsys) -> None:
    with pytest.raises(SystemExit):
        run_with_boundary(app, ["user"])
    assert capsys.readouterr().err == "error: bad input\nfix: do this instead\n"
    with pytest.raises(ValueError, match="unknown language"):
        run_with_boundary(app, ["bug", "--debug"])
    assert split_debug(["a", "--debug", "--", "--debug"]) == (["a", "--", "--debug"], True)
