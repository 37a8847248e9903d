"""A seeded generator of small function tasks with references in python, javascript, go and rust.

`generate(seed)` returns the same tasks, with the same ids, for the same seed.
"""

from rlvr.tasksets.synth.generate import SEED, Case, SynthTask, generate, task_id

__all__ = ["SEED", "Case", "SynthTask", "generate", "task_id"]
