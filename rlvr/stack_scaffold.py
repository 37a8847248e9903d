"""`rlvr stack new NAME`: a new stack's folder and the environments derived from it.

Writes, from the documented contract (envs/README.md, "Register a new stack" and "A new stack
gets function tasks"), into a folder on the environment search path:

    NAME/Dockerfile          FROM rlvr's base, the packages named by --apt, python3
    NAME/env.toml            the 17 hand-written function tasks, judged in the stack's image
    NAME/translator.py       the translator, to be filled in: until it is, every task is
                             "unsupported" with that reason, so nothing pretends to work
    synth-NAME, humaneval-NAME, repair-NAME/env.toml
                             the generated tasks, HumanEval and repair episodes in the stack

References come from the translator's `reference_from_python` hook (rendered from each task's
Python reference). `rlvr stack check NAME` then runs every check in one table.
"""

# ruff: noqa: E501  (the manifest templates keep their TOML lines whole)

from __future__ import annotations

import re
from pathlib import Path
from string import Template

from rlvr.errors import RlvrError

NAME_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
DERIVED = ("synth", "humaneval", "repair")

DOCKERFILE = """\
ARG BASE=rlvr-base:bookworm
FROM ${{BASE}}

# The toolchain of {language}; python3 and coreutils' timeout are what rlvr's runner needs.
RUN apt-get update \\
    && apt-get install -y --no-install-recommends {apt} python3 \\
    && rm -rf /var/lib/apt/lists/*
"""

PATTERNS = """# {language}'s own hack idioms, flagged in every environment of this stack (rlvr/flags/stack_patterns.py).
# One table per pattern; kind is a flag kind (rlvr.flags.kinds), regex a Python regex
# (re.MULTILINE) searched in the answer's code with comments and one-line strings blanked.
# rlvr's language-neutral checks already flag many exits, equality overrides and probes; list
# what is particular to {language}. For example (Ruby's hard exit, Elixir's VM halt):
#
# [[pattern]]
# kind = "early_exit"
# regex = '\\bexit!|\\bSystem\\.halt\\b'
# why = "ends the driver before it prints its results"
"""

PROMPT = '''[prompt]
system = "You are an expert {language} programmer. Answer with code only, in one fenced block."
template = """Complete this {language} function. Answer with the whole function in one ```{fence} fenced block.

```{fence}
{{prompt}}```"""
'''

GRADER = """[grader]
kind = "function"

[grader.options]
stack = "{name}"
limits = {{ timeout_s = 60 }}  # per judged job; overrides the stack's [sandbox] timeout_s
"""

STACK_ENV = """name = "{name}"
description = "{language} functions: the hand-written function tasks judged out of process from typed cases in the {name} sandbox (written by rlvr stack new; fill in translator.py)."

# datasets/stacks/functions.jsonl: 17 tasks with Python references, which translator.py's
# reference_from_python renders for this stack.
[tasks]
loader = "rlvr.tasksets.functions:load"
args = {{ path = "stacks/functions.jsonl", stack = "{name}", id_prefix = "{name}-" }}

{prompt}
{grader}
[sandbox]
image = "rlvr-{name}:bookworm"
output_limit_kb = 256
timeout_s = 30  # the default; [grader.options] limits (60 s above) wins for judged jobs
memory_mb = 1024
pids_limit = 128
tmpfs_mb = 512
"""

SYNTH_ENV = """name = "synth-{name}"
description = "Generated {language} function tasks (rlvr.tasksets.synth), judged in the {name} sandbox."

[tasks]
loader = "rlvr.tasksets.functions:load"
args = {{ path = "synth/functions.jsonl", stack = "{name}" }}

{prompt}
{grader}"""

HUMANEVAL_ENV = """name = "humaneval-{name}"
description = "HumanEval in {language}: the problems as typed cases, judged in the {name} sandbox."

[tasks]
loader = "rlvr.tasksets.functions:load"
args = {{ path = "humaneval/functions.jsonl", stack = "{name}", not_converted = "humaneval/not_converted.json" }}

# HumanEval's Python is mostly outside the subset a renderer takes, so many tasks get no
# reference from reference_from_python. Give yours as files (<id with / as _>.<ext>) in a
# folder named by absolute path (a relative one is read from rlvr's bundled datasets/):
#   args = {{ ..., references = "/abs/path/to/humaneval-{name}-references" }}
# `rlvr stack check {name} --skip-missing` checks only the tasks that have one.

# A benchmark: every task is held out.
[split]
test_fraction = 1.0

{prompt}
{grader}"""

REPAIR_ENV = """name = "repair-{name}"
description = "Code repair episodes in {language}: run the code on the public examples, read the failures, revise, submit; judged on the hidden cases."

[tasks]
loader = "rlvr.tasksets.functions:load_many"
args = {{ sources = [
  {{ path = "synth/functions.jsonl", stack = "{name}" }},
  {{ path = "humaneval/functions.jsonl", stack = "{name}", split = "test" }},
] }}

[episode]
max_turns = 4
tools = ["run_public_tests", "submit"]
session = "repair"

{prompt}
{grader}"""


def translator_source(name: str, language: str, fence: str, ext: str) -> str:
    """translator.py with the contract's names, the conventions given, and every function to
    fill in saying so."""
    text = (Path(__file__).parent / "stack_translator.py.in").read_text("utf-8")
    return Template(text).safe_substitute(name=name, language=language, fence=fence, ext=ext)


def new_stack(into: Path, name: str, language: str, fence: str, ext: str, apt: str,
              force: bool = False) -> list[Path]:  # fmt: skip
    """Write the stack folder and its derived environments under `into`; the files written."""
    if not NAME_RE.match(name):
        raise RlvrError(f"stack name {name!r} is not lower-case letters, digits and dashes",
                        "pick a name like 'ruby' or 'kotlin'")  # fmt: skip
    folders = [name, *(f"{d}-{name}" for d in DERIVED)]
    taken = [f for f in folders if (into / f).exists()]
    if taken and not force:
        raise RlvrError(f"{', '.join(str(into / f) for f in taken)} already exist",
                        "pick another name, remove them, or pass --force")  # fmt: skip
    words = {"name": name, "language": language, "fence": fence}
    parts = {**words, "prompt": PROMPT.format(**words), "grader": GRADER.format(**words)}
    files = {
        into / name / "Dockerfile": DOCKERFILE.format(language=language, apt=apt),
        into / name / "env.toml": STACK_ENV.format(**parts),
        into / name / "translator.py": translator_source(name, language, fence, ext),
        into / name / "hack_patterns.toml": PATTERNS.format(language=language),
        into / f"synth-{name}" / "env.toml": SYNTH_ENV.format(**parts),
        into / f"humaneval-{name}" / "env.toml": HUMANEVAL_ENV.format(**parts),
        into / f"repair-{name}" / "env.toml": REPAIR_ENV.format(**parts),
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)
