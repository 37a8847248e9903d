#!/bin/bash
set -e
cd /app
cat > summarize.py <<'PY'
import json
import re
import sys

LINE = re.compile(r"(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) (INFO|WARN|ERROR|DEBUG) ([a-z][a-z0-9_-]*): (.*)")
res = {"total": 0, "malformed": 0, "levels": {}, "components": {}, "first": None, "last": None, "errors": []}
for ln in sys.stdin.read().splitlines():
    if not ln.strip():
        continue
    m = LINE.fullmatch(ln)
    if not m:
        res["malformed"] += 1
        continue
    ts, lv, comp, msg = m.groups()
    res["total"] += 1
    res["levels"][lv] = res["levels"].get(lv, 0) + 1
    res["components"][comp] = res["components"].get(comp, 0) + 1
    res["first"] = ts if res["first"] is None else min(res["first"], ts)
    res["last"] = ts if res["last"] is None else max(res["last"], ts)
    if lv == "ERROR":
        res["errors"].append(msg)
print(json.dumps(res))
PY
