#!/bin/sh
# Go test runner for the rlvr sandbox: sh run-tests.sh
#
# Runs in the job's private writable workspace (writable_workspace = true: the only copy of
# the job's files), with GOCACHE, GOPATH and TMPDIR in the job's scratch dir. The answer's code only ever runs in the last step:
#   1. refuse answers that embed files (//go:embed could copy the hidden tests into the
#      binary; nothing else in a cgo-free Go build reads files at compile time) or import
#      unsafe (which, with //go:linkname, could rewrite the testing package's state);
#   2. compile the package and its tests into a test binary;
#   3. delete the *_test.go sources, so the answer cannot read the hidden tests' names;
#   4. exec `go tool test2json` over the binary: its stdout, the JSON events, is the report.
# Go 1.19 has no framing marker, so test2json also parses lines the answer prints; the grader's
# exact test-name check and the adapter's exit-status check are what reject forged lines. The
# report is stdout rather than a file because a pipe only grows: the answer's code, which runs
# in the binary, could rewrite a file but cannot remove the real results from the pipe.
# `-test.paniconexit0` (which `go test` would pass) turns an os.Exit(0) inside a test into a
# failure.
bin="${TMPDIR:-/tmp}/rlvr-solution.test"
refused=$(go list -f '{{join .EmbedPatterns " "}} {{range .Imports}}{{if eq . "unsafe"}}unsafe{{end}}{{end}}' .) \
    || exit 3
if [ -n "${refused# }" ]; then
    echo "run-tests.sh: the answer uses $refused; //go:embed and package unsafe are not allowed" >&2
    exit 3
fi
go test -c -vet=off -o "$bin" . || exit 3
rm -f ./*_test.go
exec go tool test2json -t -p solution "$bin" -test.v=true -test.paniconexit0 -test.count=1
