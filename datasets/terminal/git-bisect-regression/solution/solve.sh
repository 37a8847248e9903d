#!/bin/bash
set -e
cd /app
cd calc
git bisect start main "$(git rev-list --max-parents=0 main)" >/dev/null
git bisect run ./check.sh > /tmp/bisect.out 2>&1
git rev-parse refs/bisect/bad > /app/first_bad.txt
git bisect reset >/dev/null 2>&1
