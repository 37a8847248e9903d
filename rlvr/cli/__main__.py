"""`python -m rlvr.cli` runs the command line (same as the `rlvr` script)."""

from rlvr.cli import main

main()
