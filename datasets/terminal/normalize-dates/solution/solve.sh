#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import csv
from datetime import datetime
FMTS = ["%Y-%m-%d", "%d/%m/%Y", "%Y.%m.%d", "%b %d, %Y", "%d %B %Y"]
def iso(s):
    for f in FMTS:
        try:
            return datetime.strptime(s, f).date().isoformat()
        except ValueError:
            pass
    raise SystemExit(f"unknown date {s!r}")
rows = list(csv.reader(open("events.csv", newline="")))
with open("events_iso.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(rows[0])
    for r in rows[1:]:
        w.writerow([r[0], iso(r[1]), r[2]])
PY
