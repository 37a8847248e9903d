"""The math grader: every conformance case, extraction, normalisation, guards and bounds."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from rlvr.errors import ManifestError
from rlvr.graders import make_grader
from rlvr.graders.math import MathGrader, check
from rlvr.graders.math.extract import extract_answers, gold_answer
from rlvr.graders.math.guard import Limits, TooBig, check_size
from rlvr.graders.math.normalize import normalize
from rlvr.graders.math.parse import ParseError, parse
from rlvr.types import Task, Verdict

CASES_PATH = Path(__file__).resolve().parents[1] / "graders" / "math" / "cases.jsonl"
CASES: list[dict[str, Any]] = [json.loads(line) for line in CASES_PATH.read_text().splitlines()]
MV_PATH = CASES_PATH.parent / "math_verify_cases.jsonl"
MV_CASES: list[dict[str, Any]] = [json.loads(line) for line in MV_PATH.read_text().splitlines()]


def _outcome(verdict: Verdict) -> str:
    if verdict.status == "scored":
        return "accept" if verdict.passed else "reject"
    return verdict.status


def test_cases_file_has_the_promised_shape() -> None:
    assert len(CASES) >= 300
    expects = [c["expect"] for c in CASES]
    assert set(expects) == {"accept", "reject", "grader_error"}
    assert expects.count("reject") >= len(CASES) / 3
    assert sum(c["adversarial"] for c in CASES) >= 40
    keys = {"gold", "answer", "expect", "category", "adversarial", "note"}
    assert all(keys <= set(c) <= keys | {"options"} for c in CASES)
    assert CASES_PATH.stat().st_size < 1_000_000


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{i}-{c['category']}-{c['expect']}" for i, c in enumerate(CASES)]
)
def test_case(case: dict[str, Any]) -> None:
    verdict = check(case["gold"], case["answer"], **case.get("options", {}))
    assert _outcome(verdict) == case["expect"], f"{case['note']}: {verdict.reason}"
    if case["expect"] == "grader_error":
        assert verdict.reward is None
    else:
        assert verdict.reward == (1.0 if case["expect"] == "accept" else 0.0)
        assert verdict.reason


@pytest.mark.parametrize("case", MV_CASES, ids=[c["source"] for c in MV_CASES])
def test_math_verify_suite_case(case: dict[str, Any]) -> None:
    verdict = check(case["gold"], case["answer"])
    assert _outcome(verdict) == case["expect"], f"{case['source']}: {verdict.reason}"


def test_math_verify_suite_agreement_and_every_difference_is_explained() -> None:
    differ = [c for c in MV_CASES if c["expect"] != c["mv_expect"]]
    assert len(MV_CASES) >= 270
    # 17 deliberate differences: 11 from before, and 6 chains with a false middle link
    # (`z = 3+3 = 2`) that Math-Verify's suite accepts and rlvr rejects (issue 25)
    assert len(differ) <= 0.07 * len(MV_CASES)
    assert all(c["note"] for c in differ)


def test_joined_boxes_form_a_set_but_a_hedge_does_not() -> None:
    joined = extract_answers("roots $\\boxed{1}$, $\\boxed{2}$ and $\\boxed{3}$")
    assert joined.joined == "1, 2, 3"
    assert extract_answers("$\\boxed{12}$, or maybe $\\boxed{10}$").joined is None
    assert check("\\{1,2,3\\}", "$\\boxed{1}$, $\\boxed{2}$ and $\\boxed{3}$").passed
    assert not check("2", "$\\boxed{1}$, $\\boxed{2}$ and $\\boxed{3}$").passed


def test_a_worked_solution_gold_is_read_by_its_last_box() -> None:
    assert gold_answer("So $x = 2$ and the area is $\\boxed{12}$.") == "12"
    assert gold_answer("\\boxed{1} and \\boxed{2}") == "1, 2"
    assert gold_answer("$x \\geq 5$") == "$x \\geq 5$"


def test_options_change_the_documented_rules() -> None:
    assert check("0.28", "\\boxed{28\\%}").passed
    assert not check("0.28", "\\boxed{28\\%}", percent="number").passed
    assert check("0.28", "\\boxed{28\\%}", percent="fraction").passed
    assert not check("28", "\\boxed{28\\%}", percent="fraction").passed
    assert not check("0.28", "\\boxed{28}").passed
    assert check("1/3", "\\boxed{0.3333}", decimal_digits=4).passed
    assert not check("1/3", "\\boxed{0.3333}").passed
    assert check("C", "so (C) it is").passed
    assert not check("C", "so (C) it is", multiple_choice=False).passed
    assert not check("\\sqrt{x^2}", "\\boxed{x}", positive_symbols=False).passed
    with pytest.raises(ManifestError, match="percent"):
        MathGrader(percent="sometimes")


def test_grade_group_keeps_order_and_reads_the_gold_once() -> None:
    grader = MathGrader()
    answers = [
        "So $\\boxed{\\frac{1}{2}}$.",
        "The answer is $\\boxed{0.5}$.",
        "The answer is $\\boxed{0.333}$.",
        "I give up.",
        "So $\\boxed{\\frac{1}{2}}$.",
        "$\\boxed{1/2}$ or maybe $\\boxed{1/3}$",
        "\\boxed{\\sin\\frac{\\pi}{6}}",
        "\\boxed{9^{9^{9^9}}}",
    ]
    verdicts = grader.grade_group(Task(id="t", prompt="p", gold="\\dfrac12"), answers)
    assert [_outcome(v) for v in verdicts] == [
        "accept",
        "accept",
        "reject",
        "reject",
        "accept",
        "reject",
        "accept",
        "reject",
    ]
    assert verdicts[0].details == verdicts[4].details  # identical answers, identical verdicts
    assert "several different final answers" in verdicts[5].reason
    assert "too large" in verdicts[7].reason
    assert verdicts[6].details["path"] == "worker"
    assert verdicts[1].details["path"] == "fast"


def test_unreadable_gold_masks_the_whole_group() -> None:
    verdicts = MathGrader().grade_group(
        Task(id="t", prompt="p", gold="\\frac{1}{"), ["\\boxed{1}", "no answer", "\\boxed{x}"]
    )
    assert [v.status for v in verdicts] == ["grader_error"] * 3
    assert all(v.reward is None and "gold" in v.reason for v in verdicts)


def test_details_carry_extraction_and_normalised_forms() -> None:
    verdict = check("30^\\circ", "The angle is $\\boxed{30^{\\circ}}$.")
    assert verdict.passed
    assert verdict.details["extracted"] == "30^{\\circ}"
    assert verdict.details["source"] == "boxed"
    assert verdict.details["answer_normalized"] == ["30"]
    assert verdict.details["gold_normalized"] == "30"


def test_a_bomb_is_rejected_with_a_reason_not_timed_out() -> None:
    verdict = check("5", "\\boxed{(10^8)!}")
    assert verdict.status == "scored" and verdict.reward == 0.0
    assert "too large" in verdict.reason


def test_a_check_past_its_deadline_twice_scores_zero_and_the_grader_recovers() -> None:
    slow = "\\boxed{\\binom{66000}{33000}}"  # legal (under the digit limit) but not instant
    late = check("1", slow, timeout_s=0.001)
    assert late.status == "scored" and late.reward == 0.0 and late.cause == "timeout"
    assert "second try" in late.reason and late.details["timed_out"] is True
    assert check("x+1", "\\boxed{1+x}").passed


def test_answer_timeouts_mask_keeps_a_late_answer_masked() -> None:
    late = check("1", "\\boxed{\\binom{66000}{33000}}", timeout_s=0.001, answer_timeouts="mask")
    assert late.status == "timeout" and late.reward is None
    assert "longer than" in late.reason


def test_a_costly_wrong_answer_cannot_trade_its_zero_for_a_mask() -> None:
    """A symbolic sum the size guard cannot bound outlasts both deadlines: a wrong answer that
    buys a masked verdict would drop out of its group instead of scoring 0."""
    grader = make_grader("math", {"timeout_s": 0.5})
    task = Task(id="t", prompt="?", gold="42")
    costly = "\\boxed{\\sum_{k=1}^{x} k^x}"
    verdicts = grader.grade_group(task, [costly, "\\boxed{42}"])
    assert verdicts[0].status == "scored" and verdicts[0].reward == 0.0
    assert verdicts[0].cause == "timeout"
    assert verdicts[1].passed


def test_usable_from_threads_that_are_not_main() -> None:
    results: dict[int, bool] = {}

    def work(i: int) -> None:
        results[i] = check(f"{i}\\sqrt{{2}}", f"\\boxed{{\\sqrt{{{2 * i * i}}}}}").passed

    threads = [threading.Thread(target=work, args=(i,)) for i in range(1, 7)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert results == {i: True for i in range(1, 7)}


def test_registered_as_math_with_checked_options() -> None:
    grader = make_grader("math", {"timeout_s": 1.0, "fallback_last_number": False})
    assert grader.name == "math"
    assert grader.extract("so 12 apples") is None
    with pytest.raises(ManifestError, match="timout_s"):
        make_grader("math", {"timout_s": 1.0})


@pytest.mark.parametrize(
    ("completion", "source", "candidates"),
    [
        ("so $\\boxed{\\frac{\\sqrt{3}}{2}}$.", "boxed", ("\\frac{\\sqrt{3}}{2}",)),
        ("$\\fbox{7}$ and $\\boxed 8$", "boxed", ("7", "8")),
        ("\\boxed{2} then \\boxed{2}", "boxed", ("2",)),
        ("\\boxed{\\boxed{4}}", "boxed", ("\\boxed{4}",)),
        ("work\n#### 1,000", "gsm8k", ("1,000",)),
        ("work\nAnswer: $x = 3$.", "answer_line", ("x = 3",)),
        ("**Final Answer:** 72", "answer_line", ("72",)),
        ("so the answer is 12 apples.", "answer_line", ("12",)),
        ("\\frac{1}{2}", "lone", ("\\frac{1}{2}",)),
        ("she has 5 apples, then 7.", "last_number", ("7",)),
        ("nothing here", "none", ()),
        ("cut off \\boxed{12", "last_number", ("12",)),
    ],
)
def test_extraction(completion: str, source: str, candidates: tuple[str, ...]) -> None:
    ext = extract_answers(completion)
    assert ext.source == source
    assert ext.candidates == candidates


def test_fallback_can_be_switched_off_and_flags_hedges() -> None:
    assert extract_answers("she has 7", fallback_last_number=False).candidates == ()
    assert extract_answers("x is 2 or 3").hedged


def test_extraction_of_a_huge_completion_is_linear() -> None:
    nested = "\\boxed{" * 20_000 + "}" * 20_000  # rescanning each box would be quadratic
    assert extract_answers(nested).source == "boxed"


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("\\$1,234.50", "1234.50"),
        ("10\\%", "10"),
        ("5\\text{ cm}^2", "5"),
        ("12 pieces of candy", "12"),
        ("\\left( 1, 2 \\right]", "( 1, 2 ]"),
        ("\\dfrac{1}{2}", "\\frac{1}{2}"),
        ("0.\\overline{3}", "\\frac{3}{9}"),
        ("2 \\text{ or } 3", "2 or 3"),
        ("\\text{Monday}", "Monday"),
        ("1, 2", "1, 2"),
    ],
)
def test_normalize(raw: str, normal: str) -> None:
    assert normalize(raw) == normal


@pytest.mark.parametrize(
    "text", ["9^{9^{9^9}}", "(10^8)!", "x^{10^{9}}", "10^{-10^{10}}", "\\binom{10^{12}}{5}"]
)
def test_guard_refuses_bombs_before_evaluating(text: str) -> None:
    with pytest.raises(TooBig):
        check_size(parse(normalize(text)), Limits())


@pytest.mark.parametrize("text", ["\\frac{1}{", "2 @ 3", "(" * 100 + "1" + ")" * 100, "1e99999"])
def test_parser_refuses_what_it_cannot_read(text: str) -> None:
    with pytest.raises(ParseError):
        parse(text)


def test_audit_reports_a_gold_that_cannot_be_read() -> None:
    import rlvr
    from rlvr.audit.specgap.audit import GapOptions, audit_task, summary

    env = rlvr.load_env("math")
    broken = Task(id="broken", prompt="p", gold="\\frac{1}{")
    audit = audit_task(env, broken, GapOptions(max_mutants=2))
    assert "cannot be read" in audit.gold_unreadable
    assert audit.gap and any("gold cannot be read" in r for r in audit.reasons)
    fine = audit_task(env, Task(id="fine", prompt="p", gold="\\frac{1}{2}"), GapOptions())
    assert fine.gold_unreadable == ""
    assert summary("math", [audit, fine], 0.0).golds_unreadable == 1


def test_numbers_only_passes_a_value_and_rejects_an_expression_equal_to_it():
    """An arithmetic task's answer `32 + 23` restates the question (math-columns sets it)."""
    task = Task(id="t", prompt="What is 32 + 23?", gold="55")
    strict, lenient = MathGrader(numbers_only=True), MathGrader()
    values = ["\\boxed{55}", "\\boxed{55\\%}", "\\boxed{fifty-five}", "The answer is 55."]
    expressions = ["\\boxed{32 + 23}", "\\boxed{\\sqrt{3025}}", "\\boxed{55 \\approx 56}",
                   "\\boxed{\\frac{110}{2}}", "\\boxed{110/2}", "\\boxed{55/1}"]  # fmt: skip
    assert [v.reward for v in strict.grade_group(task, values)] == [1.0] * 4
    verdicts = strict.grade_group(task, expressions)
    assert [v.reward for v in verdicts] == [0.0] * 6
    assert all("not a plain number" in v.reason for v in verdicts)
    assert lenient.grade_group(task, expressions[:1])[0].reward == 1.0  # the default is unchanged
    half = Task(id="h", prompt="What is 1 / 2?", gold="\\frac{1}{2}")
    assert strict.grade_group(half, ["\\boxed{1/2}", "\\boxed{2/4}"])[0].reward == 1.0
    assert strict.grade_group(half, ["\\boxed{2/4}"])[0].reward == 0.0  # lowest terms only


