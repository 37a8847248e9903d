"""Mutants of a reference: AST operators for Python (`mutate`), token edits for the other stacks
(`mutate_text`). Built on `rlvr.source`; the spec-gap audit and the case benches use them."""
