#!/bin/bash
set -e
export GIT_AUTHOR_NAME='Bob Builder' GIT_AUTHOR_EMAIL=bob@example.com GIT_COMMITTER_NAME='Bob Builder' GIT_COMMITTER_EMAIL=bob@example.com
T=1767225600
c() { T=$((T+3600)); GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000" git commit -q "$@"; }

cd /app && git init -q tool && cd tool
printf '1.0.0\n' > VERSION && git add . && c -m "Initial"
printf 'print("cli")\n' > cli.py && git add . && c -m "Add CLI"
git tag stable
printf '2.0.0\n' > VERSION && c -am "Bump version to 2.0.0"
printf '2.1.0-dev\n' > VERSION && c -am "Start 2.1 development"
printf 'PLUGINS = []\n' > plugins.py && git add . && c -m "Add plugin API"