@pytest.mark.parametrize(
    "filler",
    ["\\[ ", "\\( ", "<answer>", "答案", "答案 or ", "Answer: x or y\n", "The answer is at least "],
)
def test_thousands_of_unclosed_openers_or_statements_still_read_the_last_answer(filler: str):
    """An adversarial turn (an opener or a statement repeated 10,000 times) once took seconds to
    extract, outside the grader's deadline; a span no longer runs past another opener of its
    kind and statements are read from the end (bench/extract_long.py times it)."""
    text = filler * 10_000 + "\nSo the answer is 42."
    assert extract_answers(text).candidates == ("42",)
    (verdict,) = MathGrader().grade_group(Task(id="t", prompt="p", gold="42"), [text])
    assert verdict.passed


def test_a_span_or_answer_tag_ends_at_the_next_opener_of_its_kind():
    assert extract_answers("Thus \\[ a \\[ 5 \\] holds.").candidates == ("5",)
    assert extract_answers("Thus \\( b \\( 7 \\) holds.").candidates == ("7",)
    assert extract_answers("<answer>3 <answer>4</answer>").candidates == ("4",)
    assert extract_answers("<answer>3</answer> <answer>4").candidates == ("3",)


@pytest.mark.parametrize(
    "answer",
    [
        ",\tfinal\t答:" * 4000 + "42",  # labels on one line: each once read to the line's end
        "Answer: " + "not 1 but " * 1000 + "42",  # once a recursion per "but": RecursionError
        "答案 maybe " * 5000,  # hedged statements, each once read 1,200 characters ahead
        "\\boxed{" + "1" * 400 + "x}",  # a 400-digit coefficient: once an OverflowError
        "\\boxed{4" + " " * 900 + "2}",  # a run of spaces: once cubic in normalize
        "So $\\boxed{\\sqrt 3. + 1}$",  # a piece of a number token: once a ValueError
        ("The answer is 42" + "?" * 1150 + " a b c or 41\n") * 64,  # once 22 s (alternatives)
        ("The answer is 42" + " " * 1150 + "a b c or 41\n") * 64,  # once quadratic (prose end)
    ],
)
def test_an_adversarial_answer_is_scored_and_never_masks_its_group(answer: str):
    """Found by a cold attack: these took seconds (or raised) before the grader's deadline, and
    an error there turned every verdict of the group into grader_error."""
    verdicts = MathGrader().grade_group(Task(id="t", prompt="p", gold="42"), [answer, "42"])
    assert [v.status for v in verdicts] == ["scored", "scored"]
    assert verdicts[1].passed


