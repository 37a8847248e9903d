"""Audits of a stack the audit has no syntax for: generic text checks, never a crash."""

from pathlib import Path

import pytest

from rlvr.audit.source.mutate_text import text_mutants
from rlvr.audit.specgap.audit import summary
from rlvr.audit.specgap.checks import audit_checks
from rlvr.audit.specgap.trivial import trivial_answers
from rlvr.errors import ManifestError
from rlvr.flags.hacks import flag_answer
from rlvr.flags.languages import env_language, normalize_language, split_audit_language
from rlvr.registry import env_from_manifest
from rlvr.source.functions import function_span, param_names
from rlvr.types import Task

CPP = """#include <vector>
// add two numbers < 10
int add(int a, int b) {
    if (a < b) { return a + b; }
    int c = a * 2;
    c += 1;
    return a + b;
}
"""
TASK = Task(
    id="cpp/add",
    prompt="write add",
    reference=CPP,
    entry_point="add",
    public_tests="EXPECT_EQ(add(1, 2), 3);",
    hidden_tests="EXPECT_EQ(add(2, 2), 4);",
)


def test_unknown_languages_get_the_generic_checks() -> None:
    assert normalize_language("cpp") == "text"
    assert normalize_language("TypeScript") == "text"
    assert normalize_language("js") == "javascript"


def test_text_mutants_leave_includes_and_comments_alone() -> None:
    mutants = text_mutants(CPP, "text", 50, 0)
    assert {"line 4: < -> <=", "line 4: condition negated", "line 6: += -> -="} <= {
        m.description for m in mutants
    }
    for m in mutants:
        assert m.source.startswith("#include <vector>\n// add two numbers < 10\n")


def test_generic_function_span_skips_calls_and_reads_typed_parameters() -> None:
    src = "int twice(int x);\nint y = twice(3);\nint twice(int x) { return 2 * x; }\n"
    span = function_span(src, "text", "twice")
    assert span is not None and src[span.body_open : span.body_close + 1] == "{ return 2 * x; }"
    kotlin = "fun add(a: Int, b: Int = 2): Int {\n    return a + b\n}\n"
    span = function_span(kotlin, "text", "add")
    assert span is not None
    assert [n for n, _ in param_names(span.params, "text")] == ["a", "b"]
    assert [n for n, _ in param_names("const std::vector<int>& v, int k", "text")] == ["v", "k"]


def test_generic_trivial_answers_keep_the_rest_of_the_reference() -> None:
    trivials = {t.name: t.source for t in trivial_answers(TASK, "text")}
    assert set(trivials) == {"empty", "pass", "constant:0", "return_arg:a", "return_arg:b"}
    assert trivials["return_arg:b"] == (
        "#include <vector>\n// add two numbers < 10\nint add(int a, int b) {\n    return b;\n}\n"
    )


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        ("int add(int a, int b) { std::exit(0); }", "early_exit"),
        ("fun add(a: Int, b: Int): Int { exitProcess(0) }", "early_exit"),
        ('int add(int a, int b) { system("cat /w/*"); return 0; }', "sandbox_abuse"),
        ('int add(int a, int b) { std::ifstream in("hidden_test.cpp"); return 0; }',
         "filesystem_probe"),
        ("int add(int a, int b) { return a + b; }  // not exit(0)", None),
    ],
)  # fmt: skip
def test_static_flags_for_any_language(code: str, kind: str | None) -> None:
    flags = flag_answer(TASK, f"```cpp\n{code}\n```", "cpp")
    assert [f.kind for f in flags][:1] == ([kind] if kind else [])


def test_summary_says_which_checks_ran() -> None:
    checks, note = audit_checks("text")
    assert checks[0] == "reference passes" and "generic" in checks[1]
    assert 'audit_language = "javascript"' in note
    s = summary("cpp", [], 0.0, "text")
    assert s.language == "text" and s.checks == checks and s.note == note
    assert audit_checks("python")[1] == ""


MANIFEST = """
name = "cpp-lang"
[tasks]
path = "tasks.jsonl"
[prompt]
template = "{prompt}"
[grader]
kind = "code"
[grader.options]
language = ["cpp", "c++"]
%s
[sandbox]
image = "rlvr-test-cpp:bookworm"
answer_file = "solution.cpp"
test_files = { public = "public_test.cpp", hidden = "hidden_test.cpp" }
test_command = ["true"]
report = "junit-xml"
report_from = "file"
report_file = "{scratch}/report.xml"
"""


def _folder(tmp_path: Path, extra: str) -> Path:
    folder = tmp_path / "cpp"
    folder.mkdir(parents=True)
    (folder / "env.toml").write_text(MANIFEST % extra)
    (folder / "tasks.jsonl").write_text(TASK.model_dump_json() + "\n")
    return folder


def test_manifest_audit_language_key(tmp_path: Path) -> None:
    env = env_from_manifest(_folder(tmp_path, 'audit_language = "javascript"'))
    assert env_language(env) == "javascript"
    env = env_from_manifest(_folder(tmp_path / "b", ""))
    assert env_language(env) == "text"


def test_manifest_audit_language_must_be_known(tmp_path: Path) -> None:
    with pytest.raises(ManifestError) as e:
        env_from_manifest(_folder(tmp_path, 'audit_language = "cobol"'))
    assert "audit_language 'cobol' is not a language the audits know" in e.value.message
    assert "['go', 'javascript', 'python', 'rust', 'text']" in (e.value.fix or "")
    assert split_audit_language({"timeout_s": 2}) == ({"timeout_s": 2}, None)
