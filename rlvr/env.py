"""Environment: the tasks, how they are shown to a policy, and the grader that checks answers.

An Environment is plain data plus two behaviours (format a prompt, grade a group) so that the
same object serves rollouts, the CLI, TRL reward functions and audits alike. Grading is where
hack flags are attached (its `audit`, rlvr.flags), so every caller gets them alike.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.episodes.session import EpisodeSpec
from rlvr.errors import RlvrError, SandboxError, SandboxSetupError
from rlvr.flags.hacks import HackAudit
from rlvr.flags.languages import grader_language, split_audit_language
from rlvr.flags.policy import default_policy, split_hack_options
from rlvr.flags.stack_patterns import load_patterns
from rlvr.graders.base import Grader, is_deterministic, make_grader
from rlvr.splits import SplitSpec, check_spec, empty_split_error, filter_split
from rlvr.types import Task, Verdict

CODE_KINDS = ("code", "function")  # graders whose answers are programs: hack flags by default


@dataclass
class Environment:
    """A named set of tasks with a prompt format and a grader."""

    name: str
    grader: Grader
    load_tasks: Callable[[], list[Task]]
    prompt_template: str = "{prompt}"
    system_prompt: str | None = None
    description: str = ""
    source: str = ""
    sandbox: dict[str, Any] | None = None
    describe: Callable[[], dict[str, Any]] | None = field(default=None, repr=False)
    """Optional coverage notes for `rlvr envs show` (e.g. tasks a stack cannot express)."""
    split: SplitSpec = field(default_factory=SplitSpec)
    audit: HackAudit | None = None
    """How answers are audited: their language, and the hack policy applied when grading."""
    episode: EpisodeSpec | None = None
    """Multi-turn when set: the turn budget, tools and session of each episode. Without it the
    environment is the one-turn case (one answer, graded)."""
    stop_at_closed_fence: bool = False
    """Sampling ends each answer after its first closed fenced block (`[prompt]` in env.toml):
    the answer is that block, and what an instruct model writes after it is never graded."""
    _tasks: list[Task] | None = field(default=None, repr=False)
    _by_id: dict[str, Task] | None = field(default=None, repr=False)

    def tasks(self) -> list[Task]:
        """All tasks, loaded once."""
        if self._tasks is None:
            tasks = list(self.load_tasks())
            seen: dict[str, int] = {}
            for i, t in enumerate(tasks):
                if t.id in seen:
                    raise RlvrError(
                        f"environment {self.name!r}: task id {t.id!r} appears at positions "
                        f"{seen[t.id]} and {i}",
                        "give every task a unique id",
                    )
                seen[t.id] = i
            self._tasks = tasks
            self._by_id = {t.id: t for t in tasks}
        return self._tasks

    def tasks_in(self, split: str) -> list[Task]:
        """The tasks of one split: "train", "test" or "all" (see rlvr.splits)."""
        tasks = self.tasks()
        check_spec(self.split, tasks, self.name, self.source or self.name)
        chosen = filter_split(tasks, self.split, self.name, split)
        if not chosen and tasks:
            raise empty_split_error(self.name, split, self.split)
        return chosen

    def task(self, task_id: str) -> Task:
        """The task with this id; a clear error when there is none."""
        self.tasks()
        assert self._by_id is not None
        try:
            return self._by_id[task_id]
        except KeyError:
            raise RlvrError(
                f"environment {self.name!r} has no task {task_id!r}",
                f"use one of its {len(self._by_id)} ids, e.g. {next(iter(self._by_id), '-')!r}",
            ) from None

    @property
    def multi_turn(self) -> bool:
        return self.episode is not None

    def format_prompt(self, task: Task) -> str:
        """The user message for a task: the manifest template filled with the task's fields."""
        fields = task.model_dump()
        fields.update(task.meta)
        if task.tools is not None:
            fields["tools_json"] = json.dumps(task.tools, indent=2)
        return self.prompt_template.format_map(_Missing(fields))

    def messages(self, task: Task, tools_note: bool = True) -> list[dict[str, str]]:
        """Chat messages (system prompt when set, then the user prompt); a multi-turn
        environment's system prompt also names its tools and the call format (`tools_note`
        False leaves that to a trainer that renders tools through the chat template)."""
        msgs = []
        system = self.system_prompt
        if self.episode is not None and tools_note:
            system = "\n\n".join(p for p in (system, self.episode.system_note()) if p)
        if system:
            msgs.append({"role": "system", "content": system})
        msgs.append({"role": "user", "content": self.format_prompt(task)})
        return msgs

    def grade(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        """Grade one group of answers to `task`: one verdict per answer, whatever the grader does.

        Identical answers are graded once: the grader sees each distinct answer, and every copy
        gets the verdict (flags, masked statuses included) of the answer's first occurrence,
        marked `details["copy_of"]` = that index. A grader with `deterministic = False`
        (rlvr.graders.base) sees every copy.
        """
        if not is_deterministic(self.grader):
            return self._grade_each(task, answers)
        owner = first_occurrences(answers)
        return share_verdicts(self._grade_each(task, distinct_answers(answers, owner)), owner)

    def _grade_each(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        """The one place a grader failure is contained (rollouts, `rlvr grade`, Ray grader actors
        all call `grade`): a sandbox failure is `infra_error` (masked, retried on Ray), a grader
        that raises or miscounts is `grader_error`. Neither ends the run or becomes a reward of
        0. A sandbox that cannot start here at all (no daemon, image not built) raises
        SandboxSetupError: a column of masked rows would hide the fix. Graded answers get the
        hack flags of the environment's `audit`.
        """
        name = self.grader.name
        try:
            verdicts = list(self.grader.grade_group(task, answers))
        except SandboxSetupError:  # nothing can be graded here: the caller stops with the fix
            raise
        except SandboxError as e:
            reason = f"sandbox unavailable on {socket.gethostname()}: {e.message}"
            return [Verdict.error("infra_error", reason) for _ in answers]
        except Exception as e:  # a grader bug must not end the run or become a reward of 0
            reason = f"grader {name!r} raised {type(e).__name__}: {e}"
            return [Verdict.error("grader_error", reason) for _ in answers]
        if len(verdicts) != len(answers):
            reason = f"grader {name!r} returned {len(verdicts)} verdicts for {len(answers)}"
            return [Verdict.error("grader_error", reason) for _ in answers]
        return self.audit.apply(task, answers, verdicts) if self.audit else verdicts

    def grade_groups(
        self,
        groups: Sequence[tuple[Task, Sequence[str]]],
        on_group_done: Callable[[int], None] | None = None,
    ) -> list[list[Verdict]]:
        """Several groups in one call, for a grader that batches them (the function judge packs
        answers of several tasks into each sandbox exec); copies shared and answers flagged as
        `grade` does. `on_group_done(n)` when a group of n answers has all its verdicts."""
        keep = is_deterministic(self.grader)
        owners = [first_occurrences(a) if keep else list(range(len(a))) for _, a in groups]
        sent = [
            (task, distinct_answers(answers, owner))
            for (task, answers), owner in zip(groups, owners, strict=True)
        ]

        def done(g: int) -> None:  # the grader names the group; the caller counts answers
            if on_group_done:
                on_group_done(len(groups[g][1]))

        rows = self.grader.grade_groups(sent, done)  # type: ignore[attr-defined]
        if self.audit is not None:
            rows = [self.audit.apply(t, a, vs) for (t, a), vs in zip(sent, rows, strict=True)]
        return [share_verdicts(vs, owner) for vs, owner in zip(rows, owners, strict=True)]


def first_occurrences(answers: Sequence[str]) -> list[int]:
    """For each answer, the index of the first answer identical to it (its own for the first)."""
    first: dict[str, int] = {}
    return [first.setdefault(a, i) for i, a in enumerate(answers)]


def distinct_answers(answers: Sequence[str], owner: Sequence[int]) -> list[str]:
    """The answers that are their own first occurrence, in order: what the grader sees."""
    return [a for i, a in enumerate(answers) if owner[i] == i]


def share_verdicts(distinct: Sequence[Verdict], owner: Sequence[int]) -> list[Verdict]:
    """One verdict per answer from the verdicts of the distinct answers (in first-occurrence
    order): a copy gets its own deep copy of the first occurrence's, marked `copy_of`."""
    slot = {i: k for k, i in enumerate(i for i, o in enumerate(owner) if o == i)}
    out = []
    for i, o in enumerate(owner):
        v = distinct[slot[o]]
        if o != i:
            v = v.model_copy(deep=True)
            v.details["copy_of"] = o
        out.append(v)
    return out


def grader_from_options(
    kind: str, options: dict[str, Any], where: str = "grader.options"
) -> tuple[Grader, HackAudit]:
    """The grader a manifest's `[grader]` table asks for, and how its answers are audited.

    The audit keys (`hack_policy`, `hack_penalty`, `hack_kinds`, `audit_language`) are taken
    out of the options first. Code graders get `default_policy(kind)` when none is set
    (function graders: `hardcoded` zeroes the reward, every other kind is reported; test-file
    code graders: all reported); other graders are flagged only when the manifest sets
    `hack_policy`.
    """
    options, policy = split_hack_options(options, where)
    options, language = split_audit_language(options, where)
    grader = make_grader(kind, options)
    if policy is None and kind in CODE_KINDS:
        policy = default_policy(kind)
    patterns = load_patterns(stack_folder(grader, options))
    return grader, HackAudit(language or grader_language(grader), policy, patterns)


def stack_folder(grader: Grader, options: dict[str, Any]) -> Path | None:
    """Where a grader's stack lives (its translator's folder; else the manifest's own folder),
    for the stack's own hack patterns."""
    translator = getattr(grader, "translator", None)
    if translator is not None and getattr(translator, "__file__", None):
        return Path(translator.__file__).parent
    env_dir = options.get("env_dir")
    return Path(env_dir) if isinstance(env_dir, str) else None


class _Missing(dict):
    """format_map helper that leaves unknown placeholders visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
