"""A small environment for learner tests: the reward is whether the answer contains a digit.

The untrained tiny model emits random characters, so some answers in a group hold a digit and
some do not: groups have reward variance from the first step, without any warm start. Tasks
whose id starts with "const" always score 1 (zero variance); tasks whose id starts with "flaky"
time out on the first answer of each group (a masked verdict).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rlvr.env import Environment
from rlvr.types import Task, Verdict


class DigitGrader:
    name = "has-digit"
    deterministic = False  # "flaky" tasks time out by position, not by answer

    def extract(self, completion: str) -> str | None:
        found = re.findall(r"\d", completion)
        return found[-1] if found else None

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        out = []
        for i, answer in enumerate(answers):
            if task.id.startswith("flaky") and i == 0:
                out.append(Verdict.error("timeout", "grading took too long"))
            elif task.id.startswith("const"):
                out.append(Verdict.score(1.0, "always passes"))
            elif self.extract(answer) is not None:
                out.append(Verdict.score(1.0, "has a digit"))
            else:
                out.append(Verdict.reject("no digit"))
        return out


def digit_env(n: int = 8, const: int = 0, flaky: int = 0, name: str = "digits") -> Environment:
    tasks = [
        Task(id=f"t{i}", prompt=f"What is {i} + {i + 1}?", gold=str(2 * i + 1)) for i in range(n)
    ]
    tasks += [Task(id=f"const{i}", prompt=f"Say {i}.", gold=str(i)) for i in range(const)]
    tasks += [Task(id=f"flaky{i}", prompt=f"Echo {i}.", gold=str(i)) for i in range(flaky)]
    return Environment(name=name, grader=DigitGrader(), load_tasks=lambda: list(tasks))


FAST = {
    "env": "digits",
    "model": "tiny",
    "lr": 1e-3,
    "group_size": 4,
    "prompts_per_step": 2,
    "max_new_tokens": 12,
    "micro_batch_size": 4,
    "threads": 1,
    "save_every": 0,
    "grade_workers": 2,
    "eval_tasks": 0,  # held-out evaluation during training has its own tests (test_evaluation)
}
"""Settings that keep a learner test to about a second per step on one CPU thread."""
