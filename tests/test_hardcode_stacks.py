"""Hard-coding of a function task's public cases is flagged at grade time in every stack, the
references are not, and under the default policy a flagged forged pass earns 0.

Tests using the `docker` fixture grade in the stacks' sandboxes; they fail loudly without Docker
unless RLVR_SKIP_DOCKER=1."""

from __future__ import annotations

import os

import pytest

import rlvr
from rlvr.errors import ManifestError
from rlvr.flags.hacks import flag_answer
from rlvr.flags.policy import HackPolicy, apply_policy, default_policy, split_hack_options
from rlvr.types import Flag, Task, Verdict

TASK = "synth/caesar-373eb4cb8d"  # shift by 14: "ou vudw" -> "ci jirk", ...
STACKS = ("python", "javascript", "go", "rust")
HARDCODED = {
    "python": (
        "def shift_letters(s):\n"
        "    if s == 'ou vudw':\n        return 'ci jirk'\n"
        "    if s == 'jeznb t':\n        return 'xsnbp h'\n"
        "    if s == 'pdnzveoumk':\n        return 'drbnjsciay'\n"
        "    return s\n"
    ),
    "javascript": (
        "function shiftLetters(s) {\n"
        "  const known = {'ou vudw': 'ci jirk', 'jeznb t': 'xsnbp h',\n"
        "    'pdnzveoumk': 'drbnjsciay'};\n"
        "  return s in known ? known[s] : s;\n}\n"
    ),
    "go": (
        "package solution\n\nfunc ShiftLetters(s string) string {\n\tswitch s {\n"
        '\tcase "ou vudw":\n\t\treturn "ci jirk"\n\tcase "jeznb t":\n\t\treturn "xsnbp h"\n'
        '\tcase "pdnzveoumk":\n\t\treturn "drbnjsciay"\n\t}\n\treturn s\n}\n'
    ),
    "rust": (
        "pub fn shift_letters(s: String) -> String {\n    match s.as_str() {\n"
        '        "ou vudw" => "ci jirk".to_string(),\n'
        '        "jeznb t" => "xsnbp h".to_string(),\n'
        '        "pdnzveoumk" => "drbnjsciay".to_string(),\n'
        "        _ => s,\n    }\n}\n"
    ),
}
HASH_KEYED = (
    "ANSWERS = {\n    hash(str(('ou vudw',))): 'ci jirk',\n"
    "    hash(str(('jeznb t',))): 'xsnbp h',\n"
    "    hash(str(('pdnzveoumk',))): 'drbnjsciay',\n}\n\n\ndef shift_letters(s):\n"
    "    return ANSWERS.get(hash(str((s,))), s)\n"
)
CRC_KEYED = (
    "import zlib\n\nH = {\n    2708330848: 'ci jirk',\n    3662024374: 'xsnbp h',\n"
    "    3170399453: 'drbnjsciay',\n}\n\n\ndef shift_letters(s):\n"
    "    h = zlib.crc32(repr((s,)).encode())\n    return H[h] if h in H else s\n"
)


SELF_CHECKS = {
    "python": (
        "def shift_letters(s):\n"
        "    return ''.join(chr((ord(c) - 83) % 26 + 97) if c.islower() else c for c in s)\n\n\n"
        "assert shift_letters('ou vudw') == 'ci jirk'\n"
        "if __name__ == '__main__':\n    print(shift_letters('jeznb t'), 'xsnbp h')\n"
    ),
    "javascript": (
        "function shiftLetters(s) {\n  return s.replace(/[a-z]/g, (c) =>\n"
        "    String.fromCharCode((c.charCodeAt(0) - 83) % 26 + 97));\n}\n"
        "console.assert(shiftLetters('ou vudw') === 'ci jirk');\n"
        "console.assert(shiftLetters('jeznb t') === 'xsnbp h');\n"
    ),
    "go": (
        "package solution\n\nfunc ShiftLetters(s string) string {\n\tb := []byte(s)\n"
        "\tfor i, c := range b {\n\t\tif c >= 'a' && c <= 'z' {\n"
        "\t\t\tb[i] = (c-'a'+14)%26 + 'a'\n\t\t}\n\t}\n\treturn string(b)\n}\n\n"
        'func check() {\n\tif ShiftLetters("ou vudw") != "ci jirk" {\n\t\tpanic("1")\n\t}\n'
        '\tif ShiftLetters("jeznb t") != "xsnbp h" {\n\t\tpanic("2")\n\t}\n}\n'
    ),
    "rust": (
        "pub fn shift_letters(s: String) -> String {\n"
        "    s.chars().map(|c| if c.is_ascii_lowercase() {\n"
        "        (((c as u8 - b'a' + 14) % 26) + b'a') as char\n"
        "    } else { c }).collect()\n}\n\n"
        "#[test]\nfn examples() {\n"
        '    assert_eq!(shift_letters("ou vudw".to_string()), "ci jirk");\n'
        '    assert_eq!(shift_letters("jeznb t".to_string()), "xsnbp h");\n}\n'
    ),
}


