"""`rlvr audit hacks`: hack flags over stored answers (with what their verdicts saw), the
dynamic checks that run answers against the reference, and the labelled hack corpus. Runs
over environments."""
