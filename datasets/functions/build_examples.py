"""Write datasets/functions/examples.jsonl: four small function tasks with references in every
stack. They exercise the type language end to end (optional tuples, maps with int and str keys,
float tolerance) and are the fixture of tests/test_function_grader.py.

    python datasets/functions/build_examples.py
"""

from __future__ import annotations

from pathlib import Path

from rlvr.functions.task import FunctionTask, write_function_tasks

PAIR = {
    "python": """def pair_sum(xs: list[int], k: int) -> tuple[int, int] | None:
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] + xs[j] == k:
                return (i, j)
    return None
""",
    "javascript": """function pairSum(xs, k) {
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      if (xs[i] + xs[j] === k) return [i, j];
    }
  }
  return null;
}

module.exports = { pairSum };
""",
    "go": """package solution

func PairSum(xs []int, k int) *[2]int {
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			if xs[i]+xs[j] == k {
				return &[2]int{i, j}
			}
		}
	}
	return nil
}
""",
    "rust": """fn pair_sum(xs: Vec<i64>, k: i64) -> Option<(i64, i64)> {
    for i in 0..xs.len() {
        for j in i + 1..xs.len() {
            if xs[i] + xs[j] == k {
                return Some((i as i64, j as i64));
            }
        }
    }
    None
}
""",
}

BY_LENGTH = {
    "python": """def group_by_length(words: list[str]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for w in words:
        out.setdefault(len(w), []).append(w)
    return out
""",
    "javascript": """function groupByLength(words) {
  const out = new Map();
  for (const w of words) {
    if (!out.has(w.length)) out.set(w.length, []);
    out.get(w.length).push(w);
  }
  return out;
}

module.exports = { groupByLength };
""",
    "go": """package solution

import "unicode/utf8"

func GroupByLength(words []string) map[int][]string {
	out := map[int][]string{}
	for _, w := range words {
		n := utf8.RuneCountInString(w)
		out[n] = append(out[n], w)
	}
	return out
}
""",
    "rust": """use std::collections::HashMap;

fn group_by_length(words: Vec<String>) -> HashMap<i64, Vec<String>> {
    let mut out: HashMap<i64, Vec<String>> = HashMap::new();
    for w in words {
        out.entry(w.chars().count() as i64).or_insert_with(Vec::new).push(w);
    }
    out
}
""",
}

STATS = {
    "python": """def mean_and_range(xs: list[float]) -> tuple[float, float]:
    return (sum(xs) / len(xs), max(xs) - min(xs))
""",
    "javascript": """function meanAndRange(xs) {
  const sum = xs.reduce((a, b) => a + b, 0);
  return [sum / xs.length, Math.max(...xs) - Math.min(...xs)];
}

module.exports = { meanAndRange };
""",
    "go": """package solution

func MeanAndRange(xs []float64) (float64, float64) {
	sum, lo, hi := 0.0, xs[0], xs[0]
	for _, x := range xs {
		sum += x
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	return sum / float64(len(xs)), hi - lo
}
""",
    "rust": """fn mean_and_range(xs: Vec<f64>) -> (f64, f64) {
    let sum: f64 = xs.iter().sum();
    let lo = xs.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    (sum / xs.len() as f64, hi - lo)
}
""",
}

COUNT = {
    "python": """def letter_counts(text: str, ignore_case: bool) -> dict[str, int]:
    out: dict[str, int] = {}
    for ch in text.lower() if ignore_case else text:
        if ch.isalpha():
            out[ch] = out.get(ch, 0) + 1
    return out
""",
    "javascript": """function letterCounts(text, ignoreCase) {
  const out = {};
  for (const ch of ignoreCase ? text.toLowerCase() : text) {
    if (/[a-zA-Z]/.test(ch)) out[ch] = (out[ch] || 0) + 1;
  }
  return out;
}

module.exports = { letterCounts };
""",
    "go": """package solution

import "strings"

func LetterCounts(text string, ignoreCase bool) map[string]int {
	if ignoreCase {
		text = strings.ToLower(text)
	}
	out := map[string]int{}
	for _, r := range text {
		if (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			out[string(r)]++
		}
	}
	return out
}
""",
    "rust": """use std::collections::HashMap;

fn letter_counts(text: String, ignore_case: bool) -> HashMap<String, i64> {
    let text = if ignore_case { text.to_lowercase() } else { text };
    let mut out = HashMap::new();
    for c in text.chars().filter(|c| c.is_ascii_alphabetic()) {
        *out.entry(c.to_string()).or_insert(0) += 1;
    }
    out
}
""",
}


