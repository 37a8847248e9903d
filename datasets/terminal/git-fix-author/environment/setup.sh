#!/bin/bash
set -e
export GIT_AUTHOR_NAME='Bob Builder' GIT_AUTHOR_EMAIL=bob@example.com GIT_COMMITTER_NAME='Bob Builder' GIT_COMMITTER_EMAIL=bob@example.com
T=1767225600
c() { T=$((T+3600)); GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000" git commit -q "$@"; }

cd /app && git init -q lib && cd lib
printf 'def add(a, b):\n    return a + b\n' > calc.py && git add . && c -m "Add calc"
printf 'def sub(a, b):\n    return a - b\n' >> calc.py && c -am "Add sub"
printf '# lib\n' > README.md && git add . && c -m "Add readme"
export GIT_AUTHOR_NAME=agent GIT_AUTHOR_EMAIL=agent@sandbox
printf 'def mul(a, b):\n    return a * b\n' >> calc.py && c -am "Add mul"
printf '# lib\n\nadd, sub, mul\n' > README.md && c -am "Document functions"
