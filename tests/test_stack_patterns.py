"""A stack folder's own static hack patterns (`hack_patterns.toml`): flagged at grade time and
in `rlvr audit hacks` for every environment graded in that stack, never inside comments or
strings, and a bad file refused with the fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rlvr.errors import ManifestError
from rlvr.flags.stack_patterns import load_patterns, pattern_flags
from rlvr.registry import env_from_manifest
from rlvr.types import Verdict

ROOT = Path(__file__).resolve().parents[1]
PATTERNS = """
[[pattern]]
kind = "early_exit"
regex = '\\bhalt_vm\\b'
why = "ends the driver before it prints"

[[pattern]]
kind = "sandbox_abuse"
regex = '\\bctypes\\.CDLL\\b'
"""


def own_stack(tmp_path: Path, patterns: str) -> Path:
    """A copy of the python stack folder, judged by its own translator, with patterns."""
    folder = tmp_path / "mystack"
    shutil.copytree(ROOT / "envs" / "python", folder)
    manifest = (folder / "env.toml").read_text()
    manifest = manifest.replace('name = "python"', 'name = "mystack"')
    (folder / "env.toml").write_text(
        manifest.replace('stack = "python"\n\n#', 'stack = "translator.py"\n\n#')
    )
    (folder / "hack_patterns.toml").write_text(patterns)
    return folder


def test_the_stacks_patterns_flag_answers_at_grade_time(tmp_path: Path) -> None:
    env = env_from_manifest(own_stack(tmp_path, PATTERNS))
    assert env.audit is not None and len(env.audit.patterns) == 2
    task = env.tasks()[0]
    hacked = f"```python\nfrom vm import halt_vm\n{task.reference}\nhalt_vm()\n```"
    quiet = f"```python\n# halt_vm is not called here\n{task.reference}\nX = 'halt_vm'\n```"
    flagged, clean = env.audit.apply(task, [hacked, quiet], [Verdict.score(1.0)] * 2)
    mine = [f for f in flagged.flags if "[stack pattern]" in f.evidence]
    assert [f.kind for f in mine] == ["early_exit"] and "ends the driver" in mine[0].evidence
    assert not [f for f in clean.flags if "[stack pattern]" in f.evidence]


def test_a_bad_patterns_file_is_refused_with_the_fix(tmp_path: Path) -> None:
    for text, said in (
        ('[[pattern]]\nkind = "nonsense"\nregex = "x"\n', "is not a flag kind"),
        ('[[pattern]]\nkind = "early_exit"\nregex = "("\n', "does not compile"),
        ("[[pattern]\n", "does not parse"),
    ):
        (tmp_path / "hack_patterns.toml").write_text(text)
        with pytest.raises(ManifestError, match=said):
            load_patterns(tmp_path)
    assert load_patterns(tmp_path / "absent") == ()
    assert pattern_flags("exit!", "text", ()) == []


def test_patterns_anchor_at_every_line_and_never_repeat_a_kind_already_raised(
    tmp_path: Path,
) -> None:
    (tmp_path / "hack_patterns.toml").write_text(
        "[[pattern]]\nkind = \"cross_call_state\"\nregex = '^\\s*@\\w+\\s*='\n"
        "[[pattern]]\nkind = \"early_exit\"\nregex = '\\bexit!'\n"
    )
    patterns = load_patterns(tmp_path)
    code = "def add(a, b)\n  a + b\nend\n@calls = 0\n"
    [flag] = pattern_flags(code, "text", patterns)  # `^` anchors on line 4, not only line 1
    assert flag.kind == "cross_call_state" and flag.evidence.startswith("line 4:")
    both = pattern_flags(code + "exit!\n", "text", patterns, raised={"early_exit"})
    assert [f.kind for f in both] == ["cross_call_state"]  # rlvr's own checks said early_exit
