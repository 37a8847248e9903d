"""An answer that leaves more than a wipe can remove in its budget is blamed for it, scored 0,
never masked: the wipe stops at one deadline, well inside the exec's own limit (an outside
attack round filled /dev/shm with directories until the runner was killed mid-wipe)."""

from __future__ import annotations

import rlvr

ATTACK = r"""```python
import os, time
_made = []
def {name}(*args):
    if not _made:
        _made.append(1)
        t, i = time.time(), 0
        while time.time() - t < 8.5:
            for _ in range(1000):
                os.mkdir("/dev/shm/d%d" % i)
                i += 1
    return None
```"""


def test_a_slow_to_wipe_answer_is_scored_and_its_successor_passes() -> None:
    env = rlvr.load_env("synth-python")
    task = next(t for t in env.tasks_in("train") if t.reference)
    ref = "```python\n" + (task.reference or "") + "\n```"
    attack, after = env.grade(task, [ATTACK.replace("{name}", task.entry_point or "f"), ref])
    assert attack.status == "scored" and attack.reward == 0.0, attack.reason
    assert "left state" in attack.reason or attack.cause is not None
    assert (after.status, after.reward) == ("scored", 1.0), after.reason
    [again] = env.grade(task, [ref])  # the next exec, on whatever container the pool holds
    assert (again.status, again.reward) == ("scored", 1.0), again.reason