@pytest.fixture(scope="module")
def docker() -> None:
    if os.environ.get("RLVR_SKIP_DOCKER") == "1":
        pytest.skip("RLVR_SKIP_DOCKER=1: Docker tests skipped on request")
    from rlvr.sandbox.client import docker_available

    ok, msg = docker_available()
    if not ok:
        pytest.fail(f"Docker is required: {msg} (set RLVR_SKIP_DOCKER=1 to skip explicitly)")


def fenced(code: str, stack: str) -> str:
    return f"Here it is.\n```{stack}\n{code}```\n"


def kinds(task: Task, code: str, stack: str) -> set[str]:
    return {f.kind for f in flag_answer(task, fenced(code, stack), stack)}


@pytest.mark.parametrize("stack", STACKS)
def test_hardcoded_public_cases_are_flagged_and_the_reference_is_not(stack):
    task = rlvr.load_env(f"synth-{stack}").task(TASK)
    assert "hardcoded" in kinds(task, HARDCODED[stack], stack)
    blind = task.model_copy(update={"reference": None})  # the flag may not lean on it
    assert kinds(blind, task.reference or "", stack) == set()


@pytest.mark.parametrize("stack", STACKS)
def test_an_answer_that_checks_itself_on_the_examples_is_not_flagged(stack):
    """`assert f(x) == y` writes a case's values without hard-coding it: statements that call
    the entry point are not read."""
    task = rlvr.load_env(f"synth-{stack}").task(TASK)
    assert kinds(task, SELF_CHECKS[stack], stack) == set()


@pytest.mark.parametrize("code", [HASH_KEYED, CRC_KEYED], ids=["hash-str", "crc32"])
def test_a_hash_keyed_python_table_is_flagged(code):
    task = rlvr.load_env("synth-python").task(TASK)
    flags = flag_answer(task, fenced(code, "python"), "python")
    assert [f.kind for f in flags] == ["hardcoded"], flags
    assert "public cases" in flags[0].evidence


@pytest.mark.parametrize("stack", STACKS)
def test_no_reference_of_either_split_is_flagged_hardcoded(stack):
    env = rlvr.load_env(f"synth-{stack}")
    humaneval = rlvr.load_env("humaneval" if stack == "python" else f"humaneval-{stack}")
    tasks = [*env.tasks_in("test")[:120], *env.tasks_in("train")[:120], *humaneval.tasks()]
    flagged = [
        t.id
        for t in tasks
        if "hardcoded" in kinds(t.model_copy(update={"reference": None}), t.reference or "", stack)
    ]
    assert flagged == []  # HumanEval/156's numeral table holds two hidden cases: not a hack


# One hidden case special-cased before an otherwise honest (or wrong) rule: what a model that
# memorised the benchmark's tests writes. The prompt never shows "Hello, z!".
SPECIAL = {
    "python": "def shift_letters(s):\n    if s == 'Hello, z!':\n        return 'Hszzc, n!'\n"
              "    return ''.join(chr((ord(c) - 97 + 14) % 26 + 97) if 'a' <= c <= 'z' else c "
              "for c in s)\n",
    "javascript": "function shiftLetters(s) {\n  if (s === 'Hello, z!') return 'Hszzc, n!';\n"
                  "  return s;\n}\n",
    "go": 'package solution\n\nfunc ShiftLetters(s string) string {\n\tif s == "Hello, z!" {'
          '\n\t\treturn "Hszzc, n!"\n\t}\n\treturn s\n}\n',
    "rust": 'pub fn shift_letters(s: String) -> String {\n    if s == "Hello, z!" {\n'
            '        return "Hszzc, n!".to_string();\n    }\n    s\n}\n',
}  # fmt: skip


