"""Checks of count-error-lines: the expected values were computed from the shipped log."""

import hashlib


def test_error_count(ws):
    got = ws.read_text("error_count.txt").strip()
    assert got == "33", f"error_count.txt holds {got[:40]!r}"


def test_error_workers(ws):
    got = ws.read_text("error_workers.txt").split()
    assert got == ["worker-1", "worker-2", "worker-3", "worker-4", "worker-5"], (
        f"error_workers.txt holds {got[:10]}"
    )


def test_log_untouched(ws):
    digest = hashlib.sha256(ws.read_bytes("app.log")).hexdigest()
    assert digest == "91ea76c0c45dbdb3b123d887b591dfbc4c9d6604d02ca551976c38ac9029c7e0", (
        "app.log was changed"
    )
