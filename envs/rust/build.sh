#!/bin/sh
# Rust build step for the rlvr sandbox: sh build.sh OUT
#
# Runs as the judge's uid in its private workspace (the answer's uid can read none of it), before
# any of the answer's code runs:
#   1. build the library alone while the test files sit in a directory nobody can read, so
#      include_str!/include!/#[path] in the answer cannot pull the hidden tests in;
#   2. put the tests back, turn their #[test] functions into plain ones and write the test
#      target's main (make_suite.py): it runs only when the sandbox runner is its parent,
#      reads a per-job nonce from stdin before any test runs, and prints `<nonce> ok|FAILED
#      <name>` per test and `<nonce> done <n>` at the end. The answer's code (no unsafe) can
#      neither read that nonce nor this process's memory, so it cannot print such lines;
#   3. build the test binary and copy it to OUT, executable but not readable by the answer's
#      uid (the runner revokes it once started).
# Before all that, refuse answers with the shapes of known safe-code soundness holes (they
# would give the answer the process's memory, nonce included), and when the task states its
# signature (rlvr-signature.txt), let the tests import only the task's items and pin each
# function's exact types (make_suite.py).
out="$1"
python3 make_suite.py --check src/lib.rs || exit 3
signature=""
[ -s rlvr-signature.txt ] && signature="--signature rlvr-signature.txt"
hide=.rlvr-hidden-tests
mkdir "$hide" && mv tests/public.rs tests/hidden.rs "$hide"/ && chmod 000 "$hide" || exit 4
cargo build --offline --quiet --lib
built=$?
chmod 700 "$hide" && mv "$hide"/public.rs "$hide"/hidden.rs tests/ && rmdir "$hide" || exit 4
[ "$built" -eq 0 ] || exit 3
python3 make_suite.py $signature tests/public.rs tests/hidden.rs > tests/suite.rs || exit 4
cargo test --offline --quiet --no-run || exit 3
bin=$(find "${CARGO_TARGET_DIR:-target}/debug/deps" -maxdepth 1 -type f -name 'suite-*' \
    -perm -u+x | head -n 1)
[ -n "$bin" ] || { echo "build.sh: no test binary was built" >&2; exit 4; }
cp "$bin" "$out" && chmod 0711 "$out" || exit 4