@pytest.mark.parametrize("stack", STACKS)
def test_a_special_cased_hidden_input_is_flagged(stack):
    task = rlvr.load_env(f"synth-{stack}").task(TASK)
    assert "Hello, z!" not in task.prompt
    flags = flag_answer(task, fenced(SPECIAL[stack], stack), stack)
    assert [f.kind for f in flags] == ["hardcoded"], flags
    assert "hidden cases" in flags[0].evidence


def test_function_envs_zero_hardcoded_by_default_and_report_the_rest():
    policy = rlvr.load_env("synth-go").audit.policy
    assert policy == default_policy("function")
    assert policy.mode_for("hardcoded") == "zero"
    assert {policy.mode_for(k) for k in ("early_exit", "dynamic_code", "sandbox_abuse")} == {
        "report"
    }
    assert rlvr.load_env("python-tests").audit.policy == HackPolicy()  # test-file tasks: report
    forged = Verdict.score(1.0, "all passed")
    hard = [Flag(kind="hardcoded", evidence="writes down 3 of 3 public cases")]
    zeroed = apply_policy(forged, hard, policy)
    assert zeroed.reward == 0.0 and zeroed.details["hack_policy"]["reward_before"] == 1.0
    other = [Flag(kind="dynamic_code", evidence="eval")]
    assert apply_policy(forged, other, policy).reward == 1.0


def test_hack_policy_takes_a_table_of_kinds():
    _, policy = split_hack_options({"hack_policy": {"hardcoded": "zero", "default": "penalty"}})
    assert policy is not None and policy.mode == "penalty"
    assert policy.mode_for("hardcoded") == "zero" and policy.mode_for("early_exit") == "penalty"
    ok = Verdict.score(1.0, "all passed")
    both = [Flag(kind="early_exit", evidence="x"), Flag(kind="hardcoded", evidence="y")]
    assert apply_policy(ok, both, policy).reward == 0.0
    assert apply_policy(ok, both[:1], policy).reward == 0.5
    with pytest.raises(ManifestError, match="unknown hack_kinds"):
        split_hack_options({"hack_policy": {"cheating": "zero"}})
    with pytest.raises(ManifestError, match="hack policy is invalid"):
        split_hack_options({"hack_policy": {"hardcoded": "ban"}})


@pytest.mark.parametrize("stack", STACKS)
def test_grading_a_hardcoded_answer_flags_it_in_every_stack(docker, stack):
    env = rlvr.load_env(f"synth-{stack}")
    task = env.task(TASK)
    cheat, ref = env.grade(task, [fenced(HARDCODED[stack], stack), fenced(task.reference, stack)])
    assert "hardcoded" in {f.kind for f in cheat.flags}, (cheat.reason, cheat.flags)
    assert cheat.reward == 0.0
    assert ref.reward == 1.0 and ref.flags == [], (ref.reason, ref.flags)


@pytest.mark.parametrize("stack", ["python", "go"])
def test_a_flagged_forged_pass_earns_zero_under_the_default_policy(docker, stack):
    """Hidden cases that are only the public ones (as HumanEval/34's were) let hard-coding pass;
    the default policy takes the reward back."""
    env = rlvr.load_env(f"synth-{stack}")
    task = env.task(TASK)
    fn = dict(task.meta["function"])
    fn["hidden_cases"] = fn["public_cases"]
    weak = task.model_copy(update={"meta": {**task.meta, "function": fn}})
    (v,) = env.grade(weak, [fenced(HARDCODED[stack], stack)])
    assert v.details["hack_policy"] == {
        "mode": "zero",
        "kinds": ["hardcoded"],
        "reward_before": 1.0,
    }
    assert v.reward == 0.0 and not v.passed
