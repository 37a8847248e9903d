#!/bin/sh
# Go build step for the rlvr sandbox: sh build.sh OUT
#
# Runs as the judge's uid in its private workspace (the answer's uid can read none of it), before
# any of the answer's code runs. The test binary it writes to OUT is executable but not
# readable by the answer's uid; the runner starts it as that uid, then revokes it (so it cannot
# be run again to list its tests, nor read for their names), and rlvr_main_test.go's TestMain
# refuses to run unless the runner started it with exactly the runner's flags.
#   1. refuse answers that embed files (//go:embed could copy the hidden tests into the
#      binary; nothing else in a cgo-free Go build reads files at compile time) or import a
#      package that reaches below Go's memory safety or out of the process: unsafe (with
#      //go:linkname it rewrites the testing package's state), syscall (raw prctl, mprotect,
#      process_vm_writev, dup3 over the signed output), runtime/debug (WriteHeapDump copies
#      the heap, nonce included, to a file), runtime/pprof and runtime/trace, os/exec and
#      plugin;
#   2. compile the package and its tests into the test binary OUT.
out="$1"
denied="unsafe syscall runtime/debug runtime/pprof runtime/trace os/exec plugin"
info=$(go list -f '{{join .EmbedPatterns " "}}|{{join .Imports " "}}' .) || exit 3
if [ -n "${info%%|*}" ]; then
    echo "build.sh: the answer uses ${info%%|*}; //go:embed is not allowed" >&2
    exit 3
fi
for pkg in ${info#*|}; do
    for bad in $denied; do
        if [ "$pkg" = "$bad" ]; then
            echo "build.sh: the answer imports $pkg; not allowed here ($denied)" >&2
            exit 3
        fi
    done
done
go test -c -vet=off -o "$out" . || exit 3
chmod 0711 "$out"
