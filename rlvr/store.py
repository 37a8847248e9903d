"""Append-only JSONL store of scored groups that survives crashes and resumes.

Each group is one line, flushed and fsynced before `append` returns, so a killed run loses at
most the group being written. Reading tolerates a torn last line; appending first cuts such a
tail off so that the next record starts on a clean line. Task ids already stored are skipped
on resume, so a verdict is never counted twice.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rlvr.errors import StoreError
from rlvr.types import ScoredGroup

LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # a paired one is already one code point


def mended(value: Any) -> Any:
    """`value` with every lone surrogate in its strings (JSON's `\\ud800` escapes can make one)
    replaced by U+FFFD: what runs is then what a UTF-8 store can keep, so a regrade runs it."""
    if isinstance(value, str):
        return LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {mended(k): mended(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mended(v) for v in value]
    return value


class GroupStore:
    """A JSONL file of ScoredGroup lines, keyed by (env, task_id, step)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._keys: set[tuple[str, str, int | None]] | None = None
        self.torn_tail = False
        """The last read ended at a torn final line (a write cut short), which it ignored."""

    @staticmethod
    def key(group: ScoredGroup) -> tuple[str, str, int | None]:
        return (group.env, group.task_id, group.step)

    def __iter__(self) -> Iterator[ScoredGroup]:
        """Every complete group in file order; a torn final line is ignored."""
        if not self.path.exists():
            return
        with self.path.open("rb") as fh:
            lines = fh.read().split(b"\n")
        for lineno, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            torn_tail = lineno == len(lines)  # no newline after it: a write was cut short
            try:
                yield ScoredGroup.model_validate_json(raw)
            except ValidationError as e:
                if torn_tail:
                    self.torn_tail = True
                    return
                raise StoreError(
                    f"{self.path}:{lineno}: not a scored group ({e.error_count()} errors: "
                    f"{e.errors()[0]['msg']})",
                    f"a groups file holds one scored group per line, as rlvr writes them: "
                    f"repair or remove line {lineno} of {self.path.name}, or, where it is an "
                    "output, point --out at a new file",
                ) from None

    def keys(self) -> set[tuple[str, str, int | None]]:
        """Keys of the groups already stored (read once, then kept up to date)."""
        if self._keys is None:
            self._keys = {self.key(g) for g in self}
        return self._keys

    def done_task_ids(self, env: str | None = None) -> set[str]:
        """Task ids already stored (optionally for one environment), for resuming."""
        return {tid for (e, tid, _step) in self.keys() if env is None or e == env}

    def __contains__(self, group: ScoredGroup) -> bool:
        return self.key(group) in self.keys()

    def _cut_torn_tail(self) -> None:
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with self.path.open("rb+") as fh:
            data = fh.read()
            if data.endswith(b"\n"):
                return
            cut = data.rfind(b"\n") + 1
            fh.truncate(cut)

    def append(self, group: ScoredGroup) -> bool:
        """Write one group durably; returns False (and writes nothing) if it is already stored."""
        if group in self:
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._cut_torn_tail()
        try:
            line = group.model_dump_json() + "\n"
        except ValueError:  # a lone surrogate (a model's or replay file's text): kept as U+FFFD
            line = json.dumps(mended(group.model_dump(mode="json")), ensure_ascii=False) + "\n"
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        self.keys().add(self.key(group))
        return True

    def __len__(self) -> int:
        return len(self.keys())
