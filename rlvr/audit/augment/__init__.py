"""Case augmentation of function tasks (EvalPlus-style): new hidden cases that kill mutants."""
