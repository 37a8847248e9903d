#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import csv
rows = list(csv.DictReader(open("sales.csv")))
ps = sorted({r["product"] for r in rows})
rs = sorted({r["region"] for r in rows})
t = {(r, p): 0 for r in rs for p in ps}
for r in rows:
    t[r["region"], r["product"]] += int(r["units"])
with open("pivot.csv", "w") as f:
    f.write(",".join(["region"] + ps) + "\n")
    for r in rs:
        f.write(",".join([r] + [str(t[r, p]) for p in ps]) + "\n")
    f.write(",".join(["TOTAL"] + [str(sum(t[r, p] for r in rs)) for p in ps]) + "\n")
PY