def tasks() -> list[FunctionTask]:
    def t(**kw) -> FunctionTask:
        return FunctionTask.model_validate({"source": "handwritten", **kw})

    return [
        t(id="examples/pair_sum", entry_point="pair_sum", references=PAIR,
          signature={"params": [{"name": "xs", "type": "list[int]"}, {"name": "k", "type": "int"}],
                     "returns": "optional[tuple[int, int]]"},
          docstring="Return the first pair of positions (i, j), i < j, whose values add up to k,\n"
                    "scanning i then j in increasing order; nothing when there is none.",
          public_cases=[{"args": [[1, 2, 3], 5], "expected": [1, 2]}],
          hidden_cases=[{"args": [[], 1], "expected": None},
                        {"args": [[4, 4, 4], 8], "expected": [0, 1]},
                        {"args": [[-3, 9, 5], 2], "expected": [0, 2]},
                        {"args": [[1, 1], 3], "expected": None}],
          difficulty="easy", tags=["lists", "loops"]),
        t(id="examples/group_by_length", entry_point="group_by_length", references=BY_LENGTH,
          signature={"params": [{"name": "words", "type": "list[str]"}],
                     "returns": "dict[int, list[str]]"},
          docstring="Group words by their length in characters, keeping their order in a group.",
          public_cases=[{"args": [["a", "bb", "c"]], "expected": [[1, ["a", "c"]], [2, ["bb"]]]}],
          hidden_cases=[{"args": [[]], "expected": []},
                        {"args": [["héllo", "world", ""]],
                         "expected": [[5, ["héllo", "world"]], [0, [""]]]}],
          difficulty="medium", tags=["maps", "strings"]),
        t(id="examples/mean_and_range", entry_point="mean_and_range", references=STATS,
          signature={"params": [{"name": "xs", "type": "list[float]"}],
                     "returns": "tuple[float, float]"},
          docstring="Return the mean of a non-empty list and its range (largest minus smallest).",
          public_cases=[{"args": [[1.0, 2.0, 4.5]], "expected": [2.5, 3.5]}],
          hidden_cases=[{"args": [[0.1, 0.2]], "expected": [0.15, 0.1], "abs_tol": 1e-9},
                        {"args": [[-2.0]], "expected": [-2.0, 0.0]}],
          difficulty="easy", tags=["floats"]),
        t(id="examples/letter_counts", entry_point="letter_counts", references=COUNT,
          signature={"params": [{"name": "text", "type": "str"},
                                {"name": "ignore_case", "type": "bool"}],
                     "returns": "dict[str, int]"},
          docstring="Count the ASCII letters of text (lower-cased first when ignore_case is set).",
          public_cases=[{"args": ["aAb!", True], "expected": {"a": 2, "b": 1}}],
          hidden_cases=[{"args": ["aAb!", False], "expected": {"a": 1, "A": 1, "b": 1}},
                        {"args": ["", True], "expected": {}},
                        {"args": ["Say \"hi\"\n\tok", False],
                         "expected": {"S": 1, "a": 1, "y": 1, "h": 1, "i": 1, "o": 1, "k": 1}}],
          difficulty="medium", tags=["maps", "strings", "conditionals"]),
    ]  # fmt: skip


if __name__ == "__main__":
    out = Path(__file__).with_name("examples.jsonl")
    write_function_tasks(out, tasks())
    print(f"wrote {out}")
