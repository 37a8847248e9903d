from pathlib import Path


def test_names_in_order():
    assert Path("/app/names.txt").read_text().split() == ["ada", "grace", "alan"]
