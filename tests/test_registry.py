import sys
from collections.abc import Sequence

import pytest

import rlvr
from rlvr import discovery, registry
from rlvr.errors import EnvNotFoundError, ManifestError, RlvrError
from rlvr.graders.base import grader_kinds, register_grader
from rlvr.types import Task, Verdict


class ExactGrader:
    """A real (if simple) grader for registry tests: exact string match against the gold."""

    name = "exact"

    def __init__(self, strip: bool = True) -> None:
        self.strip = strip

    def extract(self, completion: str) -> str:
        return completion.strip() if self.strip else completion

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        return [
            Verdict.score(1.0) if self.extract(a) == task.gold else Verdict.reject("mismatch")
            for a in answers
        ]


register_grader("exact")(ExactGrader)


def test_a_grader_kind_is_registered_once():
    """A second grader under a taken kind is refused, naming both, and the first one stays."""
    with pytest.raises(RlvrError, match="kind 'exact' is registered twice: .*ExactGrader and"):
        register_grader("exact")(dict)
    with pytest.raises(RlvrError, match="kind 'math' is registered twice"):
        register_grader("math")(ExactGrader)
    assert register_grader("exact")(ExactGrader) is ExactGrader  # the same one again: no error
    assert grader_kinds()["exact"] is ExactGrader


MANIFEST = """
name = "{name}"
description = "toy"
[tasks]
path = "tasks.jsonl"
[prompt]
template = "Q: {{prompt}}"
[grader]
kind = "exact"
"""


def make_env_folder(root, name="toy", manifest=None):
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "env.toml").write_text(manifest or MANIFEST.format(name=name))
    (folder / "tasks.jsonl").write_text(
        '{"id": "t1", "prompt": "1+1", "gold": "2"}\n{"id": "t2", "prompt": "2+2", "gold": "4"}\n'
    )
    return folder


@pytest.fixture(autouse=True)
def clean_registry(monkeypatch):
    monkeypatch.setattr(discovery, "_decorated", {})
    monkeypatch.setattr(discovery, "_extra_paths", [])
    monkeypatch.delenv("RLVR_ENV_PATH", raising=False)


def test_manifest_folder_on_env_path(tmp_path, monkeypatch):
    make_env_folder(tmp_path / "extra")
    monkeypatch.setenv("RLVR_ENV_PATH", str(tmp_path / "extra"))
    env = rlvr.load_env("toy")
    assert [t.id for t in env.tasks()] == ["t1", "t2"]
    assert env.format_prompt(env.task("t1")) == "Q: 1+1"
    verdicts = env.grade(env.task("t1"), ["2", " 2 ", "3"])
    assert [v.reward for v in verdicts] == [1.0, 1.0, 0.0]


def test_overrides_reach_grader_and_tasks(tmp_path):
    rlvr.add_env_path(make_env_folder(tmp_path))
    env = rlvr.load_env("toy", n_tasks=1, grader_options={"strip": False})
    assert len(env.tasks()) == 1
    assert [v.reward for v in env.grade(env.task("t1"), [" 2 "])] == [0.0]
    with pytest.raises(ManifestError, match="unknown override"):
        rlvr.load_env("toy", n_task=1)


def test_decorator_registration():
    @rlvr.register_env("deco")
    def make(**overrides):
        return rlvr.Environment(
            name="deco",
            grader=ExactGrader(),
            load_tasks=lambda: [Task(id="a", prompt="p", gold="x")],
            **overrides,
        )

    env = rlvr.load_env("deco", prompt_template="<{prompt}>")
    assert env.format_prompt(env.task("a")) == "<p>"
    assert rlvr.discover()["deco"].kind == "python"


