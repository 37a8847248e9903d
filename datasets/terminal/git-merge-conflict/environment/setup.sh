#!/bin/bash
set -e
export GIT_AUTHOR_NAME='Bob Builder' GIT_AUTHOR_EMAIL=bob@example.com GIT_COMMITTER_NAME='Bob Builder' GIT_COMMITTER_EMAIL=bob@example.com
T=1767225600
c() { T=$((T+3600)); GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000" git commit -q "$@"; }

cd /app && git init -q site && cd site
printf '{\n  "name": "site",\n  "timeout": 30,\n  "workers": 2\n}\n' > config.json
printf 'v1\n' > VERSION
git add . && c -m "Initial config"
git checkout -q -b update-config
printf '{\n  "name": "site",\n  "timeout": 60,\n  "retries": 3,\n  "workers": 2\n}\n' > config.json
c -am "Raise timeout, add retries"
git checkout -q main
printf '{\n  "name": "site",\n  "timeout": 45,\n  "log_level": "debug",\n  "workers": 2\n}\n' > config.json
c -am "Tune timeout, add log level"
printf 'v2\n' > VERSION && c -am "Bump version"
