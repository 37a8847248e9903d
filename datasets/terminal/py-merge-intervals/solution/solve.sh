#!/bin/bash
set -e
cd /app
cat > merge.py <<'PY'
import sys

iv = sorted(tuple(map(int, ln.strip().split("-"))) for ln in sys.stdin if ln.strip())
out = []
for a, b in iv:
    if out and a <= out[-1][1]:
        out[-1][1] = max(out[-1][1], b)
    else:
        out.append([a, b])
for a, b in out:
    print(f"{a}-{b}")
PY
