"""Code repair episodes over function tasks: answer, run the public examples, revise, submit.

The session never holds a hidden case: `run_public_tests` judges the code on a copy of the task
whose hidden cases are removed before anything reaches the sandbox, and shows the model each
public case's outcome. The final answer (the submitted code, else the last code the model wrote)
goes to the environment's own function judge, hidden cases included, exactly as a single-turn
answer does.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rlvr.functions.task import FunctionTask
from rlvr.graders.code.extract import extract_fenced
from rlvr.types import Observation, Task, ToolCall, Verdict

if TYPE_CHECKING:
    from rlvr.env import Environment

FENCE_TAGS: dict[str, list[str]] = {
    "python": ["python", "py", "python3"],
    "javascript": ["javascript", "js", "node"],
    "go": ["go", "golang"],
    "rust": ["rust", "rs"],
}
MAX_SHOWN_CASES = 8


def fence_tags(stack: str) -> list[str]:
    """The fence tags a repair session reads code from; a stack rlvr does not know: its name."""
    return FENCE_TAGS.get(stack, [stack])


def public_only(task: Task) -> Task:
    """The task with its hidden cases removed: what `run_public_tests` may run."""
    ftask = FunctionTask.model_validate(task.meta["function"])
    public = ftask.model_copy(update={"hidden_cases": []})
    meta = {**task.meta, "function": public.model_dump(mode="json", exclude_defaults=True)}
    return task.model_copy(update={"meta": meta, "hidden_tests": None})


class RepairSession:
    """The state of one repair episode: the code so far and the public-test tool."""

    def __init__(self, env: Environment, task: Task) -> None:
        if "function" not in task.meta:
            raise ValueError(f"task {task.id!r} has no function form; repair needs one")
        self.env, self.task = env, task
        self.stack = str(task.meta.get("stack", "python"))
        self.tags = fence_tags(self.stack)
        self.code: str | None = None
        self.ftask = FunctionTask.model_validate(task.meta["function"])
        self._public: Task | None = None

    def note_turn(self, text: str) -> None:
        code = extract_fenced(text, self.tags)
        if code is not None:
            self.code = code

    def take_code(self, code: str) -> None:
        """Code passed as a tool's `code` argument (fenced or bare) becomes the answer so far."""
        self.code = extract_fenced(code, self.tags) or code

    def _fenced(self, code: str) -> str:
        return f"```{self.tags[0]}\n{code.rstrip()}\n```\n"

    def call(self, call: ToolCall) -> Observation:
        code = call.arguments.get("code")
        if isinstance(code, str) and code.strip():
            self.take_code(code)
        if call.name == "submit":
            if self.code is None:
                return Observation(
                    tool="submit", content="nothing to submit: write code first", error=True
                )
            return Observation(tool="submit", content="submitted")
        if call.name == "run_public_tests":
            return self._run_public_tests()
        return Observation(tool=call.name, content=f"{call.name} is not offered here", error=True)

    def _run_public_tests(self) -> Observation:
        if self.code is None:
            msg = f"no code yet: write it in a ```{self.tags[0]} block or pass it as `code`"
            return Observation(tool="run_public_tests", content=msg, error=True)
        if not self.ftask.public_cases:
            return Observation(tool="run_public_tests", content="this task has no public cases")
        if self._public is None:
            self._public = public_only(self.task)
        verdict = self.env.grader.grade_group(self._public, [self._fenced(self.code)])[0]
        return Observation(tool="run_public_tests", content=self._report(verdict))

    def _report(self, v: Verdict) -> str:
        if not v.is_scored:
            return f"the examples could not be run ({v.reason[:300]}); try again"
        if v.cause == "build_failed" or not v.tests:
            return f"your code failed before any example ran: {v.reason[:1500]}"
        n = len(v.tests)
        bad = [(i, t) for i, t in enumerate(v.tests) if t.outcome != "passed"]
        lines = [f"{n - len(bad)} of {n} public examples pass."]
        name = self.task.entry_point or self.ftask.entry_point
        for i, t in bad[:MAX_SHOWN_CASES]:
            args = ", ".join(json.dumps(a) for a in self.ftask.public_cases[i].args)
            lines.append(f"- {name}({args[:300]}) {t.outcome}: {t.message[:300]}")
        if len(bad) > MAX_SHOWN_CASES:
            lines.append(f"... and {len(bad) - MAX_SHOWN_CASES} more")
        if v.cause and v.cause != "tests_failed":
            lines.append(f"({v.reason[:300]})")
        return "\n".join(lines)

    def answer(self) -> str:
        return self._fenced(self.code) if self.code is not None else ""

    def verdict(self) -> Verdict | None:
        return None

    def close(self) -> None:
        return None


def open_repair(env: Environment, task: Task) -> RepairSession:
    return RepairSession(env, task)
