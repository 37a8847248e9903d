"""The workspace's git repositories, made to trust nothing the agent set, before the judge.

The tests run `git` in /app after the agent's processes are gone. Each repository there keeps
its objects, refs, HEAD and the index's staged content (mode, blob and stage of every path),
and loses what would make git lie to the judge or run the agent's code:

- grafts, `shallow`, replace refs (rewritten history), hooks, `info/exclude` (hidden
  untracked files), `info/attributes` (filters), the fsmonitor daemon's socket;
- every config key outside a short list of harmless ones (`core.worktree`, `core.fsmonitor`,
  `core.fileMode`, `core.trustctime`, filter / diff / merge drivers, aliases, includes ... go);
- the index is rebuilt from its own staged entries with no stat data and no flags, so git
  hashes every file again: assume-unchanged, skip-worktree, an untracked cache and stat data
  forged to match a hand edit all stop counting.

A `.git` file (a linked worktree or submodule) is followed to its folder when that lies in the
workspace; `commondir`, alternates and `config.worktree` are removed (they point git at
folders, objects or config the strip would not see), and `git fsck` must find every object
intact (a rewritten object file would lie about history). Run as the agent (its own files, its
processes gone), before the snapshot; a workspace it cannot walk whole, or a repository it
cannot strip or that fails fsck, scores 0.
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Callable, Iterator

WORKSPACE = "/app"
MAX_WALK = 20000  # entries looked at: past it the workspace cannot be vouched for
DROPPED = ("info/grafts", "info/exclude", "info/attributes", "shallow", "hooks", "refs/replace",
           "fsmonitor--daemon", "fsmonitor--daemon.ipc", "index.lock", "sharedindex",
           "config.worktree", "commondir", "objects/info/alternates",
           "objects/info/http-alternates")  # fmt: skip
KEPT_KEYS = {"core.repositoryformatversion", "core.logallrefupdates", "core.precomposeunicode",
             "extensions.objectformat"}  # fmt: skip
KEPT_SECTIONS = {"user", "remote", "branch", "init", "tag", "commit"}
UNSAFE_IN_KEPT = ("command", "driver", "textconv", "program", "cmd", "helper", "proxy",
                  "uploadpack", "receivepack", "vcs", "gpgsign", "template")  # fmt: skip


def _refuse(error: OSError) -> None:
    raise RuntimeError(f"the judge cannot look into {error.filename}: {error.strerror}")


def walk(
    root: str, onerror: Callable[[OSError], None] | None = None
) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk top-down, following no link, by a stack rather than recursion: Python 3.11's
    os.walk recurses, and a workspace 1,500 folders deep ended it in a RecursionError. A link
    to a folder is listed with the files; `dirs` may be pruned in place, as with os.walk."""
    stack = [root]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as it:
                entries = list(it)
        except OSError as e:
            if onerror is not None:
                onerror(e)
            continue
        dirs = sorted(e.name for e in entries if e.is_dir(follow_symlinks=False))
        files = sorted(e.name for e in entries if not e.is_dir(follow_symlinks=False))
        yield here, dirs, files
        stack.extend(os.path.join(here, d) for d in reversed(dirs))


def repositories(root: str = WORKSPACE) -> list[tuple[str, str]]:
    """Git folders under `root` (`.git` folders, and the folders `.git` files name inside
    `root`) by a walk that follows no link. What it cannot finish raises (a folder it may not
    enter, more entries than it walks, a `.git` that is a link): a repository could hide there,
    and only the agent could have made it so."""
    found: list[tuple[str, str]] = []
    seen = 0
    real_root = os.path.realpath(root)
    for here, dirs, files in walk(root, onerror=_refuse):
        seen += len(dirs) + len(files)
        if seen > MAX_WALK:
            raise RuntimeError(f"the workspace holds more than the {MAX_WALK} entries the judge "
                               "walks for repositories")  # fmt: skip
        if os.path.islink(os.path.join(here, ".git")):
            raise RuntimeError(f"{here}/.git is a link: the judge cannot vouch for it")
        if ".git" in dirs:
            found.append((os.path.join(here, ".git"), here))
            dirs.remove(".git")
        elif ".git" in files:
            found.append((_gitfile_dir(os.path.join(here, ".git"), real_root), here))
    return list(dict.fromkeys(found))