@pytest.mark.parametrize(
    "answer",
    [
        "Answer" + " " * 20_000 + "x",  # spaces before a label's colon: once quadratic
        "#### 1" + " " * 20_000 + "x",  # spaces on a #### line: once quadratic
        "\\boxed{" + "~" * 900 + "}",  # `~` become spaces inside normalize: once cubic
        "Answer: " + "\\$ " * 300,
    ],
)
def test_runs_of_spaces_are_read_in_linear_time_and_scored(answer: str):
    """The second cold attack's slow inputs (seconds each before the change)."""
    (verdict,) = MathGrader().grade_group(Task(id="t", prompt="p", gold="42"), [answer])
    assert verdict.status == "scored" and not verdict.passed


def test_an_answer_that_breaks_the_grader_scores_zero_alone(monkeypatch: pytest.MonkeyPatch):
    """A grader bug on one answer scores that answer 0 with a `checker_exception` flag (masked,
    a crash would let it dodge the 0 of a wrong answer); its group's other answers keep their
    verdicts, as they would if graded apart (`rlvr grade`, a regrade)."""
    grader = MathGrader()
    prepare = grader._prepare

    def breaks_on_boom(answer: str, *args: Any) -> Any:
        if "boom" in answer:
            raise ValueError("boom")
        return prepare(answer, *args)

    monkeypatch.setattr(grader, "_prepare", breaks_on_boom)
    task = Task(id="t", prompt="p", gold="7")
    verdicts = grader.grade_group(task, ["The answer is 7.", "boom", "The answer is 8."])
    assert [v.status for v in verdicts] == ["scored", "scored", "scored"]
    assert [v.passed for v in verdicts] == [True, False, False]
    assert "ValueError: boom" in verdicts[1].reason
    assert [f.kind for f in verdicts[1].flags] == ["checker_exception"]


