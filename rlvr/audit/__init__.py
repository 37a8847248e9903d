"""Audits over environments: `recheck` (`rlvr audit hacks`: stored answers, dynamic checks, the
labelled corpus), `specgap` (`rlvr audit graders`) and `source` (mutants of a reference). Sits
above `rlvr.env` and `rlvr.registry`; the flags attached while grading live below the
environment in `rlvr.flags`, so no import runs back up (see README.md)."""
