#!/bin/bash
set -e
export GIT_AUTHOR_NAME='Bob Builder' GIT_AUTHOR_EMAIL=bob@example.com GIT_COMMITTER_NAME='Bob Builder' GIT_COMMITTER_EMAIL=bob@example.com
T=1767225600
c() { T=$((T+3600)); GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000" git commit -q "$@"; }

cd /app && git init -q exporter && cd exporter
printf '# exporter\n' > README.md && git add . && c -m "Initial"
printf 'import csv\n\ndef read(path):\n    with open(path) as f:\n        return list(csv.reader(f))\n' > reader.py && git add . && c -m "Add reader"
printf 'def export(rows):\n    pass\n' > export.py && git add . && c -m "WIP"
printf 'def export(rows, out):\n    for r in rows:\n        out.write(",".join(r))\n' > export.py && c -am "WIP 2"
printf 'def export(rows, out):\n    for r in rows:\n        out.write(",".join(r) + "\\n")\n' > export.py && c -am "fix typo"
printf '# exporter\n\nReads and exports CSV.\n' > README.md && c -am "WIP 4"
