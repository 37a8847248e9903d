"""bench/carry.py: a file bigger than one transfer goes in checksummed parts and joins only
when every part is there and intact (the route for the SmolLM2 wheel to the GPU machine)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def carry(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "bench" / "carry.py"), *args],
                          capture_output=True, text=True, check=False)  # fmt: skip


def test_split_join_and_the_checks_that_refuse_a_bad_part(tmp_path: Path) -> None:
    src = tmp_path / "model.whl"
    data = hashlib.sha256(b"seed").digest() * 110_000  # 3.5 MB, not a multiple of the part
    src.write_bytes(data)
    made = carry("split", str(src), "--into", str(tmp_path / "parts"), "--part-mb", "1")
    assert made.returncode == 0, made.stderr
    manifest = tmp_path / "parts" / "model.whl.manifest.json"
    record = json.loads(manifest.read_text())
    assert len(record["parts"]) == 4 and max(p["size"] for p in record["parts"]) <= 1 << 20

    part = tmp_path / "parts" / record["parts"][2]["file"]
    good = part.read_bytes()
    part.unlink()  # not carried yet: named, nothing joined
    missing = carry("join", str(manifest), "--into", str(tmp_path / "out"))
    assert missing.returncode != 0 and "part002 is missing" in missing.stderr
    assert not (tmp_path / "out" / "model.whl").exists()
    part.write_bytes(good[:-1] + b"\0")  # damaged in transit: named
    status = carry("status", str(manifest))
    assert status.returncode == 1 and "part002 is damaged" in status.stdout

    part.write_bytes(good)
    assert carry("status", str(manifest)).returncode == 0
    joined = carry("join", str(manifest), "--into", str(tmp_path / "out"))
    assert joined.returncode == 0, joined.stderr
    assert (tmp_path / "out" / "model.whl").read_bytes() == data
