"""Replay: serve completions recorded earlier, so stored answers can be regraded into groups.

The file holds `{"task_id", "completion"}` lines (optionally `token_ids`, `logprobs` and
`finish_reason`); the lines of one task, in file order, are its group. Asked for G samples, the
policy returns the first G of that task's lines (fewer when the file has fewer). A task with no
line is an error: a silently empty group would look like a task the model never solved.

For episodes a line may hold `"turns": [...]` instead of a completion: a scripted agent whose
k-th model turn is `turns[k]` (tool calls written as the model would write them). The episode
loop labels each request `<task id>::episode/<i>` (`episode_label`), so episode i of a group
plays the task's i-th line; past its last turn a script says nothing, which ends the episode.
A single-turn environment reads a script's first turn.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rlvr.errors import PolicyError
from rlvr.policies.base import Prompt, SamplingConfig, TokenPrompt, check_g
from rlvr.types import Sample

EPISODE_MARK = "::episode/"
HINT = 'write one {"task_id": ..., "completion": ...} or {"task_id": ..., "turns": [...]} per line'


def episode_label(task_id: str, index: int) -> str:
    """The label the episode loop gives episode `index` of a task's group."""
    return f"{task_id}{EPISODE_MARK}{index}"


def split_label(label: str) -> tuple[str, int | None]:
    """(task id, episode index or None) from a request label."""
    task_id, mark, index = label.rpartition(EPISODE_MARK)
    if mark and index.isdigit():
        return task_id, int(index)
    return label, None


def _turns_in(prompt: Prompt) -> int:
    """How many model turns the prompt already holds (its assistant messages)."""
    messages = prompt.messages if isinstance(prompt, TokenPrompt) else prompt
    if isinstance(messages, str):
        return 0
    return sum(m.get("role") == "assistant" for m in messages)


def _parse_line(path: Path, lineno: int, line: str) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise PolicyError(
            f"{path}:{lineno}: not valid JSON ({e.msg} at column {e.colno})",
            HINT,
        ) from None
    turns = obj.get("turns") if isinstance(obj, dict) else None
    scripted = isinstance(turns, list) and all(isinstance(t, str) for t in turns)
    if (
        not isinstance(obj, dict)
        or not isinstance(obj.get("task_id"), str)
        or not (isinstance(obj.get("completion"), str) or scripted)
    ):
        raise PolicyError(
            f"{path}:{lineno}: needs a string 'task_id' and a string 'completion' (or 'turns', "
            f"a list of strings), got {line.strip()[:80]!r}",
            HINT,
        )
    if scripted and "completion" not in obj:
        obj["completion"] = turns[0] if turns else ""
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
        if task_ids is not None and any(split_label(t)[1] is not None for t in task_ids):
            return self._episode_turns(prompts, task_ids)
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

    def _episode_turns(
        self, prompts: Sequence[Prompt], labels: Sequence[str]
    ) -> list[list[Sample]]:
        """The next model turn of each labelled episode (one sample per prompt)."""
        out = []
        for prompt, label in zip(prompts, labels, strict=True):
            task_id, index = split_label(label)
            lines = self.completions.get(task_id, [])
            if index is None or index >= len(lines):
                raise PolicyError(
                    f"replay file {self.path} has {len(lines)} line(s) for task {task_id!r}, "
                    f"but episode {index} of its group was asked for",
                    "give one line per episode of the group (G lines), or lower G",
                )
            rec = lines[index]
            turns = rec.get("turns", [rec["completion"]])
            k = _turns_in(prompt)
            text = turns[k] if k < len(turns) else ""
            out.append([Sample(task_id=task_id, index=index, text=text, finish_reason="stop")])
        return out

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
