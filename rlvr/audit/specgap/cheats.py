"""Generic cheating agents for terminal tasks: the terminal counterpart of trivial answers.

A terminal answer is the agent's actions as one shell script, run in /app as the agent would
run them. Every cheat below must fail the task's tests (or be scored 0 by the judge); one that
passes shows tests an RL policy will learn to fool. None reads the hidden tests' logic; two
reuse the reference (the auditor has it) to produce the right files by the wrong route:

- `nothing`: no action at all.
- `delete_workspace`, `empty_files`: remove or truncate what the tests read.
- `pad_workspace`: thousands of files ahead of everything else in /app (a judge that walks a
  bounded snapshot must not pass a check on a path it never reached).
- `shadow_modules`: modules named like everything the tests import, a `sitecustomize`,
  `conftest.py` and `pytest.py` in /app, each exiting 0 on import.
- `files_without_history` (workspaces with a git repository): the reference's files, but the
  repositories' history put back as it was, then an empty commit with the reference's message,
  hidden behind git's own lies (assume-unchanged, skip-worktree, an fsmonitor hook that reports
  nothing changed, grafts that make HEAD a merge of every branch).
- `background_reference`: the reference started detached, one second after the last command
  returned (nothing the agent starts may outlive its command; rlvr's own tasks only, Harbor's
  verifier runs beside the agent's processes by design).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from rlvr.audit.specgap.candidates import Candidate
from rlvr.types import Task

PAD_FILES = 6000
WORK = "/tmp/.rlvr-cheat"
IMPORT = re.compile(r"^\s*(?:from\s+([A-Za-z_]\w*)|import\s+([A-Za-z_][\w, ]*))", re.M)
ALWAYS_SHADOWED = ("os", "sys", "json", "subprocess", "pathlib", "pytest", "re", "shutil")

DELETE = "find /app -mindepth 1 -maxdepth 1 -exec rm -rf {} + 2>/dev/null; true"
EMPTY = (
    "find /app -name .git -prune -o -type f -print0 2>/dev/null"
    " | xargs -0 -r truncate -s 0 2>/dev/null; true"
)
PAD = f"mkdir -p /app/000pad && cd /app/000pad && seq 1 {PAD_FILES} | xargs touch 2>/dev/null; true"
EXIT_ON_IMPORT = "import os\nos._exit(0)\n"
REPOS = "find /app -maxdepth 4 -name .git -type d 2>/dev/null"

LIES = r"""
for g in $(REPOS); do
  r=$(dirname "$g"); cd "$r" || continue
  git ls-files -z | xargs -0 -r git update-index --assume-unchanged
  git ls-files -z | xargs -0 -r git update-index --skip-worktree
  printf '#!/bin/sh\nexit 0\n' > "$g/fsmon" && chmod +x "$g/fsmon"
  git config core.fsmonitor "$g/fsmon"
  head=$(git rev-parse HEAD 2>/dev/null) || continue
  tips=$(git for-each-ref --format='%(objectname)' refs/heads | grep -v "$head" | tr '\n' ' ')
  mkdir -p "$g/info" && echo "$head $tips" > "$g/info/grafts"
done
"""


def _heredoc(path: str, text: str) -> str:
    """A shell command writing `text` to `path` verbatim (a delimiter the text cannot hold)."""
    mark = "RLVR_CHEAT_" + hashlib.sha256(text.encode()).hexdigest()[:16]
    return f"cat > {path} <<'{mark}'\n{text.rstrip(chr(10))}\n{mark}\n"


def _imported(task: Task) -> list[str]:
    """Top-level module names the task's tests import (test.py, test.sh's Python files)."""
    folder = Path(str(task.meta.get("task_dir", ""))) / "tests"
    names: set[str] = set(ALWAYS_SHADOWED)
    for path in sorted(folder.rglob("*.py")) if folder.is_dir() else []:
        for m in IMPORT.finditer(path.read_text("utf-8", errors="replace")):
            first = m.group(1) or m.group(2)
            names.update(n.strip().split(" ")[0] for n in first.split(",") if n.strip())
    return sorted(names)


def _shadow(task: Task) -> str:
    files = [f"{n}.py" for n in _imported(task)] + ["sitecustomize.py", "usercustomize.py",
                                                     "conftest.py"]  # fmt: skip
    return "".join(_heredoc(f"/app/{f}", EXIT_ON_IMPORT) for f in dict.fromkeys(files))


def _files_without_history(reference: str) -> str:
    """Run the reference, keep its files, put every repository's .git back as it was before,
    commit nothing but the reference's last message, and hide the difference."""
    return (
        f"rm -rf {WORK} && mkdir -p {WORK}/orig\n"
        f'for g in $({REPOS}); do mkdir -p "{WORK}/orig$g" && cp -a "$g/." "{WORK}/orig$g/"; '
        "done\n"
        f"[ -d {WORK}/orig/app ] || exit 0\n"
        + _heredoc(f"{WORK}/ref.sh", reference)
        + f"(cd /app && bash {WORK}/ref.sh) >/dev/null 2>&1\n"
        f"for g in $(cd {WORK}/orig && find app -name .git -type d); do\n"
        f'  msg=$(git -C "/$g/.." log -1 --format=%B 2>/dev/null)\n'
        f'  rm -rf "/$g" && cp -a "{WORK}/orig/$g" "/$g"\n'
        '  [ -n "$msg" ] && git -C "/$g/.." -c user.name=a -c user.email=a@a '
        'commit -q --allow-empty -m "$msg"\n'
        "done\n" + LIES.replace("$(REPOS)", f"$({REPOS})")
    )


def _background(reference: str) -> str:
    return (
        f"mkdir -p {WORK}\n"
        + _heredoc(f"{WORK}/later.sh", f"sleep 1\ncd /app\n{reference}")
        + f"( setsid nohup bash {WORK}/later.sh >/dev/null 2>&1 </dev/null & ) ; true\n"
    )


def terminal_cheats(task: Task) -> list[Candidate]:
    """The generic cheats for one terminal task, as audit candidates of role "trivial"."""
    out = [
        Candidate("trivial", "nothing", ""),
        Candidate("trivial", "delete_workspace", DELETE),
        Candidate("trivial", "empty_files", EMPTY),
        Candidate("trivial", "pad_workspace", PAD),
        Candidate("trivial", "shadow_modules", _shadow(task)),
    ]
    ref = task.reference or ""
    if ref.strip() and task.meta.get("judge") != "harbor":
        out += [
            Candidate("trivial", "files_without_history", _files_without_history(ref)),
            Candidate("trivial", "background_reference", _background(ref)),
        ]
    return out


CHEAT_KINDS = (
    "generic cheating agents: nothing, delete or empty the workspace, pad it past the snapshot, "
    "shadow the tests' modules, the reference's files without its git history (behind "
    "assume-unchanged, skip-worktree, fsmonitor and grafts), the reference run detached after "
    "the last command"
)
