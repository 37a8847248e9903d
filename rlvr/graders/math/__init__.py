"""The math grader (`grader.kind = "math"`): final answers compared as exact mathematics.

`grader.py` grades a group; the rest is the pipeline it drives, lowest layer first:
`tree` (the syntax tree and its printed form), `lexicon` (tokens), `atoms` and `parse` (the
parser), `guard` (size limits checked before anything is computed), `exact`/`fast` (plain
numbers without sympy), `relations`/`calculus`/`values` (trees to sympy values), `compare`,
`worker` (runs in the killable worker process), and the answer-side helpers `extract`,
`revision` (a changed mind after the final answer), `bare` (mathematics outside `$...$`),
`hedge`, `normalize`, `notation`, `units`, `choice`, `verdicts`, `rules`, and `options`
(`MathOptions`).
graders/math/README.md documents every rule.
"""

from rlvr.graders.math.grader import MathGrader, MathOptions, check

__all__ = ["MathGrader", "MathOptions", "check"]
