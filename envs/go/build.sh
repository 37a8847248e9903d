#!/bin/sh
# Go build step for the rlvr sandbox: sh build.sh OUT
#
# Runs as the judge's uid in its private workspace (the answer's uid can read none of it), before
# any of the answer's code runs. The test binary it writes to OUT is executable but not
# readable by the answer's uid; the runner starts it as that uid, then revokes it (so it cannot
# be run again to list its tests, nor read for their names), and rlvr_main_test.go's TestMain
# refuses to run unless the runner started it with exactly the runner's flags.
#   1. refuse answers that embed files (//go:embed could copy the hidden tests into the
#      binary; nothing else in a cgo-free Go build reads files at compile time) or import
#      unsafe (which, with //go:linkname, could rewrite the testing package's state);
#   2. compile the package and its tests into the test binary OUT.
out="$1"
refused=$(go list -f '{{join .EmbedPatterns " "}} {{range .Imports}}{{if eq . "unsafe"}}unsafe{{end}}{{end}}' .) \
    || exit 3
if [ -n "${refused# }" ]; then
    echo "build.sh: the answer uses $refused; //go:embed and package unsafe are not allowed" >&2
    exit 3
fi
go test -c -vet=off -o "$out" . || exit 3
chmod 0711 "$out"
