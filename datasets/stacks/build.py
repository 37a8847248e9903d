"""Build the function-task files of the bundled stack environments (run from anywhere).

    python datasets/stacks/build.py

`datasets/stacks/functions.jsonl`: the 17 problems the bundled `go`, `javascript`, `rust` and
`java` environments share, ids without the stack prefix (the environments add `go-`, `js-`,
`rust-`, `java-` through the loader's `id_prefix`, so the ids of the old test-framework tasks
stay). The references are whole answer files in `datasets/stacks/<stack>/<id>.<ext>`, the old
tasks' references moved to the typed signature each translator renders (java's were written
for that signature: it had no test-framework tasks). The Python ones (`python/<id>.py`, in the
renderable subset) go into the task file as `references.python`: a new stack's
`reference_from_python` renders its references from them.

`datasets/python/functions.jsonl`: the problems of the bundled `python` environment whose
tests are argument/expected checks (ids `python/<name>` as before), with the references of
`datasets/python/tasks.jsonl`. The classes (`stack_class`, `bank_account`) and the untyped
`flatten` and `invert_dict` stay in `python-tests` only (UNTYPED below says why).

The cases are every check of the old unit tests (datasets/<stack>/tasks.jsonl, all three
stacks' tests for the shared problems): the public tests' checks are public cases, the hidden
tests' hidden cases; a `pytest.raises` check is a case with `raises: true`. Checks that are
not a call's result (an input left unmodified, a returned list that is a new object) have no
case: the driver passes fresh values and compares plain data; each task's `meta.port_notes`
says what was left out or changed. Expected values that the tests derive (counts of a long
FizzBuzz, the number of primes up to 10,000, a quadruple rotation) are written out by the small
functions below, checked in `_checks` against what the tests asserted.
tests/test_stack_functions.py checks that the committed files are what this script writes.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATASETS = HERE.parent
sys.path.insert(0, str(DATASETS.parent))

from rlvr.functions.task import FunctionTask, write_function_tasks  # noqa: E402


def fizzbuzz(n: int) -> list[str]:
    words = {0: "FizzBuzz", 3: "Fizz", 5: "Buzz", 6: "Fizz", 9: "Fizz", 10: "Buzz", 12: "Fizz"}
    return [words.get(i % 15, str(i)) for i in range(1, n + 1)]


def primes(n: int) -> list[int]:
    return [p for p in range(2, n + 1) if all(p % d for d in range(2, int(p**0.5) + 1))]


def rotated(m: list[list[int]]) -> list[list[int]]:
    return [list(row) for row in zip(*m[::-1], strict=True)]


def _checks() -> None:
    """The derived expectations against what the old tests asserted."""
    hundred = fizzbuzz(100)
    counts = {w: hundred.count(w) for w in ("FizzBuzz", "Fizz", "Buzz")}
    assert len(hundred) == 100 and counts == {"FizzBuzz": 6, "Fizz": 27, "Buzz": 14}
    assert fizzbuzz(15)[14] == "FizzBuzz" and fizzbuzz(7)[6] == "7"
    assert len(primes(10_000)) == 1229
    m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert rotated(rotated(rotated(rotated(m)))) == m


EVENS = [2 * i for i in range(10_001)]  # the old tests used 100,001 (see binary-search)
BIG_GRID = ["1" * 300] * 300


def c(*args: object, expected: object = None) -> dict:
    return {"args": list(args), "expected": expected}


def raises(*args: object) -> dict:
    """A call that must fail (a test's `pytest.raises`)."""
    return {"args": list(args), "raises": True}


def shared() -> list[dict]:
    """The 17 problems of the go, javascript and rust sets."""
    return [
        {
            "id": "fizzbuzz", "entry_point": "fizz_buzz",
            "signature": ("n: int", "list[str]"),
            "docstring": "Return the FizzBuzz sequence for 1..n as strings: multiples of 3 are "
            '"Fizz", multiples of 5 are "Buzz", multiples of both are "FizzBuzz", other numbers '
            "are their decimal form. For n <= 0 return an empty list.",
            "public": [c(5, expected=fizzbuzz(5)), c(15, expected=fizzbuzz(15))],
            "hidden": [c(0, expected=[]), c(-3, expected=[]), c(100, expected=fizzbuzz(100)),
                       c(7, expected=fizzbuzz(7))],
        },
        {
            "id": "palindrome", "entry_point": "is_palindrome",
            "signature": ("s: str", "bool"),
            "docstring": "Decide whether s reads the same forwards and backwards when only its "
            "ASCII letters and digits are kept and letters are compared case-insensitively. "
            "The empty string is a palindrome.",
            "public": [c("racecar", expected=True), c("rocket", expected=False),
                       c("A man, a plan, a canal: Panama", expected=True)],
            "hidden": [c("", expected=True), c(".,!", expected=True), c("12a21", expected=True),
                       c("0P", expected=False), c("No lemon, no melon", expected=True),
                       c("ab", expected=False)],
        },
        {
            "id": "two-sum", "entry_point": "two_sum",
            "signature": ("nums: list[int], target: int", "optional[tuple[int, int]]"),
            "docstring": "Return the indices (i, j) with i < j and nums[i] + nums[j] == target. "
            "When several pairs exist, return the one with the smallest j, and for that j the "
            "smallest i. When there is no such pair return no value (None, nil or null).",
            "public": [c([2, 7, 11, 15], 9, expected=[0, 1]), c([1, 2, 3], 100)],
            "hidden": [c([3, 3], 6, expected=[0, 1]), c([1, 4, 2, 3, 0, 5], 5, expected=[0, 1]),
                       c([5, 1, 1, 4], 2, expected=[1, 2]), c([-3, 4, 3, 90], 0, expected=[0, 2]),
                       c([], 0)],
        },
        {
            "id": "roman-to-int", "entry_point": "roman_to_int",
            "signature": ("s: str", "int"),
            "docstring": "Convert a valid Roman numeral (I, V, X, L, C, D, M with subtractive "
            "pairs such as IV, IX, XL, XC, CD, CM), value 1 to 3999, to an integer.",
            "public": [c("III", expected=3), c("IV", expected=4), c("MCMXCIV", expected=1994)],
            "hidden": [c("MMMCMXCIX", expected=3999), c("XL", expected=40), c("CD", expected=400),
                       c("XC", expected=90), c("IX", expected=9),
                       *(c(s, expected=v) for s, v in zip("IVXLCDM", (1, 5, 10, 50, 100, 500,
                                                                       1000), strict=True))],
        },
        {
            "id": "rle", "entry_point": "run_length_encode",
            "signature": ("s: str", "str"),
            "docstring": "Run-length encode s character by character (Unicode code points): "
            "every maximal run of one character becomes the character followed by the run "
            'length, always written, e.g. "aaabcc" -> "a3b1c2". The empty string encodes to '
            "the empty string. Characters are compared exactly (case-sensitive).",
            "public": [c("aaabcc", expected="a3b1c2"), c("", expected="")],
            "hidden": [c("z" * 12, expected="z12"), c("aAaa", expected="a1A1a2"),
                       c("11  2", expected="12 221"), c("éé  2", expected="é2 221")],
        },
        {
            "id": "brackets", "entry_point": "is_balanced",
            "signature": ("s: str", "bool"),
            "docstring": "Return true when every bracket in s - (), [] and {} - is closed by "
            "the matching bracket in the right order. Other characters are ignored.",
            "public": [c("{[()]}", expected=True), c("([)]", expected=False)],
            "hidden": [c("((", expected=False), c("(", expected=False), c(")(", expected=False),
                       c("]", expected=False), c("f(a[i], {k: v})", expected=True),
                       c("", expected=True)],
        },
        {
            "id": "merge-intervals", "entry_point": "merge_intervals",
            "signature": ("intervals: list[tuple[int, int]]", "list[tuple[int, int]]"),
            "docstring": "Given closed intervals (start, end) with start <= end, in any order, "
            "merge every group of overlapping or touching intervals ((1, 3) and (3, 5) touch) "
            "and return the result sorted by start. Do not modify the input. An empty input "
            "gives an empty result.",
            "public": [c([[1, 3], [2, 6], [8, 10]], expected=[[1, 6], [8, 10]]),
                       c([[1, 3], [3, 5]], expected=[[1, 5]])],
            "hidden": [c([[8, 9], [1, 2], [0, 1]], expected=[[0, 2], [8, 9]]),
                       c([[1, 10], [2, 3], [4, 5]], expected=[[1, 10]]),
                       c([[5, 6], [1, 2]], expected=[[1, 2], [5, 6]]), c([], expected=[]),
                       c([[-5, -1]], expected=[[-5, -1]])],
            "dropped": "the input-unmodified check is not a case (the call's result is)",
        },
        {
            "id": "top-words", "entry_point": "top_words",
            "signature": ("text: str, k: int", "list[str]"),
            "docstring": "Split text into words (maximal runs of ASCII letters, lower-cased; "
            "everything else separates words) and return the k most frequent words, most "
            "frequent first, ties broken alphabetically. Return fewer than k words when there "
            "are fewer distinct words (an empty list when there are none).",
            "public": [c("the cat and the hat", 1, expected=["the"]),
                       c("b a c b a", 2, expected=["a", "b"])],
            "hidden": [c("It's IT, it! its", 3, expected=["it", "its", "s"]),
                       c("one two", 5, expected=["one", "two"]), c("", 3, expected=[]),
                       c("x1x2y", 3, expected=["x", "y"])],
        },
        {
            "id": "binary-search", "entry_point": "binary_search",
            "signature": ("sorted: list[int], target: int", "int"),
            "docstring": "sorted is in non-decreasing order. Return the index of the first "
            "(leftmost) occurrence of target, or -1 when it is absent. Aim for O(log n).",
            "public": [c([1, 3, 5, 7], 5, expected=2), c([1, 3, 5, 7], 4, expected=-1)],
            "hidden": [c([1, 2, 2, 2, 3], 2, expected=1), c([], 1, expected=-1),
                       c([4, 5], 4, expected=0), c([4, 5], 5, expected=1),
                       c([4, 5], 6, expected=-1), c(EVENS, 12_346, expected=6_173),
                       c(EVENS, 12_347, expected=-1)],
            "dropped": "the long list has 10,001 even numbers, not 100,001 (a literal in every "
            "driver; a linear search passed either size)",
        },
        {
            "id": "primes", "entry_point": "primes_up_to",
            "signature": ("n: int", "list[int]"),
            "docstring": "Return all primes p with 2 <= p <= n in increasing order (an empty "
            "list for n < 2).",
            "public": [c(10, expected=[2, 3, 5, 7]), c(1, expected=[])],
            "hidden": [c(13, expected=[2, 3, 5, 7, 11, 13]), c(2, expected=[2]),
                       c(10_000, expected=primes(10_000)), c(-5, expected=[])],
        },
        {
            "id": "rotate-matrix", "entry_point": "rotate",
            "signature": ("matrix: list[list[int]]", "list[list[int]]"),
            "docstring": "Return a new matrix that is matrix (a list of equal-length rows, "
            "possibly not square) rotated 90 degrees clockwise. An empty matrix rotates to an "
            "empty matrix. Do not modify the input.",
            "public": [c([[1, 2], [3, 4]], expected=[[3, 1], [4, 2]]), c([], expected=[])],
            "hidden": [c([[1, 2, 3], [4, 5, 6]], expected=[[4, 1], [5, 2], [6, 3]]),
                       c([[1, 2, 3], [4, 5, 6], [7, 8, 9]],
                         expected=rotated([[1, 2, 3], [4, 5, 6], [7, 8, 9]])),
                       c([[1], [2], [3]], expected=[[3, 2, 1]])],
            "dropped": "four rotations giving the input back became one rotation of that matrix",
        },
        {
            "id": "common-prefix", "entry_point": "longest_common_prefix",
            "signature": ("words: list[str]", "str"),
            "docstring": "Return the longest string that is a prefix of every string in words "
            "(compared character by character). For an empty list return the empty string.",
            "public": [c(["flower", "flow", "flight"], expected="fl"),
                       c(["dog", "racecar"], expected="")],
            "hidden": [c([], expected=""), c(["alone"], expected="alone"),
                       c(["interview", "inter", "internal"], expected="inter"),
                       c(["ab", ""], expected=""), c(["héllo", "hélp"], expected="hél")],
        },
        {
            "id": "caesar", "entry_point": "caesar",
            "signature": ("text: str, shift: int", "str"),
            "docstring": "Shift every ASCII letter of text by shift positions in the alphabet, "
            "wrapping around and keeping its case; shift may be negative or larger than 26. "
            "Leave every other character unchanged.",
            "public": [c("abc", 3, expected="def"), c("xyz", 3, expected="abc")],
            "hidden": [c("Hello, World!", 5, expected="Mjqqt, Btwqi!"),
                       c("abc", -1, expected="zab"), c("Mjqqt", -5, expected="Hello"),
                       c("abc", 53, expected="bcd"), c("ab", -27, expected="za")],
        },
        {
            "id": "islands", "entry_point": "count_islands",
            "signature": ("grid: list[str]", "int"),
            "docstring": "grid holds equal-length strings of '1' (land) and '0' (water). Count "
            "the islands: groups of land cells connected horizontally or vertically (not "
            "diagonally).",
            "public": [c(["11000", "11000", "00100", "00011"], expected=3),
                       c(["000", "000"], expected=0)],
            "hidden": [c(["101", "010", "101"], expected=5),
                       c(["1111", "0001", "1111", "1000", "1111"], expected=1),
                       c([], expected=0), c(BIG_GRID, expected=1)],
        },
        {
            "id": "max-subarray", "entry_point": "max_subarray_sum",
            "signature": ("nums: list[int]", "int"),
            "docstring": "Return the largest sum of a non-empty contiguous subarray of nums (a "
            "non-empty list).",
            "public": [c([-2, 1, -3, 4, -1, 2, 1, -5, 4], expected=6), c([7], expected=7)],
            "hidden": [c([-3, -1, -2], expected=-1), c([1, 2, 3], expected=6),
                       c([5, -9, 6, -2, 3], expected=7)],
        },
        {
            "id": "collatz", "entry_point": "collatz_steps",
            "signature": ("n: int", "optional[int]"),
            "docstring": "Return how many Collatz steps take the positive integer n to 1 "
            "(n -> n/2 when even, n -> 3n+1 when odd); the answer for 1 is 0. For n < 1 return "
            "no value (None, nil or null).",
            "public": [c(1, expected=0), c(6, expected=8)],
            "hidden": [c(27, expected=111), c(1024, expected=10), c(0), c(-4)],
            "dropped": "an error for n < 1 (go's error, rust's Err, javascript's RangeError) "
            "became no value; javascript's non-integer 2.5 has no case (n is an int)",
        },
        {
            "id": "anagram-groups", "entry_point": "group_anagrams",
            "signature": ("words: list[str]", "list[list[str]]"),
            "docstring": "Group the words that are anagrams of each other (same characters, "
            "same counts, case-sensitive). Inside a group keep the words in input order; order "
            "the groups by the input position of their first word. Duplicated words stay "
            "duplicated. An empty input gives an empty result.",
            "public": [c(["eat", "tea", "tan", "ate", "nat", "bat"],
                         expected=[["eat", "tea", "ate"], ["tan", "nat"], ["bat"]]),
                       c([], expected=[])],
            "hidden": [c(["ab", "Ba", "ba"], expected=[["ab", "ba"], ["Ba"]]),
                       c(["a", "a", ""], expected=[["a", "a"], [""]]),
                       c(["aab", "abb", "bba"], expected=[["aab"], ["abb", "bba"]])],
        },
    ]  # fmt: skip


def caesar(text: str, k: int) -> str:
    shift = {**{chr(97 + i): chr(97 + (i + k) % 26) for i in range(26)},
             **{chr(65 + i): chr(65 + (i + k) % 26) for i in range(26)}}  # fmt: skip
    return "".join(shift.get(ch, ch) for ch in text)


def fib(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


FOX = "The Quick Brown Fox"
# Python problems whose tests are not argument/expected checks: python-tests only.
UNTYPED = {
    "flatten": "arbitrarily nested lists of values of any type: no type of the type language",
    "invert_dict": "keys and values of any type (str -> int in some tests, int -> str in others)",
    "stack_class": "a class: its tests call methods in sequence on one object",
    "bank_account": "a class: its tests call methods in sequence on one object",
}


def python() -> list[dict]:
    """The problems of the python set that are typed functions (ids without `python/`)."""
    rle = [["a", 3], ["b", 1], ["c", 2]]
    return [
        {
            "id": "reverse_words", "signature": ("s: str", "str"),
            "public": [c("hello world", expected="world hello"), c("one", expected="one"),
                       c("", expected="")],
            "hidden": [c("  a   b  c ", expected="c b a"), c("x\ty\nz", expected="z y x"),
                       c("Hi, there!", expected="there! Hi,"), c("    ", expected="")],
        },
        {
            "id": "is_palindrome", "signature": ("s: str", "bool"),
            "public": [c("racecar", expected=True), c("python", expected=False),
                       c("A man, a plan, a canal: Panama", expected=True)],
            "hidden": [c("", expected=True), c("12321", expected=True), c("123", expected=False),
                       c("No 'x' in Nixon", expected=True), c("ab", expected=False),
                       c("!!??", expected=True)],
        },
        {
            "id": "run_length_encode", "signature": ("s: str", "list[tuple[str, int]]"),
            "public": [c("aaabcc", expected=rle), c("", expected=[]), c("z", expected=[["z", 1]])],
            "hidden": [c("abab", expected=[["a", 1], ["b", 1], ["a", 1], ["b", 1]]),
                       c("x" * 1000, expected=[["x", 1000]]),
                       c("aA", expected=[["a", 1], ["A", 1]]),
                       c("  a", expected=[[" ", 2], ["a", 1]])],
        },
        {
            "id": "caesar_shift", "signature": ("text: str, k: int", "str"),
            "public": [c("abc", 1, expected="bcd"), c("xyz", 3, expected="abc"),
                       c("Hello, World!", 5, expected="Mjqqt, Btwqi!")],
            "hidden": [c("bcd", -1, expected="abc"), c("abc", 27, expected="bcd"),
                       c("Same", 0, expected="Same"), c("é1 z", 1, expected="é1 a"),
                       c(FOX, 11, expected=caesar(FOX, 11)),
                       c(caesar(FOX, 11), -11, expected=FOX)],
        },
        {
            "id": "chunk", "signature": ("items: list[int], size: int", "list[list[int]]"),
            "public": [c([1, 2, 3, 4], 2, expected=[[1, 2], [3, 4]]),
                       c([1, 2, 3], 2, expected=[[1, 2], [3]]), c([], 3, expected=[])],
            "hidden": [c([1, 2], 1, expected=[[1], [2]]), c([1, 2], 10, expected=[[1, 2]]),
                       raises([1], 0), raises([1], -2)],
            "dropped": "items typed list[int] (a test chunked strings: ['a', 'b'] became [1, 2])",
        },
        {
            "id": "rotate_list", "signature": ("items: list[int], k: int", "list[int]"),
            "public": [c([1, 2, 3, 4], 1, expected=[4, 1, 2, 3]),
                       c([1, 2, 3], 0, expected=[1, 2, 3]), c([], 5, expected=[])],
            "hidden": [c([1, 2, 3, 4], -1, expected=[2, 3, 4, 1]),
                       c([1, 2, 3], 7, expected=[3, 1, 2]), c([1, 2, 3], 1, expected=[3, 1, 2]),
                       c([1, 2], 2, expected=[1, 2])],
            "dropped": "the input-unmodified and new-list identity tests are not cases",
        },
        {
            "id": "merge_intervals",
            "signature": ("intervals: list[tuple[int, int]]", "list[tuple[int, int]]"),
            "public": [c([[1, 3], [2, 6], [8, 10]], expected=[[1, 6], [8, 10]]),
                       c([[1, 4], [4, 5]], expected=[[1, 5]]), c([], expected=[])],
            "hidden": [c([[8, 10], [1, 3], [2, 4]], expected=[[1, 4], [8, 10]]),
                       c([[1, 10], [2, 3], [4, 5]], expected=[[1, 10]]),
                       c([[5, 6], [1, 2]], expected=[[1, 2], [5, 6]]),
                       c([[3, 3], [3, 3]], expected=[[3, 3]]),
                       c([[-5, -1], [-2, 2]], expected=[[-5, 2]])],
        },
        {
            "id": "word_frequencies", "signature": ("text: str", "dict[str, int]"),
            "public": [c("the cat the hat", expected={"the": 2, "cat": 1, "hat": 1}),
                       c("Go go GO", expected={"go": 3}), c("", expected={})],
            "hidden": [c("Hi! hi, there.", expected={"hi": 2, "there": 1}),
                       c("don't stop, don't", expected={"don't": 2, "stop": 1}),
                       c("a1b a", expected={"a": 2, "b": 1}), c("123 !!", expected={})],
        },
        {
            "id": "group_anagrams", "signature": ("words: list[str]", "list[list[str]]"),
            "public": [c(["eat", "tea", "tan", "ate", "nat", "bat"],
                         expected=[["ate", "eat", "tea"], ["bat"], ["nat", "tan"]]),
                       c([], expected=[]), c(["a"], expected=[["a"]])],
            "hidden": [c(["ab", "ba", "ab"], expected=[["ab", "ab", "ba"]]),
                       c(["c", "b", "a"], expected=[["a"], ["b"], ["c"]]),
                       c(["ab", "Ba"], expected=[["Ba"], ["ab"]]),
                       c(["", ""], expected=[["", ""]])],
        },
        {
            "id": "lcm_all", "signature": ("nums: list[int]", "int"),
            "public": [c([4, 6], expected=12), c([], expected=1), c([7], expected=7)],
            "hidden": [c(list(range(1, 11)), expected=2520), c([3, 5, 7], expected=105),
                       c(list(range(1, 41)), expected=5342931457063200),
                       c([6, 6, 6], expected=6)],
        },
        {
            "id": "is_prime", "signature": ("n: int", "bool"),
            "public": [*(c(n, expected=n in (2, 3, 5, 7, 11, 13, 17, 19)) for n in range(20)),
                       c(-7, expected=False), c(1, expected=False)],
            "hidden": [c(1_000_000_007, expected=True), c(999_983 * 1_000_003, expected=False),
                       c(49, expected=False), c(2, expected=True),
                       c(999_999_999_989, expected=True)],
        },
        {
            "id": "fibonacci", "signature": ("n: int", "int"),
            "public": [*(c(i, expected=fib(i)) for i in range(8)), c(20, expected=6765),
                       c(0, expected=0)],
            "hidden": [c(100, expected=354224848179261915075), c(10_000, expected=fib(10_000)),
                       c(10, expected=55), raises(-1)],
        },
        {
            "id": "roman_to_int", "signature": ("s: str", "int"),
            "public": [c("III", expected=3), c("IV", expected=4), c("LVIII", expected=58)],
            "hidden": [c("MCMXCIV", expected=1994), c("MMMCMXCIX", expected=3999),
                       c("IX", expected=9), c("XL", expected=40), c("CDXCIV", expected=494)],
        },
        {
            "id": "transpose", "signature": ("matrix: list[list[int]]", "list[list[int]]"),
            "public": [c([[1, 2], [3, 4]], expected=[[1, 3], [2, 4]]),
                       c([[1, 2, 3]], expected=[[1], [2], [3]]), c([], expected=[])],
            "hidden": [c([[1], [2]], expected=[[1, 2]]),
                       c([[1, 2, 3], [4, 5, 6]], expected=[[1, 4], [2, 5], [3, 6]]),
                       c([[1, 4], [2, 5], [3, 6]], expected=[[1, 2, 3], [4, 5, 6]]),
                       c([[1, 2], [3, 4], [5, 6]], expected=[[1, 3, 5], [2, 4, 6]])],
        },
        {
            "id": "two_sum", "signature": ("nums: list[int], target: int",
                                           "optional[tuple[int, int]]"),
            "public": [c([2, 7, 11, 15], 9, expected=[0, 1]), c([1, 2], 7),
                       c([3, 2, 4], 6, expected=[1, 2])],
            "hidden": [c([3, 3], 6, expected=[0, 1]), c([-1, -2, -3, -4], -7, expected=[2, 3]),
                       c([1, 4, 2, 3], 5, expected=[0, 1]), c([], 0),
                       c([1, 1, 1], 2, expected=[0, 1])],
        },
        {
            "id": "balanced_brackets", "signature": ("s: str", "bool"),
            "public": [c("([]{})", expected=True), c("([)]", expected=False),
                       c("f(x) = [a, {b}]", expected=True)],
            "hidden": [c("", expected=True), c("((", expected=False), c(")(", expected=False),
                       c("(" * 500 + ")" * 500, expected=True), c("{}}", expected=False)],
        },
    ]  # fmt: skip


def _signature(spec: tuple[str, str]) -> dict:
    params = [p.split(":", 1) for p in re.split(r", (?=\w+:)", spec[0])] if spec[0] else []
    return {
        "params": [{"name": n.strip(), "type": t.strip()} for n, t in params],
        "returns": spec[1],
    }


def _task(d: dict, **extra: object) -> FunctionTask:
    meta = {"from": extra.pop("origin")}
    if d.get("dropped"):
        meta["port_notes"] = d["dropped"]
    return FunctionTask.model_validate({
        "id": d["id"], "signature": _signature(d["signature"]), "public_cases": d["public"],
        "hidden_cases": d["hidden"], "source": "rlvr", "meta": meta, **extra,
    })  # fmt: skip


def shared_tasks() -> list[FunctionTask]:
    """The shared problems, each with its Python reference (`python/<id>.py`, written in the
    subset of rlvr/functions/pysubset.py) so that a new stack's renderer gives it one too."""
    return [
        _task(d, entry_point=d["entry_point"], docstring=d["docstring"],
              origin=f"datasets/{{go,javascript,rust}}/tasks.jsonl ({d['id']})",
              references={"python": (HERE / "python" / f"{d['id']}.py").read_text("utf-8")})
        for d in shared()
    ]  # fmt: skip


def python_tasks() -> list[FunctionTask]:
    """Docstrings are the old prompts less their 'Write `sig`' opening; references kept."""
    old = {}
    for line in (DATASETS / "python" / "tasks.jsonl").read_text("utf-8").splitlines():
        row = json.loads(line)
        old[row["id"].removeprefix("python/")] = row
    out = []
    for d in python():
        row = old[d["id"]]
        out.append(_task(
            {**d, "id": row["id"]}, entry_point=row["entry_point"],
            docstring=_python_doc(d["id"]), references={"python": row["reference"].lstrip()},
            origin=f"datasets/python/tasks.jsonl ({row['id']})",
        ))  # fmt: skip
    missing = set(old) - {d["id"] for d in python()} - set(UNTYPED)
    assert not missing, f"python problems neither converted nor listed in UNTYPED: {missing}"
    return out


PYTHON_DOCS = {
    "reverse_words": "Return the words of s in reverse order, separated by single spaces (any "
    "run of whitespace separates words; leading and trailing whitespace is dropped).",
    "is_palindrome": "Return True when s reads the same forwards and backwards, ignoring case "
    "and every character that is not a letter or digit.",
    "run_length_encode": "Return the runs of equal consecutive characters of s as (character, "
    "count) pairs, in order.",
    "caesar_shift": "Shift every ASCII letter of text by k places in the alphabet (wrapping "
    "around, keeping case; k may be negative or larger than 26) and leave every other "
    "character unchanged.",
    "chunk": "Split items into consecutive lists of length size (the last may be shorter). "
    "Raise ValueError when size < 1.",
    "rotate_list": "Return a new list: items rotated right by k positions (k may be negative "
    "or larger than the length). The input list must not be modified.",
    "merge_intervals": "Merge overlapping or touching closed intervals and return them sorted "
    "by start.",
    "word_frequencies": "Count the words of text. A word is a maximal run of ASCII letters and "
    "apostrophes; counting ignores case (keys are lower-case).",
    "group_anagrams": "Group the words that are anagrams of each other. Each group is sorted "
    "alphabetically and the groups are sorted by their first word.",
    "lcm_all": "Return the least common multiple of the positive integers nums (1 for an empty "
    "list).",
    "is_prime": "Return whether n is prime (False for n < 2). It must handle n up to 10**12 "
    "quickly.",
    "fibonacci": "Return F(n) with F(0) = 0, F(1) = 1. It must be fast for n up to 10_000. "
    "Raise ValueError for negative n.",
    "roman_to_int": "Convert a valid Roman numeral (I, V, X, L, C, D, M with subtractive pairs "
    "such as IV and CM) to an integer.",
    "transpose": "Transpose a rectangular matrix given as a list of rows (an empty matrix "
    "gives []).",
    "two_sum": "Return the indices (i, j), i < j, of the first pair (smallest j, then "
    "smallest i) whose values add up to target, or None when there is none.",
    "balanced_brackets": "Return True when the brackets (), [] and {} in s are balanced and "
    "properly nested; other characters are ignored.",
}


def _python_doc(name: str) -> str:
    return PYTHON_DOCS[name]


def main() -> None:
    _checks()
    write_function_tasks(HERE / "functions.jsonl", shared_tasks())
    write_function_tasks(DATASETS / "python" / "functions.jsonl", python_tasks())


if __name__ == "__main__":
    main()