def test_a_bug_the_gold_itself_triggers_still_masks(monkeypatch: pytest.MonkeyPatch):
    """When the gold graded as its own answer breaks the grader too, the gold is at fault: no
    answer is scored against it."""
    grader = MathGrader()

    def breaks(*args: Any) -> Any:
        raise ValueError("boom")

    monkeypatch.setattr(grader, "_prepare", breaks)
    verdicts = grader.grade_group(Task(id="t", prompt="p", gold="7"), ["7", "8"])
    assert [v.status for v in verdicts] == ["grader_error", "grader_error"]
    assert all(v.reward is None for v in verdicts)


@pytest.mark.parametrize(
    ("gold", "answer"),
    [
        ("42", "so the count is $\\boxed{2" + "!" * 900 + "}$."),  # a RecursionError in the worker
        ("x^2+1", "\\boxed{2^" + "-" * 900 + "1}"),
        ("-3", "\\boxed{2" + "^1" * 490 + "}"),  # a RecursionError in the calling thread
        ("42", "the answer is $\\boxed{1.5 \\cdot 10^{5000}}$."),  # int-to-str past 4,300 digits
        ("\\frac{1}{2}", "\\boxed{10^{5000}+0.5}"),
    ],
)
def test_a_deep_or_huge_answer_is_a_zero_not_a_mask(gold: str, answer: str) -> None:
    """Found by a cold attack (helper 25): each of these raised inside the grader, which masked
    the answer, a dodge of the 0 a wrong answer earns."""
    verdict = check(gold, answer)
    assert verdict.status == "scored" and verdict.reward == 0.0


