#!/bin/sh
# Rust test runner for the rlvr sandbox: sh run-tests.sh REPORT_FILE
#
# Runs in the job's private writable workspace (writable_workspace = true: the only copy of
# the job's files), with CARGO_HOME and CARGO_TARGET_DIR in the job's scratch dir. Steps, so that the answer never
# sees the test sources and its code only runs in the last one:
#   1. build the library alone while the test files sit in a directory nobody can read, so
#      include_str!/include!/#[path] in the answer cannot pull the hidden tests in;
#   2. put the tests back and build the test binary (the library is not rebuilt);
#   3. delete the test sources and run the binary; libtest itself writes one line per test
#      (`ok <name>` / `failed <name>` / `ignored <name>`) to REPORT_FILE via --logfile, so
#      lines the answer prints never reach the report.
report="$1"
hide=.rlvr-hidden-tests
mkdir "$hide" && mv tests/public.rs tests/hidden.rs "$hide"/ && chmod 000 "$hide" || exit 4
cargo build --offline --quiet --lib
built=$?
chmod 700 "$hide" && mv "$hide"/public.rs "$hide"/hidden.rs tests/ && rmdir "$hide" || exit 4
[ "$built" -eq 0 ] || exit 3
cargo test --offline --quiet --no-run || exit 3
bin=$(find "${CARGO_TARGET_DIR:-target}/debug/deps" -maxdepth 1 -type f -name 'suite-*' \
    -perm -u+x | head -n 1)
[ -n "$bin" ] || { echo "run-tests.sh: no test binary was built" >&2; exit 4; }
rm -f tests/public.rs tests/hidden.rs
exec "$bin" --logfile "$report" --test-threads 2
