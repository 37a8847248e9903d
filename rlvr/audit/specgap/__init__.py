"""`rlvr audit graders`: specification gaps of a grader. The reference must pass; trivial
answers, mutants of the reference and perturbed golds must fail. Runs over environments."""
