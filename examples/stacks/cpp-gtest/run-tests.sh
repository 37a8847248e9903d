#!/bin/sh
# GoogleTest runner for the rlvr sandbox (writable_workspace: the job's only copy of its files).
#   1. compile the answer alone while the test sources are unreadable (an `#include` of them
#      fails), so the answer cannot learn the hidden tests' names at compile time;
#   2. compile the tests and link them with the answer and gtest_main;
#   3. delete the test sources, then run the binary; GoogleTest writes JUnit XML to $REPORT.
# A compile error exits 3 before any test ran: the grader then scores the answer 0 when the
# task's reference builds, and masks the verdict when the task itself is broken.
set -u
out="${TMPDIR:-/tmp}"
chmod 000 public_test.cpp hidden_test.cpp
g++ -std=c++17 -O0 -c -o "$out/solution.o" solution.cpp || exit 3
chmod 600 public_test.cpp hidden_test.cpp
g++ -std=c++17 -O0 -o "$out/tests.bin" "$out/solution.o" public_test.cpp hidden_test.cpp \
    -lgtest -lgtest_main -pthread || exit 3
rm -f public_test.cpp hidden_test.cpp
exec "$out/tests.bin" --gtest_output="xml:$REPORT"
