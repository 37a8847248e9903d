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
#      plugin, reflect (Value.UnsafePointer with NewAt reads and writes any address without
#      importing unsafe: an outside attack round marked the running test finished), runtime
#      and flag (GOMAXPROCS and -test.cpu: the tests run on one P, see
#      rlvr_main_test.go);
#   2. (3., below) refuse top-level names that shadow predeclared identifiers;
#   4. compile the package and its tests into the test binary OUT.
out="$1"
SHADOW_CHECK='
import re, sys
UNIVERSE = set("""bool byte complex64 complex128 error float32 float64 int int8 int16 int32
int64 rune string uint uint8 uint16 uint32 uint64 uintptr any comparable true false iota nil
append cap close complex copy delete imag len make new panic print println real recover
""".split())
IDENTS = r"([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)"
names, group = [], False
for line in sys.stdin.read().split("\n"):
    if group:
        group = line != ")"
        m = re.match("\t" + IDENTS, line)
    elif re.match(r"(var|const|type)\s*\($", line):
        group, m = True, None
    else:
        m = re.match(r"(?:func|var|const|type)\s+" + IDENTS, line)
    if m:
        names += re.split(r"\s*,\s*", m.group(1))
bad = sorted(set(names) & UNIVERSE)
if bad:
    sys.exit("build.sh: %s declares %s at package level, which would shadow the predeclared "
             "identifier(s) in the tests; not allowed" % (sys.argv[1], ", ".join(bad)))
'
denied="solution/rlvrguard unsafe syscall reflect runtime runtime/debug runtime/pprof runtime/trace os/exec plugin flag"
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
# 3. the answer shares the tests' package, so a top-level name of its own would shadow a
#    predeclared one in the tests (`func len`, `const true = false`, `var nil = ...`): refuse
#    those (gofmt puts every top-level declaration at column 0, grouped specs one tab in).
for f in $(go list -f '{{join .GoFiles " "}}' .); do
    gofmt "$f" > "$f.rlvr-fmt" || exit 3
    python3 -c "$SHADOW_CHECK" "$f" < "$f.rlvr-fmt" || exit 3
    rm -f "$f.rlvr-fmt"
done
go test -c -vet=off -o "$out" . || exit 3
chmod 0711 "$out"