def _gitfile_dir(path: str, real_root: str) -> str:
    """The folder a `.git` file names: a plain path to a folder in the workspace, or a raise
    (a target outside it, through /proc, or not a folder could be read differently by the
    judge's git, which resolves it from its own working directory)."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        line = fh.read(4096).strip()
    target = line.removeprefix("gitdir:").strip() if line.startswith("gitdir:") else ""
    full = os.path.normpath(os.path.join(os.path.dirname(path), target))
    real = os.path.realpath(full)
    if (
        not target
        or "/proc" in full
        or not real.startswith(real_root + "/")
        or not (os.path.isdir(real))
    ):
        raise RuntimeError(f"{path} names {target[:100]!r}, not a folder of the workspace")
    return real


def _kept(key: str) -> bool:
    section, _, name = key.partition(".")
    if key in KEPT_KEYS:
        return True
    return section in KEPT_SECTIONS and bool(name) and key.rsplit(".", 1)[-1] not in UNSAFE_IN_KEPT


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _git(args: list[str], env: dict[str, str]) -> bytes:
    done = subprocess.run(["git", *args], env=env, capture_output=True,
                          timeout=30, check=False)  # fmt: skip
    return done.stdout if done.returncode == 0 else b""


def clean_config(gitdir: str, env: dict[str, str]) -> None:
    """Rewrite a repository's config with its harmless keys only (read with `git config -f`,
    which follows no include), as a new regular file."""
    path = os.path.join(gitdir, "config")
    plain = {k: v for k, v in env.items() if not k.startswith("GIT_CONFIG_")}
    listed = _git(["config", "-f", path, "--list", "-z"], plain) if os.path.isfile(path) else b""
    sections: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for item in listed.decode("utf-8", "replace").split("\0"):
        key, _, value = item.partition("\n")
        if key and _kept(key.lower()):
            section, _, rest = key.partition(".")
            sub, _, name = rest.rpartition(".")
            sections.setdefault((section.lower(), sub), []).append((name, value))
    lines = []
    for (section, sub), pairs in sections.items():
        lines.append(f"[{section} {_quoted(sub)}]" if sub else f"[{section}]")
        lines += [f"\t{name} = {_quoted(value)}" for name, value in pairs]
    if os.path.lexists(path):
        os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def rebuild_index(gitdir: str, env: dict[str, str], worktree: str) -> None:
    """The index again from its staged entries only: no stat data, flags or extensions."""
    index = os.path.join(gitdir, "index")
    if os.path.islink(index):
        raise RuntimeError(f"the index of {gitdir} is a link: the judge cannot vouch for it")
    if not os.path.isfile(index):
        return
    genv = {**env, "GIT_DIR": gitdir, "GIT_WORK_TREE": worktree}
    staged = _git(["ls-files", "--stage", "-z"], genv)
    if not staged:  # nothing staged: no index at all reads the same to git
        os.unlink(index)
        return
    fresh = index + ".judge"
    if os.path.lexists(fresh):
        os.unlink(fresh)
    done = subprocess.run(["git", "update-index", "-z", "--index-info"], input=staged,
                          env={**genv, "GIT_INDEX_FILE": fresh}, capture_output=True,
                          timeout=30, check=False)  # fmt: skip
    if done.returncode != 0 or not os.path.isfile(fresh):
        said = done.stderr.decode("utf-8", "replace").strip()[:200]
        raise RuntimeError(f"the index of {gitdir} cannot be rebuilt: {said}")
    os.replace(fresh, index)


def drop_untracked_rules(gitdir: str, env: dict[str, str], worktree: str) -> None:
    """Remove `.gitignore` and `.gitattributes` files the index does not hold: the agent's own
    rules, which can hide untracked files (a `.gitignore` that ignores itself) or make git read
    changed bytes as the committed ones (`eol`, `ident`, `working-tree-encoding`)."""
    genv = {**env, "GIT_DIR": gitdir, "GIT_WORK_TREE": worktree}
    listed = _git(["-C", worktree, "ls-files", "-z", "--others", "--",
                   ":(glob)**/.gitignore", ":(glob)**/.gitattributes"], genv)  # fmt: skip
    for rel in filter(None, listed.decode("utf-8", "surrogateescape").split("\0")):
        path = os.path.normpath(os.path.join(worktree, rel))
        if path.startswith(worktree + "/") and os.path.lexists(path) and not os.path.isdir(path):
            os.unlink(path)


def check_objects(gitdir: str, env: dict[str, str]) -> None:
    """Every object reachable in the repository is intact (`git fsck` rehashes each one)."""
    genv = {**env, "GIT_DIR": gitdir}
    done = subprocess.run(["git", "fsck", "--no-dangling", "--no-progress"], env=genv,
                          capture_output=True, timeout=60, check=False)  # fmt: skip
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()[:2]
        raise RuntimeError(f"git fsck finds {gitdir} damaged: {'; '.join(said)[:200]}")


def _writable(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        os.chmod(path, stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)


def _remove(path: str) -> None:
    """Remove a file, a link or a whole folder, which the agent may have nested deeper than
    shutil.rmtree's recursion reaches: every folder after everything under it."""
    if not (os.path.isdir(path) and not os.path.islink(path)):
        if os.path.lexists(path):
            os.unlink(path)
        return
    folders: list[tuple[str, list[str]]] = []
    for here, dirs, files in walk(path):
        for d in dirs:
            _writable(os.path.join(here, d))
        folders.append((here, files))
    for here, files in reversed(folders):  # a walk lists a folder before all it holds
        for name in files:
            os.unlink(os.path.join(here, name))
        os.rmdir(here)


def distrust(env: dict[str, str], root: str = WORKSPACE) -> bytes:
    """Strip every repository of the workspace (see the module docstring). As the agent; a
    repository it cannot strip (only the agent could have made it so) raises."""
    for gitdir, worktree in repositories(root):
        try:
            _writable(gitdir)
            _writable(os.path.join(gitdir, "info"))
            _writable(os.path.join(gitdir, "refs"))
            for rel in DROPPED:
                _remove(os.path.join(gitdir, rel))
            clean_config(gitdir, env)
            rebuild_index(gitdir, env, worktree)
            drop_untracked_rules(gitdir, env, worktree)
            check_objects(gitdir, env)
        except (OSError, subprocess.SubprocessError) as e:
            raise RuntimeError(f"the repository {gitdir} cannot be made safe to judge: {e}") from e
    return b""
