#!/bin/bash
set -e
export GIT_AUTHOR_NAME='Bob Builder' GIT_AUTHOR_EMAIL=bob@example.com GIT_COMMITTER_NAME='Bob Builder' GIT_COMMITTER_EMAIL=bob@example.com
T=1767225600
c() { T=$((T+3600)); GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000" git commit -q "$@"; }

cd /app && git init -q web && cd web
printf '# web\n' > README.md && git add . && c -m "Initial"
printf 'a\n' > a.txt && git add . && c -m "Add a"
git checkout -q -b old-base
printf 'legacy\n' > legacy.txt && git add . && c -m "Legacy experiment 1"
printf 'legacy 2\n' > legacy.txt && c -am "Legacy experiment 2"
git checkout -q -b feature
printf 'def login():\n    return True\n' > login.py && git add . && c -m "Add login"
printf 'def logout():\n    return True\n' > logout.py && git add . && c -m "Add logout"
git checkout -q main
printf 'b\n' > b.txt && git add . && c -m "Add b"
printf '# web\n\nThe site.\n' > README.md && c -am "Describe the site"
