"""Reading answers and tests as source: a lexer for C-family stacks, function spans, the test
cases in asserts and prompts, and Python name facts. Knows nothing of verdicts or environments;
the grade-time flags (`rlvr.flags`) and the audits (`rlvr.audit`) both build on it."""
