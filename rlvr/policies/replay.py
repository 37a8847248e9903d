"""Replay: serve completions recorded earlier, so stored answers can be regraded into groups.

The file holds `{"task_id", "completion"}` lines (optionally `token_ids`, `logprobs` and
`finish_reason`); the lines of one task, in file order, are its group. Asked for G samples, the
policy returns the first G of that task's lines (fewer when the file has fewer). A task with no
line is an error: a silently empty group would look like a task the model never solved.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rlvr.errors import PolicyError
from rlvr.policies.base import Prompt, SamplingConfig, check_g
from rlvr.types import Sample


def _parse_line(path: Path, lineno: int, line: str) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise PolicyError(
            f"{path}:{lineno}: not valid JSON ({e.msg} at column {e.colno})",
            'write one {"task_id": ..., "completion": ...} object per line',
        ) from None
    if (
        not isinstance(obj, dict)
        or not isinstance(obj.get("task_id"), str)
        or not isinstance(obj.get("completion"), str)
    ):
        raise PolicyError(
            f"{path}:{lineno}: needs string fields 'task_id' and 'completion', got "
            f"{line.strip()[:80]!r}",
            'write one {"task_id": ..., "completion": ...} object per line',
        )
    return obj


class ReplayPolicy:
    """Completions from a JSONL file, grouped by task id."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.name = f"replay:{self.path}"
        if not self.path.is_file():
            raise PolicyError(
                f"replay file {self.path} does not exist",
                "give replay:FILE with a JSONL file of {task_id, completion} lines",
            )
        self.completions: dict[str, list[dict[str, Any]]] = defaultdict(list)
        with self.path.open(encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if line.strip():
                    obj = _parse_line(self.path, lineno, line)
                    self.completions[obj["task_id"]].append(obj)

    def task_ids(self) -> list[str]:
        """The tasks the file has completions for, in first-seen order."""
        return list(self.completions)

    def sample(
        self,
        prompts: Sequence[Prompt],
        g: int,
        sampling: SamplingConfig,
        task_ids: Sequence[str] | None = None,
    ) -> list[list[Sample]]:
        """The first G recorded completions of each task (prompts are not read)."""
        check_g(g)
        if task_ids is None or len(task_ids) != len(prompts):
            raise PolicyError(
                "replay policy: needs one task id per prompt to look completions up",
                "call sample(..., task_ids=[...]); rollouts pass them automatically",
            )
        missing = [t for t in task_ids if t not in self.completions]
        if missing:
            raise PolicyError(
                f"replay file {self.path} has no completion for {len(missing)} task(s), e.g. "
                f"{missing[0]!r}",
                "restrict the run to the file's tasks (--tasks) or add lines for them",
            )
        return [
            [self._sample(tid, j, rec) for j, rec in enumerate(self.completions[tid][:g])]
            for tid in task_ids
        ]

    @staticmethod
    def _sample(task_id: str, index: int, rec: dict[str, Any]) -> Sample:
        return Sample(
            task_id=task_id,
            index=index,
            text=rec["completion"],
            token_ids=rec.get("token_ids"),
            logprobs=rec.get("logprobs"),
            finish_reason=rec.get("finish_reason", "stop"),
        )
