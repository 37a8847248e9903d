#!/bin/bash
set -e
cd /app
cat > csv2json.py <<'PY'
import csv, json, re, sys

INT = re.compile(r"-?(0|[1-9][0-9]*)")
FLT = re.compile(r"-?[0-9]+\.[0-9]+")


def conv(v):
    if v == "":
        return None
    if v in ("true", "false"):
        return v == "true"
    if INT.fullmatch(v):
        return int(v)
    if FLT.fullmatch(v):
        return float(v)
    return v


rows = list(csv.reader(sys.stdin))
json.dump([dict(zip(rows[0], map(conv, r))) for r in rows[1:]], sys.stdout)
PY
