#!/bin/bash
python3 - <<'PY'
import urllib.request
try:
    body = urllib.request.urlopen("http://127.0.0.1:8000/index.html", timeout=5).read()
    ok = b"it works" in body
except OSError:
    ok = False
open("/logs/verifier/reward.txt", "w").write("1" if ok else "0")
PY
