"""Held-out evaluation: pass@k with intervals (`run`), its page (`report`), paired
comparison of two evaluations (`compare`) and evaluation during training (`during`)."""

from rlvr.evaluation.passk import Estimate, Paired, bootstrap_ci, paired_difference, pass_at_k

__all__ = ["Estimate", "Paired", "bootstrap_ci", "paired_difference", "pass_at_k"]
