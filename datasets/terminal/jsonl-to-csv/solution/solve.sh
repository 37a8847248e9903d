#!/bin/bash
set -e
cd /app
python3 - <<'PY'
import csv, json
evs = [json.loads(l) for l in open("events.jsonl") if l.strip()]
evs.sort(key=lambda e: (e["ts"], e["id"]))
with open("events.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["id", "ts", "user_name", "user_email", "tags"])
    for e in evs:
        w.writerow([e["id"], e["ts"], e["user"]["name"], e["user"].get("email", ""), ";".join(e["tags"])])
PY
