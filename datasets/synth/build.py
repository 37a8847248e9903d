"""Build datasets/synth/functions.jsonl: the generated function tasks of the synth-<stack> envs.

Run `python datasets/synth/build.py` to regenerate; the same seed always writes the same file,
and `tests/test_synth.py` checks that the committed file is exactly what this script writes.
The generator lives in `rlvr.tasksets.synth`; this file only chooses the seed and the size.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from rlvr.functions.task import write_function_tasks
from rlvr.tasksets.synth import SEED, generate
from rlvr.tasksets.synth.generate import PER_LEVEL, to_function_task

OUT = Path(__file__).resolve().parent / "functions.jsonl"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--per-level", type=int, default=PER_LEVEL)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    start = time.perf_counter()
    tasks = [to_function_task(t) for t in generate(args.seed, args.per_level)]
    write_function_tasks(args.out, tasks)
    levels = Counter(t.difficulty for t in tasks)
    print(
        f"wrote {len(tasks)} tasks to {args.out} in {time.perf_counter() - start:.1f} s "
        f"({', '.join(f'{k} {v}' for k, v in sorted(levels.items()))})"
    )


if __name__ == "__main__":
    main()
