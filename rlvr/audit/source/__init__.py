"""Reading answers and tests as source: a lexer for C-family stacks, function spans, the test
cases in asserts and prompts, Python name facts, and source mutants. Knows nothing of verdicts
or environments; the flags and the spec-gap audit both build on it."""