def test_entry_point_registration(tmp_path, monkeypatch):
    folder = make_env_folder(tmp_path / "pkgdata", name="plugged")
    dist = tmp_path / "site" / "toyplugin-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toyplugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[rlvr.envs]\nplugged = toyplugin_mod:FOLDER\n")
    (tmp_path / "site" / "toyplugin_mod.py").write_text(f"FOLDER = {str(folder)!r}\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    assert rlvr.discover()["plugged"].kind == "entry-point"
    assert len(rlvr.load_env("plugged").tasks()) == 2
    sys.modules.pop("toyplugin_mod", None)


def test_duplicate_names_fail_naming_both_sources(tmp_path):
    rlvr.add_env_path(make_env_folder(tmp_path / "a"))
    rlvr.add_env_path(make_env_folder(tmp_path / "b"))
    with pytest.raises(ManifestError) as err:
        rlvr.discover()
    assert "two environments are named 'toy'" in str(err.value)
    assert str(tmp_path / "a" / "toy") in str(err.value)
    assert str(tmp_path / "b" / "toy") in str(err.value)


def test_unknown_env_lists_known_ones(tmp_path):
    rlvr.add_env_path(make_env_folder(tmp_path))
    with pytest.raises(EnvNotFoundError, match="known environments: .*toy"):
        rlvr.load_env("nope")


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [
        (
            MANIFEST.format(name="toy") + "\nmemory_mb = 5\n",
            "env.toml: grader.memory_mb: Extra inputs are not permitted, got 5; remove it",
        ),
        (
            MANIFEST.format(name="Bad Name"),
            "env.toml: name: String should match pattern",
        ),
        (
            'name = "toy"\n[grader]\nkind = "exact"\n',
            "env.toml: tasks: Field required; add it",
        ),
        (
            'name = "toy"\n[tasks]\n[grader]\nkind = "exact"\n',
            "give exactly one of tasks.path",
        ),
        ('name = "toy"\n[tasks\n', "not valid TOML"),
    ],
)
def test_bad_manifest_messages_name_file_field_and_fix(tmp_path, manifest, expected):
    folder = make_env_folder(tmp_path, manifest=manifest)
    with pytest.raises(ManifestError) as err:
        registry.validate_env_folder(folder)
    assert expected in str(err.value)
    assert str(folder / "env.toml") in str(err.value)


def test_unknown_grader_kind(tmp_path):
    manifest = MANIFEST.format(name="toy").replace('kind = "exact"', 'kind = "nope"')
    with pytest.raises(ManifestError, match="unknown grader kind 'nope'"):
        registry.validate_env_folder(make_env_folder(tmp_path, manifest=manifest))


def test_bad_task_line_names_file_and_line(tmp_path):
    folder = make_env_folder(tmp_path)
    (folder / "tasks.jsonl").write_text('{"id": "t1", "prompt": "p"}\n{"id": 3}\n')
    with pytest.raises(ManifestError, match=r"tasks.jsonl:2: prompt: Field required"):
        registry.validate_env_folder(folder)


def test_duplicate_task_ids_rejected(tmp_path):
    folder = make_env_folder(tmp_path)
    (folder / "tasks.jsonl").write_text(
        '{"id": "t1", "prompt": "p"}\n{"id": "t1", "prompt": "q"}\n'
    )
    with pytest.raises(rlvr.RlvrError, match="task id 't1' appears at positions 0 and 1"):
        registry.validate_env_folder(folder)


def test_every_field_the_bundled_manifests_use_is_documented():
    import tomllib

    from rlvr.discovery import builtin_dirs

    (envs,) = builtin_dirs()
    doc = (envs / "README.md").read_text(encoding="utf-8")
    undocumented = set()
    for manifest in envs.glob("*/env.toml"):
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
        for table, fields in data.items():
            keys = fields if isinstance(fields, dict) else {table: None}
            for key in keys:
                if table in ("grader", "sandbox") and key in ("options", "env"):
                    keys_in = fields[key]  # grader.options / sandbox.env: their own keys
                    undocumented |= {f"{table}.{key}.{k}" for k in keys_in
                                     if table == "grader" and f"`{k}`" not in doc}  # fmt: skip
                elif f"`{key}`" not in doc and f"`{table}.{key}`" not in doc:
                    undocumented.add(f"{manifest.parent.name}: {table}.{key}")
    assert not undocumented, f"document these env.toml fields in envs/README.md: {undocumented}"
