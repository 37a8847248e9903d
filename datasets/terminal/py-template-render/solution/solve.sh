#!/bin/bash
set -e
cd /app
cat > render.py <<'PY'
import json
import re
import sys

TAG = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:\|\s*(upper|lower|title)\s*)?\}\}")
template = open(sys.argv[1], encoding="utf-8").read()
data = json.load(open(sys.argv[2], encoding="utf-8"))


def sub(m):
    cur = data
    for part in m.group(1).split("."):
        if not isinstance(cur, dict) or part not in cur:
            sys.stderr.write(f"render.py: unknown name {m.group(1)}\n")
            sys.exit(1)
        cur = cur[part]
    s = cur if isinstance(cur, str) else json.dumps(cur)
    return {None: s, "upper": s.upper(), "lower": s.lower(), "title": s.title()}[m.group(2)]


sys.stdout.write(TAG.sub(sub, template))
PY