def test_a_worker_near_its_address_space_cap_clears_sympys_caches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """sympy keeps every large value it computed: answers that each pass the size guard could
    fill one reused worker until a later group's batch cannot load (a cold attack, helper 26)."""
    import resource

    import sympy.core.cache

    from rlvr.graders.math import worker

    cleared: list[bool] = []
    monkeypatch.setattr(sympy.core.cache, "clear_cache", lambda: cleared.append(True))
    monkeypatch.setattr(worker, "_trimmed_at", 0)
    monkeypatch.setattr(resource, "getrlimit", lambda _: (1 << 30, 1 << 30))
    monkeypatch.setattr(worker, "_PAGE", 1 << 30)  # every page a GiB: far past 60% of the cap
    worker._trim_caches()
    assert cleared == [True]
    worker._trim_caches()  # no growth since: not again
    assert cleared == [True]


def test_an_answer_on_a_worker_that_died_before_it_is_checked_on_a_fresh_one() -> None:
    """A worker killed between groups (an earlier answer filled it) must not cost the next
    group's answers: a crashed job is run once more on a fresh worker before it is judged."""
    from rlvr.graders.bounded import shared_pool
    from rlvr.graders.math.grader import _WORKER_MODULES

    grader = MathGrader(workers=1)
    task = Task(id="t", prompt="p", gold="\\sqrt{2}")
    assert grader.grade_group(task, ["\\boxed{2^{1/2}}"])[0].passed  # the worker is up
    pool = shared_pool(_WORKER_MODULES, 1, grader.options.memory_mb)
    for worker in list(pool._idle):
        worker.proc.kill()
        worker.proc.wait(timeout=10)
    verdicts = grader.grade_group(task, ["\\boxed{\\frac{2}{\\sqrt{2}}}", "\\boxed{7}"])
    assert [v.status for v in verdicts] == ["scored", "scored"]
    assert [v.passed for v in verdicts] == [True, False]
    assert not verdicts[0].flags
